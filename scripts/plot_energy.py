#!/usr/bin/env python3
"""Plots a stats.csv column (default total_energy) against time for several runs in one SVG.

    scripts/plot_energy.py OUT.svg LABEL=RUN_DIR/stats.csv [LABEL=...] [--column total_energy]
        [--subtract-min] [--title TEXT]

Standard library only. --subtract-min shifts every curve by the smallest value over all runs
(so an energy that settles at its equilibrium value ends near 0)."""
import csv
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
DASHES = ["", "6,3", "2,2", "8,3,2,3", "4,4", "1,3"]


def read(path, column):
    t, y = [0.0], None
    ts, ys = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get(column, "") == "":
                continue
            ts.append(float(row["t"]))
            ys.append(float(row[column]))
    return ts, ys


def nice_ticks(lo, hi, n=5):
    import math
    span = hi - lo if hi > lo else 1.0
    step = 10 ** math.floor(math.log10(span / n))
    for m in (1, 2, 5, 10):
        if span / (step * m) <= n:
            step *= m
            break
    first = math.ceil(lo / step) * step
    ticks, v = [], first
    while v <= hi + 1e-9 * span:
        ticks.append(round(v, 12))
        v += step
    return ticks


def main(argv):
    args = argv[1:]
    column, subtract_min, title = "total_energy", False, None
    runs, out = [], None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--column":
            column = args[i + 1]; i += 2; continue
        if a == "--subtract-min":
            subtract_min = True; i += 1; continue
        if a == "--title":
            title = args[i + 1]; i += 2; continue
        if out is None:
            out = a
        else:
            label, path = a.split("=", 1)
            runs.append((label, *read(path, column)))
        i += 1
    if out is None or not runs:
        sys.exit(__doc__)
    if subtract_min:
        m = min(min(r[2]) for r in runs)
        runs = [(l, t, [v - m for v in y]) for l, t, y in runs]
    W, H, L, R, T, B = 720, 420, 80, 20, 40, 50
    t_lo, t_hi = 0.0, max(max(r[1]) for r in runs)
    y_lo, y_hi = min(min(r[2]) for r in runs), max(max(r[2]) for r in runs)
    pad = 0.05 * (y_hi - y_lo or 1.0)
    y_lo, y_hi = y_lo - pad, y_hi + pad
    sx = lambda t: L + (t - t_lo) / (t_hi - t_lo) * (W - L - R)
    sy = lambda y: H - B - (y - y_lo) / (y_hi - y_lo) * (H - T - B)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<rect x="{L}" y="{T}" width="{W-L-R}" height="{H-T-B}" fill="none" stroke="black"/>']
    for tv in nice_ticks(t_lo, t_hi):
        x = sx(tv)
        s.append(f'<line x1="{x:.1f}" y1="{H-B}" x2="{x:.1f}" y2="{H-B+5}" stroke="black"/>')
        s.append(f'<text x="{x:.1f}" y="{H-B+18}" text-anchor="middle">{tv:g}</text>')
    for yv in nice_ticks(y_lo, y_hi):
        y = sy(yv)
        s.append(f'<line x1="{L-5}" y1="{y:.1f}" x2="{W-R}" y2="{y:.1f}" stroke="#ddd"/>')
        s.append(f'<text x="{L-8}" y="{y+4:.1f}" text-anchor="end">{yv:g}</text>')
    s.append(f'<text x="{(L+W-R)/2}" y="{H-12}" text-anchor="middle">t (s)</text>')
    ylabel = column.replace("_", " ") + (" - min (J)" if subtract_min else " (J)")
    s.append(f'<text transform="translate(16,{(T+H-B)/2}) rotate(-90)" text-anchor="middle">{ylabel}</text>')
    if title:
        s.append(f'<text x="{(L+W-R)/2}" y="24" text-anchor="middle" font-size="14">{title}</text>')
    for k, (label, t, y) in enumerate(runs):
        pts = " ".join(f"{sx(a):.1f},{sy(b):.1f}" for a, b in zip(t, y))
        dash = f' stroke-dasharray="{DASHES[k % len(DASHES)]}"' if DASHES[k % len(DASHES)] else ""
        c = COLOURS[k % len(COLOURS)]
        s.append(f'<polyline points="{pts}" fill="none" stroke="{c}" stroke-width="1.6"{dash}/>')
        ly = T + (H - T - B) // 3 + 18 * k  # below the top curves, above a decaying one
        s.append(f'<line x1="{W-R-170}" y1="{ly}" x2="{W-R-140}" y2="{ly}" stroke="{c}" stroke-width="2"{dash}/>')
        s.append(f'<text x="{W-R-134}" y="{ly+4}">{label}</text>')
    s.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(s) + "\n")


if __name__ == "__main__":
    main(sys.argv)
