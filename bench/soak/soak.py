#!/usr/bin/env python3
"""Soak run: one scene for many steps, watching resident memory and time per step.

    bench/soak/soak.py [--scene scenes/box_stack.json] [--steps 20000] [--threads 2]
                       [--softsim build/softsim] [--out /tmp/softsim_soak]

Runs `softsim run` on a copy of the scene that writes a frame and a checkpoint every 1000 steps
(so the output and checkpoint paths are soaked too), samples the process's resident set size
(VmRSS, /proc) twice a second against the steps finished (rows of stats.csv), and prints a
Markdown table: RSS at 1K, 10K and 20K steps (or the marks the run reaches) and the median
time per step (stats.csv's wall_ms) over the 1000 steps before each mark, as ratios to the
first mark's. Memory that grows with steps, or steps that slow down, show as ratios above 1.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except FileNotFoundError:
        return None
    return None


def rows_done(stats_path):
    try:
        with open(stats_path, "rb") as f:
            return max(0, sum(1 for _ in f) - 1)
    except FileNotFoundError:
        return 0


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scene", default=os.path.join(root, "scenes", "box_stack.json"))
    p.add_argument("--steps", type=int, default=20000)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--softsim", default=os.path.join(root, "build", "softsim"))
    p.add_argument("--out", default="/tmp/softsim_soak")
    args = p.parse_args()

    os.makedirs(args.out, exist_ok=True)
    with open(args.scene) as f:
        scene = json.load(f)
    scene.setdefault("output", {})
    scene["output"].update({"every": 1000, "checkpoint_every": 1000})
    # Mesh paths are relative to the scene's folder: make them absolute in the copy.
    scene_dir = os.path.dirname(os.path.abspath(args.scene))
    for item in scene.get("bodies", []) + scene.get("obstacles", []):
        if isinstance(item.get("mesh"), str) and not os.path.isabs(item["mesh"]):
            item["mesh"] = os.path.join(scene_dir, item["mesh"])
    scene_copy = os.path.join(args.out, "scene.json")
    with open(scene_copy, "w") as f:
        json.dump(scene, f)
    run_dir = os.path.join(args.out, "run")
    stats_path = os.path.join(run_dir, "stats.csv")
    if os.path.exists(stats_path):
        os.remove(stats_path)
    cmd = [args.softsim, "run", scene_copy, "--out", run_dir, "--steps", str(args.steps), "--threads",
           str(args.threads), "--quiet"]
    start = time.time()
    proc = subprocess.Popen(cmd)
    samples = []  # (steps done, rss KiB)
    while proc.poll() is None:
        rss = rss_kib(proc.pid)
        if rss is not None:
            samples.append((rows_done(stats_path), rss))
        time.sleep(0.5)
    wall = time.time() - start
    if proc.returncode != 0:
        print(f"soak: softsim exited with {proc.returncode}", file=sys.stderr)
        return 1

    with open(stats_path) as f:
        wall_ms = [float(r["wall_ms"]) for r in csv.DictReader(f)]
    marks = [m for m in (1000, 10000, 20000) if m <= len(wall_ms)]
    if not marks:
        print("soak: fewer than 1000 steps ran", file=sys.stderr)
        return 1
    table = []
    for m in marks:
        # The first sample at or after the mark (the process is sampled every 0.5 s).
        rss = next((r for s, r in samples if s >= m), samples[-1][1] if samples else None)
        window = wall_ms[m - 1000:m]
        table.append((m, rss, statistics.median(window)))
    print(f"scene {os.path.relpath(args.scene, root)}, {len(wall_ms)} steps, {args.threads} threads, "
          f"{wall:.0f} s in all, peak RSS {max(r for _, r in samples) / 1024:.1f} MiB")
    print()
    print("| steps | RSS (MiB) | RSS / RSS at 1K | median ms per step (last 1000) | / at 1K |")
    print("|---|---|---|---|---|")
    for m, rss, med in table:
        print(f"| {m} | {rss / 1024:.1f} | {rss / table[0][1]:.3f} | {med:.2f} | {med / table[0][2]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
