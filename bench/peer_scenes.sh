#!/bin/sh
# The IPC and PolyFEM corpora (docs/peer-scenes.md), every scene, 20 steps each with the exact
# intersection check after every step: the corpus test with SOFTSIM_PEER_CORPUS=full, its rows
# turned into the docs' markdown table (time and Newton iterations per step; refusals by reason).
#   bench/peer_scenes.sh [BUILD_DIR]      (all cores: the test runs with TBB's default)
# Needs the shared data (SOFTSIM_DATA_DIR, default ../shared/data). The largest scenes take
# minutes per step: the whole run is about an hour on 2 cores.
set -eu
build=${1:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
SOFTSIM_PEER_CORPUS=full "$build/tests/test_peer_scenes" \
  --gtest_filter='PeerCorpus.Every*' >"$log" 2>&1 || echo "(some scenes failed: see the rows marked FAILED)" >&2
echo "| scene | vertices | steps | ms / step | Newton / step | intersections |"
echo "|---|---|---|---|---|---|"
grep '^\[ corpus \]' "$log" | sed 's/^\[ corpus \] //' | awk '
  / refused: / { name = $1; sub(/^[^ ]+ +refused: [^:]*: /, ""); printf "| %s | refused: %s | | | | |\n", name, $0; next }
  { printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $4, $6, $8, $10 }'
