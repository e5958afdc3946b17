#!/usr/bin/env python3
"""Drops a soft cube on the ground, built as a Python dict, and prints its energies, Newton
iterations and distance to the ground as it falls and comes to rest.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/drop_and_measure.py [--steps N] [--out DIR]
"""
import argparse

import softsim

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--steps", type=int, default=60)
parser.add_argument("--out", default=None, help="also write frames, stats.csv and summary.json here")
args = parser.parse_args()

scene = {
    "dim": 3,
    "time": {"dt": 0.01, "steps": args.steps},
    "bodies": [{
        "name": "cube",
        "generator": {"type": "box", "size": [0.1, 0.1, 0.1], "resolution": [3, 3, 3]},
        "transform": {"translate": [0, 0.1, 0]},
        "material": {"model": "neo_hookean", "E": 2e5, "nu": 0.4, "density": 500},
    }],
    "obstacles": [{"type": "plane", "name": "ground"}],
    "contact": {"dhat": 0.001, "friction": {"mu": 0.4}},
}

sim = softsim.Simulation(scene, out_dir=args.out)
cube = sim.body_vertices("cube")
print(f"{'step':>5} {'t (s)':>7} {'height (m)':>10} {'kinetic (J)':>12} {'elastic (J)':>12} {'newton':>6} {'gap (m)':>9}")


def report(s):
    e = s.energies()
    print(f"{s.step_index:5d} {s.t:7.3f} {s.x[cube, 1].min():10.5f} {e['kinetic']:12.4e} "
          f"{sum(v for k, v in e.items() if k.startswith('elasticity')):12.4e} {s.last['newton_iterations']:6d} {s.min_distance:9.2e}")


sim.run(callback=report, every=10)
print("status:", sim.report["status"])
