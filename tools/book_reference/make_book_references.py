#!/usr/bin/env python3
"""Runs the Python code of the book "Physics-Based Simulation" (Li & Jiang, repository
phys-sim-book/solid-sim-tutorial) headless and records reference trajectories and per-step timings.

    /usr/bin/python3 tools/book_reference/make_book_references.py --book /tmp/book --out tests/data/book
        [--cases mass_spring_2d,square_drop,...] [--quick]

The book's files are not edited. For each case the chapter's simulator.py is executed (its source,
with whole assignment lines substituted for the parameter overrides) in a temporary working
directory, with a stub `pygame` module that draws nothing and reports QUIT once the wanted number of
steps is reached. The chapter's time_integrator.step_forward is wrapped to time each call
(time.perf_counter) and to record the positions it returns. Needs numpy and scipy; pygame is never
imported. Everything runs on one thread (OMP/OPENBLAS/MKL_NUM_THREADS=1, set before numpy is loaded).

Outputs in --out:
  <case>.csv    '# <chapter> <overrides> h=<h> steps=<n> nodes=<count>', then 'step,x0,y0,x1,y1,...'
                (all nodes of x in the book's order, including the ceiling node where the chapter has
                one: it is the last node), rows for step 0 (the x the simulator set up, as passed to
                the first step_forward), step 1, every 10th step and the last step, values '%.17g'.
  timings.json  per case: steps, mean and median wall seconds per step_forward call, Newton iteration
                counts; the machine (platform, python, numpy, scipy). Cases not run this time are kept
                from an existing timings.json.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # one thread; must happen before numpy is imported

import argparse
import contextlib
import datetime
import importlib
import json
import platform
import re
import statistics
import sys
import tempfile
import time
import types

import numpy as np
import scipy

# name: (chapter folder, overrides [(variable, value in the book, new value)], number of steps)
# An override replaces the whole line `variable = <value in the book>   # comment` of simulator.py;
# the line must occur exactly once and hold exactly the book value, otherwise the run stops.
CASES = {
    "mass_spring_2d": ("1_mass_spring", [], 500),
    "hanging_square": ("2_dirichlet", [], 500),
    "square_drop": ("3_contact", [], 400),
    "square_on_slope_mu0": ("4_friction", [("mu", "0.11", "0")], 1000),
    "square_on_slope_mu0.1": ("4_friction", [("mu", "0.11", "0.1")], 1000),
    "square_on_slope_mu0.11": ("4_friction", [("mu", "0.11", "0.11")], 1000),
    "square_on_slope_mu0.2": ("4_friction", [("mu", "0.11", "0.2")], 1000),
    "compressing_square": ("5_mov_dirichlet", [], 300),
    "inversion_free": ("6_inv_free", [], 300),
    "self_contact": ("7_self_contact", [], 300),
    "self_friction": ("8_self_friction", [], 300),
    "abd_square_drop": ("9_reduced_DOF", [], 300),
}
QUICK_STEPS = 12  # --quick: enough for the rows of steps 0, 1, 10 and the last one
ROW_EVERY = 10


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class _Quit(object):
    pass


def make_pygame_stub(state):
    """A module object standing in for pygame: drawing is a no-op, event.get() returns [] until the
    loop iteration that performs step number state['steps'] starts, then [QUIT event]. The book's loop
    finishes the iteration in which it sees QUIT (it still calls step_forward once), so QUIT is
    delivered when steps - 1 steps have been taken and exactly `steps` steps are run."""
    pg = types.ModuleType("pygame")
    pg.QUIT = 256
    quit_event = _Quit()
    quit_event.type = pg.QUIT

    def noop(*args, **kwargs):
        return None

    class Screen(object):
        def fill(self, *args, **kwargs):
            return None

    def get_events():
        if state["taken"] >= state["steps"] - 1:
            return [quit_event]
        return []

    pg.init = noop
    pg.quit = noop
    pg.display = types.ModuleType("pygame.display")
    pg.display.set_mode = lambda *a, **k: Screen()
    pg.display.flip = noop
    pg.draw = types.ModuleType("pygame.draw")
    pg.draw.aaline = noop
    pg.draw.circle = noop
    pg.draw.line = noop
    pg.time = types.ModuleType("pygame.time")
    pg.time.wait = noop
    pg.event = types.ModuleType("pygame.event")
    pg.event.get = get_events
    return pg


def _under(path, root):
    try:
        return os.path.commonpath([os.path.realpath(path), root]) == root
    except ValueError:
        return False


def purge_book_modules(book_root):
    """Drop every module loaded from the book checkout (the chapters share module names:
    time_integrator, square_mesh, InertiaEnergy, BarrierEnergy, utils, distance.*, ...)."""
    for name, mod in list(sys.modules.items()):
        if mod is None:
            continue
        f = getattr(mod, "__file__", None)
        paths = list(getattr(mod, "__path__", []) or [])
        if (f and _under(f, book_root)) or any(_under(p, book_root) for p in paths):
            del sys.modules[name]
    importlib.invalidate_caches()


def apply_overrides(src, overrides):
    for var, old, new in overrides:
        pat = re.compile(r"^" + re.escape(var) + r"[ \t]*=[ \t]*(?P<val>[^#\n]*?)[ \t]*(?P<comment>#[^\n]*)?$",
                         re.M)
        hits = list(pat.finditer(src))
        if len(hits) != 1:
            raise RuntimeError("override %s: expected exactly one line '%s = ...', found %d"
                               % (var, var, len(hits)))
        m = hits[0]
        if m.group("val") != old:
            raise RuntimeError("override %s: the book has '%s = %s', expected '%s = %s'"
                               % (var, var, m.group("val"), var, old))
        line = "%s = %s" % (var, new)
        if m.group("comment"):
            line += "    " + m.group("comment")
        src = src[:m.start()] + line + src[m.end():]
    return src


def run_case(name, book, steps):
    chapter, overrides, _ = CASES[name]
    book_root = os.path.realpath(book)
    chapter_dir = os.path.join(book_root, chapter)
    sim_path = os.path.join(chapter_dir, "simulator.py")
    if not os.path.isfile(sim_path):
        raise RuntimeError("no %s" % sim_path)
    with open(sim_path) as f:
        src = apply_overrides(f.read(), overrides)

    state = {"steps": steps, "taken": 0}
    record = {"x": [], "times": [], "h": None, "tol": None, "search_dir_calls": []}

    purge_book_modules(book_root)
    sys.modules["pygame"] = make_pygame_stub(state)
    for sub in ("display", "draw", "time", "event"):
        sys.modules["pygame." + sub] = getattr(sys.modules["pygame"], sub)
    sys.path.insert(0, chapter_dir)
    old_cwd = os.getcwd()
    try:
        ti = importlib.import_module("time_integrator")
        if not _under(ti.__file__, chapter_dir):
            raise RuntimeError("time_integrator came from %s, not %s" % (ti.__file__, chapter_dir))
        original_step = ti.step_forward
        original_search_dir = ti.search_dir
        counter = [0]

        def counting_search_dir(*args, **kwargs):
            counter[0] += 1
            return original_search_dir(*args, **kwargs)

        def step_forward(*args, **kwargs):
            x_in = args[0]
            h, tol = args[-2], args[-1]
            if state["taken"] == 0:
                record["x"].append(np.array(x_in, dtype=float, copy=True))
                record["h"], record["tol"] = h, tol
            elif (h, tol) != (record["h"], record["tol"]):
                raise RuntimeError("h or tol changed between steps")
            counter[0] = 0
            t0 = time.perf_counter()
            result = original_step(*args, **kwargs)
            dt = time.perf_counter() - t0
            record["times"].append(dt)
            record["search_dir_calls"].append(counter[0])
            record["x"].append(np.array(result[0], dtype=float, copy=True))
            state["taken"] += 1
            n = state["taken"]
            if n == 1 or n % 100 == 0 or n == steps:
                log("  %s: step %d/%d  %.3f s" % (name, n, steps, dt))
            if n > steps:
                raise RuntimeError("more steps than asked for")
            return result

        ti.step_forward = step_forward
        ti.search_dir = counting_search_dir  # step_forward looks search_dir up in its module

        with tempfile.TemporaryDirectory(prefix="book_%s_" % chapter) as tmp:
            os.chdir(tmp)  # the simulator writes output/<frame>.obj into the working directory
            g = {"__name__": "__main__", "__file__": sim_path, "__builtins__": __builtins__}
            with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
                exec(compile(src, sim_path, "exec"), g)
            os.chdir(old_cwd)
    finally:
        os.chdir(old_cwd)
        sys.path.remove(chapter_dir)
        purge_book_modules(book_root)
        for key in [k for k in sys.modules if k == "pygame" or k.startswith("pygame.")]:
            del sys.modules[key]

    if state["taken"] != steps or len(record["x"]) != steps + 1:
        raise RuntimeError("%s: ran %d steps, wanted %d" % (name, state["taken"], steps))
    if g.get("h") != record["h"]:
        raise RuntimeError("%s: h in simulator.py (%r) differs from the h passed to step_forward (%r)"
                           % (name, g.get("h"), record["h"]))
    return record


def write_csv(path, name, record, steps, every=ROW_EVERY):
    chapter, overrides, _ = CASES[name]
    xs = record["x"]
    nodes = xs[0].shape[0]
    ov = ",".join("%s=%s" % (var, new) for var, _, new in overrides) or "none"
    rows = sorted(set([0, 1, steps] + list(range(0, steps + 1, every))))
    with open(path, "w") as f:
        f.write("# %s %s h=%r steps=%d nodes=%d\n" % (chapter, ov, record["h"], steps, nodes))
        f.write("step," + ",".join("x%d,y%d" % (i, i) for i in range(nodes)) + "\n")
        for s in rows:
            f.write("%d," % s + ",".join("%.17g" % v for v in xs[s].reshape(-1)) + "\n")


def machine_info():
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "threads": {v: os.environ.get(v) for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--book", required=True, help="checkout of phys-sim-book/solid-sim-tutorial")
    ap.add_argument("--out", required=True, help="output directory (e.g. tests/data/book)")
    ap.add_argument("--cases", default="all", help="comma list of case names, default all: " + ",".join(CASES))
    ap.add_argument("--quick", action="store_true", help="%d steps per case (smoke run)" % QUICK_STEPS)
    ap.add_argument("--every", type=int, default=ROW_EVERY,
                    help="record every N-th step (default %d; 1 for diagnosis, with the Newton iterations "
                         "of every step in <case>.newton.csv)" % ROW_EVERY)
    args = ap.parse_args()

    names = list(CASES) if args.cases == "all" else [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in names if c not in CASES]
    if unknown:
        ap.error("unknown case(s) %s; known: %s" % (",".join(unknown), ",".join(CASES)))
    os.makedirs(args.out, exist_ok=True)
    timings_path = os.path.join(args.out, "timings.json")
    timings = {"cases": {}}
    if os.path.exists(timings_path):
        with open(timings_path) as f:
            timings = json.load(f)
        timings.setdefault("cases", {})

    for name in names:
        chapter, overrides, full_steps = CASES[name]
        steps = min(full_steps, QUICK_STEPS) if args.quick else full_steps
        log("%s (%s, %d steps)" % (name, chapter, steps))
        t0 = time.perf_counter()
        record = run_case(name, args.book, steps)
        wall = time.perf_counter() - t0
        write_csv(os.path.join(args.out, name + ".csv"), name, record, steps, max(1, args.every))
        iters = [c - 1 for c in record["search_dir_calls"]]  # one search_dir before the Newton loop
        if args.every == 1:
            with open(os.path.join(args.out, name + ".newton.csv"), "w") as f:
                f.write("step,newton_iterations\n")
                f.writelines("%d,%d\n" % (n + 1, it) for n, it in enumerate(iters))
        timings["cases"][name] = {
            "chapter": chapter,
            "overrides": {var: new for var, _, new in overrides},
            "steps": steps,
            "quick": bool(args.quick),
            "h": record["h"],
            "tol": record["tol"],
            "nodes": int(record["x"][0].shape[0]),
            "step_seconds_mean": statistics.fmean(record["times"]),
            "step_seconds_median": statistics.median(record["times"]),
            "step_seconds_max": max(record["times"]),
            "case_wall_seconds": wall,
            "newton_iterations_mean": statistics.fmean(iters),
            "newton_iterations_max": max(iters),
            "recorded": datetime.datetime.now().isoformat(timespec="seconds"),
        }
        log("  %s: mean %.4f s, median %.4f s per step, %.1f s in all"
            % (name, timings["cases"][name]["step_seconds_mean"],
               timings["cases"][name]["step_seconds_median"], wall))
        timings["machine"] = machine_info()
        timings["cases"] = {k: timings["cases"][k] for k in CASES if k in timings["cases"]}
        with open(timings_path, "w") as f:
            json.dump(timings, f, indent=1, sort_keys=False)
            f.write("\n")


if __name__ == "__main__":
    main()
