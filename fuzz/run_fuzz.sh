#!/usr/bin/env bash
# Runs every fuzz target of a SOFTSIM_FUZZ build for a while on a scratch copy of its seed corpus
# (new inputs stay under the build directory, never in fuzz/corpus/), then prints one line per
# target (wall seconds, CPU seconds, executions, result). Exit status 1 when any target found
# something (crash, sanitizer report, leak, timeout, out-of-memory): the reproducer is in BUILD_DIR/artifacts/, the full output in BUILD_DIR/logs/.
#   usage: fuzz/run_fuzz.sh BUILD_DIR SECONDS [TARGET...]   (default: every target built)
set -uo pipefail

build_dir=${1:?usage: run_fuzz.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run_fuzz.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
source_dir=$(cd "$(dirname "$0")" && pwd)

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for exe in "$build_dir"/fuzz/*_fuzz; do targets+=("$(basename "$exe")"); done
fi

mkdir -p "$build_dir/artifacts" "$build_dir/logs" "$build_dir/corpus"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

found_any=0
printf '%-24s %8s %8s %12s  %s\n' target seconds cpu_s executions result
for target in "${targets[@]}"; do
  exe="$build_dir/fuzz/$target"
  name=${target%_fuzz}
  [ -x "$exe" ] || { echo "run_fuzz: $exe is not built" >&2; exit 2; }
  corpus="$build_dir/corpus/$name"
  mkdir -p "$corpus"
  # The committed seeds are copied, so the fuzzer adds what it finds to the scratch folder only.
  if [ -d "$source_dir/corpus/$name" ]; then cp -n "$source_dir/corpus/$name"/* "$corpus"/ 2>/dev/null; fi
  log="$build_dir/logs/$name.log"
  # The path-taking readers (TetGen, scenes, CCD queries) get their input through a scratch file
  # per execution. On disk those writes leave the fuzzer waiting for I/O half the time, so the
  # files go to memory (/dev/shm) where there is one, else under the build directory; they are
  # removed whatever way the fuzzer ends.
  if [ -n "${FUZZ_SCRATCH_DIR:-}" ]; then scratch_root=$FUZZ_SCRATCH_DIR
  elif [ -d /dev/shm ] && [ -w /dev/shm ]; then scratch_root=/dev/shm/softsim-fuzz-$$
  else scratch_root=$build_dir/tmp; fi
  scratch="$scratch_root/$name"
  mkdir -p "$scratch"
  start=$(date +%s)
  # CPU time (user + system) as well as wall time: on a shared machine only the former says how
  # much fuzzing a target had.
  TIMEFORMAT='%U %S'
  { time { TMPDIR="$scratch" "$exe" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$build_dir/artifacts/$name-" "$corpus" >"$log" 2>&1; status=$?; }; } 2>"$log.cpu"
  cpu=$(awk '{printf "%.0f", $1 + $2}' "$log.cpu")
  rm -rf "$scratch"
  [ "$scratch_root" = "/dev/shm/softsim-fuzz-$$" ] && rmdir "$scratch_root" 2>/dev/null
  elapsed=$(( $(date +%s) - start ))
  executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  [ -n "$executions" ] || executions=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  if [ $status -eq 0 ]; then
    result="nothing found"
  else
    found_any=1
    artifact=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //')
    kind=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [a-zA-Z-]+|runtime error: .*|terminate called.*|contract violated: .*' "$log" | head -1)
    result="FOUND (exit $status) ${kind:-see $log} ${artifact:+-> $artifact}"
  fi
  printf '%-24s %8s %8s %12s  %s\n' "$name" "$elapsed" "${cpu:-?}" "${executions:-?}" "$result"
done
exit $found_any
