#!/usr/bin/env bash
# Write the committed lock of one Python SDK release of the releases report
# (matrices/mcp-sdk-releases.yaml): locks/mcp@<version>/requirements.in (the one pin) and its
# requirements.txt with hashes, resolved by pip-compile from PyPI (nothing is installed here;
# targets/mcp-py/build.sh installs it with pip install --require-hashes).
#
#   bash targets/mcp-py-releases/lock.sh 1.10.0
#   bash targets/mcp-py-releases/lock.sh 1.10.0 'pydantic<2.14'    # a dependency held back (README.md says why)
#
# The release's own dependencies resolve as pip resolves them for a new environment installing
# that release today; the lock then pins them. pip-tools (7.6.2) is installed once into
# .wirecost/tools/pip-tools-7.6.2, never into the project.
set -euo pipefail
version=${1:?usage: lock.sh VERSION [REQUIREMENT...] (an mcp release on PyPI, e.g. 1.10.0)}
shift
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tools="$root/.wirecost/tools/pip-tools-7.6.2"
if [ ! -x "$tools/bin/python" ] || ! "$tools/bin/python" -c "import piptools" 2>/dev/null; then
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
cd "$dir"
env -u PIP_FIND_LINKS "$tools/bin/python" -m piptools compile -q --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links \
  -o requirements.txt requirements.in
echo "$dir"
