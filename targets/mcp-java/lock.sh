#!/usr/bin/env bash
# Write deps.lock from pom.xml: every jar Maven resolves for the target (runtime scope), one line
# each, "PATH SHA256", PATH in Maven's repository layout (the path under https://repo1.maven.org/maven2/).
# build.sh installs exactly these jars, each checked against its sha256; Maven is needed only here.
#   bash targets/mcp-java/lock.sh        # after editing pom.xml; commit pom.xml and deps.lock together
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v mvn >/dev/null 2>&1 || { echo "mcp-java lock: mvn not found: install Maven (Debian: apt-get install maven)" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
  -Dmdep.useRepositoryLayout=true -DoutputDirectory="$tmp/lib" >&2
{
  echo "# mcp-java's resolved jars: PATH (under https://repo1.maven.org/maven2/) and SHA256. Written by lock.sh from pom.xml; do not edit."
  (cd "$tmp/lib" && find . -name '*.jar' | sed 's|^\./||' | LC_ALL=C sort | while read -r path; do
    echo "$path $(sha256sum "$path" | cut -d' ' -f1)"
  done)
} >"$here/deps.lock.tmp"
mv "$here/deps.lock.tmp" "$here/deps.lock"
echo "mcp-java lock: $(grep -vc '^#' "$here/deps.lock") jars in $here/deps.lock" >&2
