#!/usr/bin/env bash
# Build the A2A Python target: a venv at OUT/venv holding exactly the hashed lock (requirements.txt).
# Usage: bash targets/a2a-py/build.sh OUT   (OUT: absolute path of an empty folder)
# Env: WIRECOST_CACHE (optional) — persistent folder used as pip's cache across rebuilds.
# Run the target afterwards as `OUT/venv/bin/python targets/a2a-py/server.py --port N`.
set -euo pipefail

fail() { echo "a2a-py build: $*" >&2; exit 1; }

[[ $# -eq 1 ]] || fail "usage: build.sh OUT (an absolute path of an empty folder)"
OUT=$1
[[ $OUT == /* ]] || fail "OUT must be an absolute path, got '$OUT'"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PYTHON=${PYTHON:-python3}

command -v "$PYTHON" >/dev/null || fail "$PYTHON not found: install Python 3.11 or newer (or set PYTHON=/path/to/python3)"
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
  || fail "$PYTHON is $("$PYTHON" -c 'import sys; print(sys.version.split()[0])'): the lock is resolved for Python >= 3.11; install one (or set PYTHON=/path/to/python3.11)"

mkdir -p "$OUT"
echo "a2a-py build: creating $OUT/venv with $("$PYTHON" -c 'import sys; print(sys.executable, sys.version.split()[0])')" >&2
"$PYTHON" -m venv "$OUT/venv" >&2 || fail "$PYTHON -m venv failed: install the venv module (e.g. apt-get install python3-venv)"
[[ -x $OUT/venv/bin/python ]] || fail "$PYTHON -m venv made no $OUT/venv/bin/python: install the venv module (e.g. apt-get install python3-venv)"

pip_args=(--disable-pip-version-check --no-input --require-hashes --no-deps -r "$HERE/requirements.txt")
if [[ -n ${WIRECOST_CACHE:-} ]]; then
  mkdir -p "$WIRECOST_CACHE/pip"
  pip_args=(--cache-dir "$WIRECOST_CACHE/pip" "${pip_args[@]}")
else
  pip_args=(--no-cache-dir "${pip_args[@]}")
fi
echo "a2a-py build: installing the lock ($(grep -c '^[a-z]' "$HERE/requirements.txt") pinned distributions, hashes required)" >&2
"$OUT/venv/bin/python" -m pip install "${pip_args[@]}" >&2 \
  || fail "pip install --require-hashes -r targets/a2a-py/requirements.txt failed (see above): check the network to PyPI, or recompile the lock"

"$OUT/venv/bin/python" -m pip check --disable-pip-version-check >&2 \
  || fail "pip check found the lock inconsistent (see above): recompile targets/a2a-py/requirements.txt"
# The fast path must import in the built venv, or the server would refuse to start anyway.
"$OUT/venv/bin/python" -c 'import a2a, uvicorn, uvloop, httptools, starlette, sse_starlette' \
  || fail "the built venv cannot import a2a/uvicorn/uvloop/httptools: rebuild into an empty folder"
echo "a2a-py build: ok ($OUT/venv)" >&2
