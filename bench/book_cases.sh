#!/bin/sh
# The case studies of Li & Jiang 2025 timed side by side in one run, one thread each: the book's
# own Python code (tools/book_reference/make_book_references.py, which also rewrites its
# trajectories into a scratch directory, not tests/data) and softsim (bench_book_cases), then
# the table of per-step times and their ratio (docs/book-cases.md).
#   bench/book_cases.sh BOOK_CHECKOUT [BUILD_DIR]
# BOOK_CHECKOUT: phys-sim-book/solid-sim-tutorial (chapters 1-9); needs python3 with numpy and scipy.
set -eu
book=${1:?usage: bench/book_cases.sh BOOK_CHECKOUT [BUILD_DIR]}
build=${2:-build}
python=${PYTHON:-python3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
"$python" "$(dirname "$0")/../tools/book_reference/make_book_references.py" --book "$book" --out "$scratch" >&2
"$build/bench/bench_book_cases" --python-timings "$scratch/timings.json" --threads 1
