#!/usr/bin/env bash
# npm start (after compiling): run the default matrix into results/ (building the targets it
# needs), render site/, then compare the new results with the committed ones (`wirecost compare
# BASE results`), so that the output ends with what changed: `no change in any count`, or each
# changed cell with its causes. The committed results are read from git (`git archive HEAD
# results`, into a temporary folder removed at the end); outside a git checkout, from a copy of
# results/ taken before the run. Exits as the run did when it failed (1: a run failed, 130: ^C),
# else as render or compare did.
set -uo pipefail
cd "$(dirname "$0")/.."
wirecost() { node dist/bin/wirecost.js "$@"; }

base="$(mktemp -d "${TMPDIR:-/tmp}/wirecost-committed-XXXXXX")"
trap 'rm -rf "$base"' EXIT
what=""
if git rev-parse -q --verify HEAD:results/summary.tsv >/dev/null 2>&1; then
  git archive HEAD results | tar -x -C "$base" && what="the committed results (git HEAD)"
elif [ -f results/summary.tsv ]; then
  cp -R results "$base/" && what="the results as they were before this run"
fi

wirecost run --skip-missing-toolchains
run=$?
wirecost render || exit $?
if [ -z "$what" ]; then
  echo "nothing to compare with: no committed results/summary.tsv" >&2
else
  echo "comparing the new results with $what:" >&2
  wirecost compare "$base/results" results || exit $?
fi
exit $run
