#!/usr/bin/env bash
# Write the committed lock of one release environment of the releases report
# (matrices/mcp-sdk-releases.yaml): locks/<family>@<version>/package.json with the exact pins,
# and its package-lock.json resolved by npm from the registry (nothing is installed).
#
#   bash targets/mcp-ts-releases/lock.sh v1 1.13.0          # @modelcontextprotocol/sdk 1.13.0
#   bash targets/mcp-ts-releases/lock.sh v2 2.3.1 2.1.1     # @modelcontextprotocol/server 2.3.1 + @modelcontextprotocol/node 2.1.1
#
# The SDK's own dependencies (zod among them) resolve as npm resolves them for a new project
# installing that release; the lock then pins them.
set -euo pipefail
family=$1 version=$2
dir="$(cd "$(dirname "$0")" && pwd)/locks/$family@$version"
mkdir -p "$dir"
case $family in
  v1) deps="\"@modelcontextprotocol/sdk\": \"$version\"" ;;
  v2) deps="\"@modelcontextprotocol/server\": \"$version\", \"@modelcontextprotocol/node\": \"${3:?the @modelcontextprotocol/node version released for it}\"" ;;
  *) echo "lock.sh: family must be v1 or v2" >&2; exit 2 ;;
esac
cat > "$dir/package.json" <<JSON
{
  "name": "wirecost-mcp-ts-$family-env",
  "private": true,
  "type": "module",
  "dependencies": { $deps }
}
JSON
(cd "$dir" && npm install --package-lock-only --ignore-scripts --no-audit --no-fund >/dev/null)
echo "$dir"
