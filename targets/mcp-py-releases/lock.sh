#!/usr/bin/env bash
# Write the committed lock of one Python SDK release of the releases report
# (matrices/mcp-sdk-releases.yaml): locks/mcp@<version>/requirements.in (the one pin) and its
# requirements.txt with hashes, resolved from PyPI (nothing is installed here;
# targets/mcp-py/build.sh installs it with pip install --require-hashes).
#
#   bash targets/mcp-py-releases/lock.sh 1.22.0
#   bash targets/mcp-py-releases/lock.sh 1.22.0 'pydantic<2.14'             # a dependency held back (README.md says why)
#   bash targets/mcp-py-releases/lock.sh --as-of 2025-06-27 1.10.0           # the dependencies of the release's own time
#
# Without --as-of the release's own dependencies resolve as pip resolves them for a new
# environment installing that release today (pip-tools 7.6.2's pip-compile). With --as-of DATE
# they resolve from what PyPI held before DATE (UTC): uv's `pip compile --exclude-newer DATE`, as a
# new environment would have been made on that day (README.md: releases whose dependencies have
# since broken them). pip-tools is installed once into .wirecost/tools/pip-tools-7.6.2, uv into
# .wirecost/tools/uv-0.13.9, never into the project.
set -euo pipefail
usage='usage: lock.sh [--as-of YYYY-MM-DD] VERSION [REQUIREMENT...] (an mcp release on PyPI, e.g. 1.22.0)'
as_of=""
if [ "${1:-}" = "--as-of" ]; then
  as_of=${2:?$usage}
  [[ "$as_of" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || { echo "lock.sh: --as-of $as_of is not a date YYYY-MM-DD — $usage" >&2; exit 2; }
  shift 2
fi
version=${1:?$usage}
shift
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tools="$root/.wirecost/tools/pip-tools-7.6.2"
uv_tools="$root/.wirecost/tools/uv-0.13.9"
if [ -n "$as_of" ] && [ ! -x "$uv_tools/bin/uv" ]; then
  rm -rf "$uv_tools.tmp"
  python3 -m venv "$uv_tools.tmp"
  "$uv_tools.tmp/bin/python" -m pip install --disable-pip-version-check -q uv==0.13.9
  mv "$uv_tools.tmp" "$uv_tools"
fi
if [ -z "$as_of" ] && { [ ! -x "$tools/bin/python" ] || ! "$tools/bin/python" -c "import piptools" 2>/dev/null; }; then
  rm -rf "$tools.tmp"
  python3 -m venv "$tools.tmp"
  "$tools.tmp/bin/python" -m pip install --disable-pip-version-check -q pip-tools==7.6.2
  mv "$tools.tmp" "$tools"
fi
dir="$here/locks/mcp@$version"
mkdir -p "$dir"
cat > "$dir/requirements.in" <<IN
# The Python SDK release of this lock; requirements.txt is resolved from this file (see its header).
mcp==$version
IN
for held in "$@"; do
  printf '# held back: the release does not run with the newest (targets/mcp-py-releases/README.md)\n%s\n' "$held" >> "$dir/requirements.in"
done
if [ -n "$as_of" ]; then
  printf '# resolved as of %s: from what PyPI held before that day (lock.sh --as-of)\n' "$as_of" >> "$dir/requirements.in"
fi
cd "$dir"
if [ -n "$as_of" ]; then
  env -u PIP_FIND_LINKS -u UV_INDEX_URL "$uv_tools/bin/uv" pip compile -q --generate-hashes --strip-extras --python "$(command -v python3)" \
    --exclude-newer "${as_of}T00:00:00Z" -o requirements.txt requirements.in
else
  env -u PIP_FIND_LINKS "$tools/bin/python" -m piptools compile -q --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links \
    -o requirements.txt requirements.in
fi
echo "$dir"
