#!/bin/sh
# The IPC and PolyFEM corpora (docs/peer-scenes.md), 20 steps each with the exact intersection
# check after every step: the corpus test with SOFTSIM_PEER_CORPUS=full, its rows turned into the
# docs' markdown table (time and Newton iterations per step, intersections, failed steps;
# refusals by reason).
#   bench/peer_scenes.sh [BUILD_DIR]                 every scene, one process
#   bench/peer_scenes.sh BUILD_DIR NAME [NAME ...]   only the scenes whose name contains NAME,
#                                                    one process each (rows as each one ends)
# All cores (TBB's default). Needs the shared data (SOFTSIM_DATA_DIR, default ../shared/data).
# The largest scenes take minutes per step: all of them take hours on 2 cores, hence the names.
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
table() {
  grep '^\[ corpus \]' "$log" | sed 's/^\[ corpus \] //' | awk '
    / refused: / { name = $1; sub(/^[^ ]+ +refused: [^:]*: /, ""); printf "| %s | refused: %s | | | | | |\n", name, $0; next }
    { printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $4, $6, $8, $10, $12 }'
}
run() {  # stderr: each scene's steps as they ended, and any step that failed
  SOFTSIM_PEER_CORPUS=full "$build/tests/test_peer_scenes" --gtest_filter='PeerCorpus.Every*' >"$log" 2>&1 ||
    echo "(some scenes failed, or a filtered run left refusals uncounted: see the test's output)" >&2
  grep -e '^\[ step \]' -e 'did not converge' -e 'non-finite' "$log" >&2 || true
}
echo "| scene | vertices | steps | ms / step | Newton / step | intersections | failed steps |"
echo "|---|---|---|---|---|---|---|"
if [ $# -eq 0 ]; then
  run
  table
else
  for name in "$@"; do
    SOFTSIM_PEER_CORPUS_ONLY=$name run
    table | grep -v ' refused: ' || true
  done
fi
