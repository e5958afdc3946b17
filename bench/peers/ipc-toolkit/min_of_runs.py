#!/usr/bin/env python3
"""The ipc-toolkit comparison over several runs of the peer harness's run.sh.

Each run prints the median of its repetitions; on a shared machine a whole run can be slowed by
its neighbours, so a single run's ratios move by +-30%. This takes, per library, scene, thread
count and operation, the smallest median over the runs (the run least disturbed), then prints
ipc-toolkit time / softsim time for the five operations of docs/performance.md.

    python3 min_of_runs.py OUT_DIR_1/raw.csv OUT_DIR_2/raw.csv ...
"""
import sys

# (operation, ipc-toolkit row, softsim row); softsim rows are matched by prefix because the
# driver's labels carry the method name.
OPERATIONS = [
    ("swept broad phase", "swept_broad_phase[LBVH default]", "swept_broad_phase[SpatialHash default]"),
    ("step size (additive CCD 0.9, margin 0)", "stepsize[LBVH+AdditiveCCD s0.9]",
     "stepsize[max_step_fraction, margin 0, ACCD s0.9]"),
    ("proximity broad phase", "proximity_broad_phase[LBVH]", "proximity_broad_phase["),
    ("active set", "proximity_build[collisions LBVH]", "proximity_active_pairs["),
    ("energy + gradient + PSD Hessian", "proximity_total[build+E+g+H_psd]", "proximity_total[evaluate"),
]


def main(files):
    best = {}  # (lib, scene, threads, op) -> smallest median (s)
    for path in files:
        for line in open(path):
            if not line.startswith("ROW,"):
                continue
            _, lib, scene, threads, rest = line.rstrip("\n").split(",", 4)
            op, median, _min, _reps, _info = rest.rsplit(",", 4)
            key = (lib, scene, int(threads), op)
            best[key] = min(best.get(key, float("inf")), float(median))

    def lookup(lib, scene, threads, name, prefix):
        for (l, s, t, op), v in best.items():
            if l == lib and s == scene and t == threads and (op.startswith(name) if prefix else op == name):
                return v
        return None

    scenes = sorted({k[1] for k in best}, key=lambda s: (s != "cloth", s))
    cols = [(s, t) for s in scenes for t in (1, 2)]
    print(f"min of {len(files)} runs; ipc-toolkit ms / softsim ms = ratio")
    print("| operation | " + " | ".join(f"{s} {t}T" for s, t in cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for label, peer, ours in OPERATIONS:
        cells = []
        for s, t in cols:
            a, b = lookup("ipctk", s, t, peer, False), lookup("softsim", s, t, ours, True)
            cells.append(f"{1e3 * a:.1f} / {1e3 * b:.1f} = **{a / b:.2f}**" if a and b else "n/a")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("\nsoftsim 2-thread speed-up (1T / 2T): " + ", ".join(
        f"{s} {label.split(' (')[0]} {lookup('softsim', s, 1, ours, True) / lookup('softsim', s, 2, ours, True):.2f}"
        for label, _, ours in OPERATIONS for s in scenes
        if lookup("softsim", s, 1, ours, True) and lookup("softsim", s, 2, ours, True)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
