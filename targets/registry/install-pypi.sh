#!/usr/bin/env bash
# Install an MCP server published on PyPI into OUT, for `wirecost measure --pypi PKG==VERSION`:
# a venv at OUT/venv with the package (pip install, exact version, and what it depends on), and
# OUT/bin/server, a launcher that starts the package's first console script through the venv's
# Python (paths relative to itself, so OUT may be renamed after the build).
#
#   bash targets/registry/install-pypi.sh OUT PKG==VERSION
set -euo pipefail
fail() { echo "install-pypi: $*" >&2; exit 1; }
[ $# -eq 2 ] || fail "usage: install-pypi.sh OUT PKG==VERSION"
OUT=$1 SPEC=$2
case "$SPEC" in ?*==?*) ;; *) fail "give an exact version: PKG==VERSION (e.g. mcp-server-time==2026.10.19), got '$SPEC'" ;; esac
PKG=${SPEC%%==*}
mkdir -p "$OUT/bin"
python3 -m venv "$OUT/venv" >&2 || fail "python3 -m venv failed: install python3-venv"
"$OUT/venv/bin/python" -m pip install --disable-pip-version-check --no-input "$SPEC" >&2 \
  || fail "pip install $SPEC failed (see above): check the name and version on PyPI"
SCRIPT=$("$OUT/venv/bin/python" -c '
import importlib.metadata as m, sys
eps = [e.name for e in m.distribution(sys.argv[1]).entry_points if e.group == "console_scripts"]
print(eps[0] if eps else "")' "$PKG")
[ -n "$SCRIPT" ] || fail "$PKG declares no console script: give the server command with -- instead"
cat > "$OUT/bin/server" <<LAUNCH
#!/bin/sh
here=\$(cd "\$(dirname "\$0")/.." && pwd)
exec "\$here/venv/bin/python" "\$here/venv/bin/$SCRIPT" "\$@"
LAUNCH
chmod +x "$OUT/bin/server"
echo "install-pypi: ok ($PKG, console script $SCRIPT)" >&2
