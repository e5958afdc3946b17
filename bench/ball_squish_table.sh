#!/bin/sh
# Runs the ball squish benchmark (bench_ball_squish.cpp) for seed 003 Table 2: every
# configuration in its own process (peak memory per configuration), at about 1K and 50K tets.
#   bench/ball_squish_table.sh [BUILD_DIR] [MINUTES_PER_50K_RUN]
# The 50K runs stop after the step that crosses MINUTES (default 15) of wall time; their rows
# say how many steps were done.
set -e
BUILD=${1:-build}
MINUTES=${2:-15}
BENCH="$BUILD/bench/bench_ball_squish"
"$BENCH" --header
for kappa in 1 0.01; do
  for solver in direct iterative projected; do "$BENCH" --kappa $kappa --solver $solver --minutes 10; done
  "$BENCH" --kappa $kappa --solver direct --jacobian sparse --minutes 10
done
for solver in direct iterative projected; do "$BENCH" --kappa none --solver $solver --minutes 10; done
# About 50K tets: resolution 19, 4 layers (51984 tets).
for kappa in 1 0.01; do
  for solver in direct iterative; do
    "$BENCH" --kappa $kappa --solver $solver --resolution 19 --layers 4 --minutes "$MINUTES"
  done
done
