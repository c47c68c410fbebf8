#!/usr/bin/env bash
# Install an MCP server published on npm into OUT, for `wirecost measure --npm PKG@VERSION`:
# OUT/node_modules from the registry (npm install in OUT, exact version), OUT/package-lock.json
# (the resolved set wirecost records), and OUT/bin/server, a launcher that starts the package's
# first bin with node (paths relative to itself, so OUT may be renamed after the build).
#
#   bash targets/registry/install-npm.sh OUT PKG@VERSION
set -euo pipefail
fail() { echo "install-npm: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: install-npm.sh OUT PKG@VERSION"
OUT=$1 SPEC=$2
case "$SPEC" in ?*@[0-9]*) ;; *) fail "give an exact version: PKG@VERSION (e.g. @modelcontextprotocol/server-everything@2026.8.31), got '$SPEC'" ;; esac
PKG=${SPEC%@*}
mkdir -p "$OUT/bin"
echo '{"private":true}' > "$OUT/package.json"
VERSION=${SPEC##*@}
if ! LOG=$(cd "$OUT" && npm install --save-exact --no-audit --no-fund --ignore-scripts "$SPEC" 2>&1); then
  printf '%s\n' "$LOG" >&2
  # npm's ETARGET (no such version) and E404 (no such package): the cause in one line.
  if grep -q 'code ETARGET' <<<"$LOG"; then
    NEWEST=$(npm view "$PKG" version 2>/dev/null || true)
    fail "npm has no version $VERSION of $PKG (newest: ${NEWEST:-unknown}) — give one it has: npm view $PKG versions"
  fi
  grep -q 'code E404' <<<"$LOG" && fail "npm has no package $PKG — check its name on the npm registry"
  fail "npm install $SPEC failed (see above): check the name and version on the npm registry"
fi
printf '%s\n' "$LOG" >&2
BIN=$(node -e '
const p = require(process.argv[1] + "/node_modules/" + process.argv[2] + "/package.json");
const b = typeof p.bin === "string" ? p.bin : Object.values(p.bin ?? {})[0];
if (!b) process.exit(1);
console.log(b);' "$OUT" "$PKG") || fail "$PKG declares no bin: give the server command with -- instead"
cat > "$OUT/bin/server" <<LAUNCH
#!/bin/sh
here=\$(cd "\$(dirname "\$0")/.." && pwd)
exec node "\$here/node_modules/$PKG/$BIN" "\$@"
LAUNCH
chmod +x "$OUT/bin/server"
echo "install-npm: ok ($PKG, bin $BIN)" >&2
