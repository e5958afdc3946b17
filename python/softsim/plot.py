#!/usr/bin/env python3
"""The plots behind `softsim plot`: a run's energy, Newton iteration and contact distance curves
from its stats.csv, or several runs compared in one figure (matplotlib, from Debian).

    plot.py RUN_DIR [RUN_DIR ...] [--out FILE.png|FILE.svg] [--labels A,B,...] [--title TEXT]

One run: kinetic, potential and total energy; several: the total energy of each (the others are
in each run's own figure). The minimum distance panel appears when a run has contact, on a log
scale. Without --out the figure goes to RUN_DIR/plot.png (of the first run).
"""
import argparse
import csv
import os
import sys


class PlotError(Exception):
    """Bad input: a message naming the file, exit code 2."""


def read_stats(run_dir):
    path = os.path.join(run_dir, "stats.csv")
    if not os.path.isdir(run_dir):
        raise PlotError(f"{run_dir}: no such run folder")
    if not os.path.isfile(path):
        raise PlotError(f"{path}: missing (is {run_dir} the output folder of a softsim run?)")
    columns = {}
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if not header or "t" not in header:
            raise PlotError(f"{path}: line 1: expected the stats.csv header (step,t,...)")
        for name in header:
            columns[name] = []
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise PlotError(f"{path}: line {line}: {len(row)} values for {len(header)} columns")
            for name, value in zip(header, row):
                try:
                    columns[name].append(float(value) if value != "" else float("nan"))
                except ValueError:
                    raise PlotError(f"{path}: line {line}: column {name}: {value!r} is not a number") from None
    if not columns["t"]:
        raise PlotError(f"{path}: no steps yet")
    return columns


def plot(runs, labels, out, title=None):
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text in an SVG (searchable, testable)
    import matplotlib.pyplot as plt

    stats = [read_stats(r) for r in runs]
    has_newton = all("newton_iters" in s for s in stats)
    has_contact = any(any(d == d and d != float("inf") for d in s.get("min_distance", [])) for s in stats)
    panels = 3 if has_contact else 2
    fig, axes = plt.subplots(panels, 1, figsize=(8, 2.6 * panels + 0.6), sharex=True)
    energy, newton = axes[0], axes[1]
    single = len(stats) == 1
    for s, label in zip(stats, labels):
        t = s["t"]
        if single:
            for column, name in (("kinetic", "kinetic"), ("potential", "potential"), ("total_energy", "total")):
                if column in s:
                    energy.plot(t, s[column], label=name)
        else:
            energy.plot(t, s.get("total_energy", s.get("kinetic")), label=label)
        if has_newton:
            newton.plot(t, s["newton_iters"], label=label, drawstyle="steps-mid")
        else:  # an MPM run: no Newton iterations, the time per step instead
            newton.plot(t, s["wall_ms"], label=label)
        if has_contact and "min_distance" in s:
            d = [v if v == v and v != float("inf") and v > 0 else float("nan") for v in s["min_distance"]]
            axes[2].plot(t, d, label=label)
    energy.set_ylabel("energy (J)")
    energy.set_title(title or (labels[0] if single else "comparison of " + ", ".join(labels)))
    newton.set_ylabel("Newton iterations" if has_newton else "step time (ms)")
    if has_contact:
        axes[2].set_ylabel("minimum distance (m)")
        axes[2].set_yscale("log")
    axes[-1].set_xlabel("t (s)")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    energy.legend(loc="best", fontsize="small")
    if not single:
        newton.legend(loc="best", fontsize="small")
    fig.tight_layout()
    ext = os.path.splitext(out)[1].lower()
    if ext not in (".png", ".svg", ".pdf"):
        raise PlotError(f"--out {out}: expected a .png, .svg or .pdf file")
    tmp = out + ".tmp" + ext
    fig.savefig(tmp, dpi=120)
    os.replace(tmp, out)  # never a half-written figure under the final name
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(prog="softsim plot", description="Plots the stats of one run or compares several.")
    p.add_argument("runs", nargs="+", metavar="RUN_DIR")
    p.add_argument("--out", help="the figure (.png, .svg or .pdf); default RUN_DIR/plot.png")
    p.add_argument("--labels", help="comma-separated names of the runs (default: their folder names)")
    p.add_argument("--title")
    args = p.parse_args(argv)
    labels = args.labels.split(",") if args.labels else [os.path.basename(os.path.normpath(r)) for r in args.runs]
    if len(labels) != len(args.runs):
        print(f"error: --labels: {len(labels)} names for {len(args.runs)} runs", file=sys.stderr)
        return 2
    out = args.out or os.path.join(args.runs[0], "plot.png")
    try:
        plot(args.runs, labels, out, args.title)
    except PlotError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"softsim plot: {os.path.abspath(out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
