#!/bin/sh
# Runs the ball squish benchmark (bench_ball_squish.cpp) for Larionov et al. 2022, Table 2 (docs/volume.md):
# every configuration in its own process (peak memory per configuration), one TBB thread each, at
# about 1K tets (one after the other) and 50K tets (direct and iterative side by side, one core
# each, so both see the same machine).
#   bench/ball_squish_table.sh [BUILD_DIR] [MINUTES_PER_50K_RUN]
# A 50K run stops after the step that crosses MINUTES of wall time (default: no limit; the full
# 400 steps took 24-65 minutes per run here); its row says how many steps were done.
set -e
BUILD=${1:-build}
MINUTES=${2:-100000}
BENCH="$BUILD/bench/bench_ball_squish"
"$BENCH" --header
for kappa in 1 0.01; do
  for solver in direct iterative projected; do "$BENCH" --kappa $kappa --solver $solver --threads 1; done
  "$BENCH" --kappa $kappa --solver direct --jacobian sparse --threads 1
done
for solver in direct iterative projected; do "$BENCH" --kappa none --solver $solver --threads 1; done
# About 50K tets: resolution 19, 4 layers (51984 tets).
TMP=$(mktemp -d)
for kappa in 1 0.01; do
  for solver in direct iterative; do
    "$BENCH" --kappa $kappa --solver $solver --resolution 19 --layers 4 --threads 1 --minutes "$MINUTES" \
      > "$TMP/$solver.md" &
  done
  wait
  cat "$TMP/direct.md" "$TMP/iterative.md"
done
rm -rf "$TMP"
