#!/usr/bin/env python3
"""Where a build's compile time went, from Ninja's own log (docs/building.md).

    scripts/build-times.py [BUILD_DIR] [--top N]

Prints the wall time from the first step's start to the last one's end, the CPU time of every
step summed by what it builds (library, CLI, tests, Python module, benchmarks, precompiled
headers), and the N slowest steps. Ninja keeps the newest entry of each output, so after an
incremental build the log mixes old and new steps; measure from an empty build directory.
"""
import argparse
import collections
import pathlib
import sys


def group_of(output: str) -> str:
    if output.endswith((".gch", ".pch")):
        return "precompiled headers"
    if "softsim_lib.dir" in output:
        return "library"
    if "softsim.dir" in output:
        return "CLI"
    if output.startswith("tests/"):
        return "tests"
    if output.startswith("python/"):
        return "Python module"
    if output.startswith("bench/"):
        return "benchmarks"
    if output.startswith("fuzz/"):
        return "fuzz targets"
    return "other (links, archives, scripts)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", nargs="?", default="build")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    log = pathlib.Path(args.build_dir) / ".ninja_log"
    if not log.is_file():
        print(f"build-times: {log}: no Ninja log (build with -G Ninja first)", file=sys.stderr)
        return 1
    steps = {}  # output -> (start_ms, end_ms); the newest entry wins
    for line in log.read_text().splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) < 4:
            continue
        steps[fields[3]] = (int(fields[0]), int(fields[1]))
    if not steps:
        print(f"build-times: {log}: empty", file=sys.stderr)
        return 1
    span = (max(e for _, e in steps.values()) - min(s for s, _ in steps.values())) / 1000
    by_group = collections.Counter()
    for output, (start, end) in steps.items():
        by_group[group_of(output)] += (end - start) / 1000
    print(f"wall {span / 60:.1f} min, CPU {sum(by_group.values()) / 60:.1f} min over {len(steps)} steps")
    for group, seconds in by_group.most_common():
        print(f"  {group:34s} {seconds / 60:6.1f} CPU-min")
    print(f"slowest {args.top}:")
    slowest = sorted(steps.items(), key=lambda kv: kv[1][0] - kv[1][1])[: args.top]
    for output, (start, end) in slowest:
        print(f"  {(end - start) / 1000:7.1f} s  {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
