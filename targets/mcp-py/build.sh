#!/usr/bin/env bash
# Build the mcp-py target into OUT: a virtual environment at OUT/venv holding exactly the
# distributions pinned (with hashes) in requirements.txt, or in REQUIREMENTS when given (the
# releases report's lock of one `mcp` release, targets/mcp-py-releases/locks/). Run the server as
# `OUT/venv/bin/python targets/mcp-py/server.py ...` (never through console-script shebangs, so OUT
# may be renamed after the build).
#
#   bash targets/mcp-py/build.sh OUT [REQUIREMENTS]     # OUT: absolute path of an empty folder
#
# Env: WIRECOST_CACHE (optional): a folder kept between builds; the pinned wheels are kept in
# WIRECOST_CACHE/wheels and installed from there.
set -euo pipefail

fail() { echo "mcp-py build: $*" >&2; exit 1; }

[ $# -eq 1 ] || [ $# -eq 2 ] || fail "usage: build.sh OUT [REQUIREMENTS] (OUT an absolute path of an empty folder)"
OUT=$1
case "$OUT" in /*) ;; *) fail "OUT must be an absolute path, got '$OUT'" ;; esac
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REQUIREMENTS=${2:-$HERE/requirements.txt}
[ -f "$REQUIREMENTS" ] || fail "no lock at $REQUIREMENTS: write it with targets/mcp-py-releases/lock.sh (README, Package versions as an axis)"
mkdir -p "$OUT" || fail "cannot create $OUT"

command -v python3 >/dev/null 2>&1 || fail "python3 not found on PATH: install Python 3.10 or newer"
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
  || fail "python3 is $(python3 -V 2>&1): mcp needs Python 3.10 or newer"

echo "mcp-py build: python3 -m venv $OUT/venv ($(python3 -V 2>&1))" >&2
python3 -m venv "$OUT/venv" >&2 2>"$OUT/venv.log" \
  || fail "python3 -m venv failed: install python3-venv (the venv and ensurepip modules); see $OUT/venv.log"
rm -f "$OUT/venv.log"

pip=("$OUT/venv/bin/python" -m pip --disable-pip-version-check --no-input)
lock=(--require-hashes --no-deps --only-binary :all: -r "$REQUIREMENTS")
if [ -n "${WIRECOST_CACHE:-}" ]; then
  # The registry's answers are not HTTP-cacheable, so keep the wheels themselves: pip download
  # reuses (after checking its hash) every wheel already in the folder, and the install then reads
  # only that folder.
  wheels="$WIRECOST_CACHE/wheels"
  mkdir -p "$wheels" || fail "cannot create $wheels (WIRECOST_CACHE)"
  echo "mcp-py build: pip download --require-hashes -r $REQUIREMENTS -d $wheels" >&2
  "${pip[@]}" download "${lock[@]}" -d "$wheels" >&2 \
    || fail "pip download from requirements.txt failed (see above): check the network to PyPI, or regenerate $REQUIREMENTS as its header says"
  echo "mcp-py build: pip install --require-hashes --no-deps --no-index -r $REQUIREMENTS" >&2
  "${pip[@]}" install --no-index --find-links "$wheels" "${lock[@]}" >&2 \
    || fail "pip install from $wheels failed (see above): empty $wheels and build again"
else
  echo "mcp-py build: pip install --require-hashes --no-deps -r $REQUIREMENTS" >&2
  "${pip[@]}" install "${lock[@]}" >&2 \
    || fail "pip install from requirements.txt failed (see above): check the network to PyPI, or regenerate $REQUIREMENTS as its header says"
fi
"$OUT/venv/bin/python" -c 'import mcp.server, uvicorn' \
  || fail "the installed venv cannot import mcp.server and uvicorn: rebuild into an empty OUT"
echo "mcp-py build: ok ($OUT/venv)" >&2
