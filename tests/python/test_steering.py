"""Steering a run from Python between steps: prescribed motions to new targets, moving obstacles to
new velocities, and a gripper driven from Python lifting the bowl of the bowl grasp scene."""
import json

import numpy as np
import pytest

import softsim


def clamped_box_scene():
    # A soft box whose top face is held by a prescribed motion (no path: held in place).
    return {
        "dim": 3,
        "time": {"dt": 0.01, "steps": 10},
        "bodies": [{
            "name": "box", "generator": {"type": "box", "size": [0.1, 0.1, 0.1], "resolution": [2, 2, 2]},
            "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000},
            "fixed": [{"box": [[-1, 0.049, -1], [1, 1, 1]]}],
        }],
        "contact": {"enabled": False},
    }


def test_steered_motion_reaches_its_target_linearly_and_holds():
    sim = softsim.Simulation(clamped_box_scene())
    assert sim.motions == ["bodies[0].fixed[0]"]
    label = sim.motions[0]
    top = np.flatnonzero(sim.rest_positions[:, 1] > 0.049)
    assert len(top) == 9
    sim.steer_motion(label, [0.0, 0.02, 0.0], duration=2 * sim.dt)
    sim.step()
    assert np.allclose(sim.x[top] - sim.rest_positions[top], [0.0, 0.01, 0.0], rtol=0, atol=1e-14)
    assert sim.motion_offset(label) == pytest.approx([0.0, 0.01, 0.0], abs=1e-14)
    sim.step()
    sim.step()
    assert np.allclose(sim.x[top] - sim.rest_positions[top], [0.0, 0.02, 0.0], rtol=0, atol=1e-14)
    # A new target from where it is, over the default duration of one step.
    sim.steer_motion(label, [0.01, 0.02, 0.0])
    sim.step()
    assert np.allclose(sim.x[top] - sim.rest_positions[top], [0.01, 0.02, 0.0], rtol=0, atol=1e-14)
    assert sim.motion_offset(label, t=0.025) == pytest.approx([0.0, 0.02, 0.0], abs=1e-14)  # held
    with pytest.raises(ValueError, match=r'no prescribed motion "bodies\[0\].fixed\[1\]" \(the scene.s are: bodies\[0\].fixed\[0\]\)'):
        sim.steer_motion("bodies[0].fixed[1]", [0, 0, 0])
    with pytest.raises(ValueError, match="target offset: 2 components given, the scene has 3 dimensions"):
        sim.steer_motion(label, [0, 0])
    with pytest.raises(ValueError, match="duration must be positive"):
        sim.steer_motion(label, [0, 0, 0], duration=0)


def test_moving_obstacle_takes_a_new_velocity(tmp_path):
    (tmp_path / "plate.obj").write_text("v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nf 1 2 3\nf 1 3 4\n")
    scene = {
        "dim": 3,
        "time": {"dt": 0.01, "steps": 20},
        "bodies": [{"name": "cube", "generator": {"type": "box", "size": [0.1, 0.1, 0.1], "resolution": [1, 1, 1]},
                    "transform": {"translate": [0, 0.5, 0]},
                    "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000}}],
        "obstacles": [{"type": "mesh", "name": "plate", "mesh": "plate.obj", "velocity": [0, 0, 0]}],
        "contact": {"dhat": 0.001},
    }
    sim = softsim.Simulation(softsim.Scene.from_dict(scene, base_dir=tmp_path))
    assert sim.moving_obstacles == ["plate"]
    plate = sim.body_vertices("plate")
    sim.set_obstacle_velocity("plate", [0.0, 0.5, 0.0])
    assert sim.obstacle_velocity("plate") == [0.0, 0.5, 0.0]
    start = sim.x[plate].copy()
    sim.run(steps=4)
    # Driven by penalty towards x^n + h v: within the Newton tolerance of 0.5 m/s x 0.04 s.
    assert np.allclose(sim.x[plate] - start, [0.0, 0.02, 0.0], rtol=0, atol=1e-4)
    with pytest.raises(ValueError, match='no moving mesh obstacle "floor" \\(the scene.s are: plate\\)'):
        sim.set_obstacle_velocity("floor", [0, 0, 0])


def test_a_gripper_driven_from_python_lifts_the_bowl(source_dir):
    # The bowl grasp scene with its pads held in place instead of keyframed: Python squeezes them
    # 3 mm towards the bowl (1.5 mm past first touch) in 0.1 s, lifts them 2 cm in 0.2 s and holds.
    scene = json.loads((source_dir / "scenes" / "bowl_grasp.json").read_text())
    squeeze = {}
    for body in scene["bodies"][1:]:
        fixed = body["fixed"][0]
        squeeze[body["name"]] = fixed.pop("path")[8][1:]  # the scene's offset at 0.25 s: the squeeze
    scene["time"] = {"dt": 0.005, "end": 0.35}
    sim = softsim.Simulation(softsim.Scene.from_dict(scene, base_dir=source_dir / "scenes"))
    labels = {f"bodies[{k}].fixed[0]": name for k, name in enumerate(["bowl", "pad0", "pad1", "pad2"]) if k}
    assert sorted(sim.motions) == sorted(labels)
    bowl = sim.body_vertices("bowl")
    for label, pad in labels.items():
        sim.steer_motion(label, squeeze[pad], duration=0.1)
    sim.run(steps=20)
    bowl_y0 = sim.x[bowl, 1].min()  # squeezed, still on the ground
    lift = 0.02
    for label, pad in labels.items():
        sim.steer_motion(label, np.add(squeeze[pad], [0.0, lift, 0.0]), duration=0.2)
    sim.run()
    assert sim.report["status"] == "ok"
    masses = sim.masses[bowl]
    rise = sim.x[bowl, 1].min() - bowl_y0
    assert rise > 0.9 * lift, f"after the squeeze the bowl's lowest point rose {rise * 1000:.2f} mm of the pads' {lift * 1000:.0f} mm"
    assert np.average(sim.v[bowl, 1], weights=masses) == pytest.approx(0.0, abs=0.02)
