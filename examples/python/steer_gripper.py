#!/usr/bin/env python3
"""Drives the three pads of the bowl grasp scene from Python instead of the scene's keyframes:
squeeze the bowl, lift it, hold it, printing the bowl's height and the pads' Newton work.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/steer_gripper.py [--lift 0.03] [--out DIR]
"""
import argparse
import json
import pathlib

import numpy as np

import softsim

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--lift", type=float, default=0.03, help="how high to lift (m)")
parser.add_argument("--out", default=None, help="also write frames, stats.csv and summary.json here")
args = parser.parse_args()

scenes = pathlib.Path(__file__).resolve().parents[2] / "scenes"
scene = json.loads((scenes / "bowl_grasp.json").read_text())
# Keep the pads' back faces where they are; Python moves them. The scene's keyframe at 0.25 s is
# each pad's squeeze (3 mm towards the bowl's axis).
squeeze = {}
for k, body in enumerate(scene["bodies"]):
    if body["name"].startswith("pad"):
        squeeze[f"bodies[{k}].fixed[0]"] = np.array(body["fixed"][0].pop("path")[8][1:])
squeeze_time, lift_time, hold_time = 0.1, 0.15 + args.lift * 5, 0.05
scene["time"] = {"dt": 0.005, "end": squeeze_time + lift_time + hold_time}

sim = softsim.Simulation(softsim.Scene.from_dict(scene, name="steered bowl grasp", base_dir=scenes), out_dir=args.out)
bowl = sim.body_vertices("bowl")
for label, offset in squeeze.items():
    sim.steer_motion(label, offset, duration=squeeze_time)
sim.run(steps=round(squeeze_time / sim.dt))
squeezed = sim.x[bowl, 1].min()
print(f"squeezed: t = {sim.t:.3f} s, bowl bottom {1000 * squeezed:.2f} mm")
for label, offset in squeeze.items():
    sim.steer_motion(label, offset + [0.0, args.lift, 0.0], duration=lift_time)
sim.run(callback=lambda s: print(f"t = {s.t:.3f} s  bowl bottom {1000 * s.x[bowl, 1].min():7.2f} mm  "
                                  f"Newton {s.last['newton_iterations']}"), every=20)
rise = sim.x[bowl, 1].min() - squeezed
print(f"lifted the bowl {1000 * rise:.1f} mm of the pads' {1000 * args.lift:.0f} mm ({sim.report['status']})")
