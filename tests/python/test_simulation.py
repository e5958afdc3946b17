"""softsim.Simulation: stepping, the state as numpy views, measurements, and outputs bit for bit
those of the CLI."""
import filecmp
import json
import os

import numpy as np
import pytest

import softsim
from conftest import run_cli


def free_fall_scene(steps=10):
    # A box of six tetrahedra in free fall, without contact: a rigid motion, so no elastic force,
    # and symplectic Euler's recurrence gives the state exactly.
    return {
        "dim": 3,
        "time": {"dt": 0.01, "steps": steps},
        "integrator": {"type": "symplectic_euler"},
        "bodies": [{"name": "box", "generator": {"type": "box", "size": [0.1, 0.1, 0.1], "resolution": [1, 1, 1]},
                    "material": {"model": "neo_hookean", "E": 1e4, "nu": 0.3, "density": 1000}}],
        "contact": {"enabled": False},
    }


def test_free_fall_follows_symplectic_euler_exactly():
    sim = softsim.Simulation(free_fall_scene())
    x0 = sim.x.copy()
    assert sim.step_index == 0 and sim.running
    for _ in range(10):
        assert sim.step() in (True, False)
    # A rigid motion has no elastic force: v_n = -g n h, x_n = x0 - g h^2 n (n + 1) / 2.
    h, g, n = 0.01, 9.81, 10
    assert np.allclose(sim.v[:, 1], -g * h * n, rtol=0, atol=1e-12)
    assert np.allclose(sim.x[:, 1] - x0[:, 1], -g * h * h * n * (n + 1) / 2, rtol=0, atol=1e-12)
    assert np.allclose(sim.x[:, [0, 2]], x0[:, [0, 2]], rtol=0, atol=1e-12)
    assert sim.t == pytest.approx(0.1)
    assert not sim.running and sim.step() is False
    assert sim.report["steps_done"] == 10 and sim.finish()["status"] == "ok"


def test_views_write_through_and_stay_valid_across_steps():
    sim = softsim.Simulation(free_fall_scene(steps=3))
    x, v = sim.x, sim.v
    assert x.shape == (8, 3) and v.shape == (8, 3) and x.flags.writeable
    v[:, 0] = 1.0  # through the view: the body now also moves along x at 1 m/s
    sim.step()
    assert np.shares_memory(x, sim.x) and np.shares_memory(v, sim.v)
    assert np.allclose(x[:, 0] - sim.rest_positions[:, 0], 0.01, rtol=0, atol=1e-12)
    sim.x = sim.x + np.array([0.0, 0.0, 2.0])  # whole-array assignment copies into the same memory
    assert np.shares_memory(x, sim.x) and np.allclose(x[:, 2] - sim.rest_positions[:, 2], 2.0)
    with pytest.raises(ValueError, match=r"expected an array of shape \(8, 3\)"):
        sim.v = np.zeros((7, 3))


def test_measurements_after_a_step(drop_scene):
    sim = softsim.Simulation(drop_scene)
    assert sim.dim == 3 and sim.dt == 0.01 and sim.integrator
    assert [b["name"] for b in sim.bodies] == ["cube"] and sim.bodies[0]["num_vertices"] == 27
    assert sim.body_vertices("cube") == slice(0, 27, 1)
    tris = sim.surface_triangles("cube")
    assert tris.shape == (48, 3) and tris.min() >= 0 and tris.max() < 27
    assert sim.masses.sum() == pytest.approx(1.0)  # 0.1^3 m^3 at 1000 kg/m^3
    sim.run(steps=5)
    last = sim.last
    assert last["step"] == 5 and last["newton_iterations"] >= 1 and last["converged"]
    e = sim.energies()
    assert e["kinetic"] == pytest.approx(last["kinetic"], rel=1e-12)
    potential = sum(v for k, v in e.items() if k != "kinetic")
    assert potential == pytest.approx(last["potential"], rel=1e-9, abs=1e-12)
    assert "elasticity(neo_hookean)" in e and "obstacle_barrier" in e
    # Gravity's potential: -x . f_ext = sum of m g y.
    assert e["external_work"] == pytest.approx(9.81 * sim.masses @ sim.x[:, 1], rel=1e-12)
    assert 0 < sim.min_distance < 0.06
    contacts = sim.contacts()  # the cube's bottom vertices within dhat of the ground
    bottom = np.flatnonzero(sim.x[:, 1] < 0.002)
    assert contacts["kind"] == ["point_obstacle"] * len(bottom) and len(bottom) == 9
    assert sorted(contacts["vertices"][:, 0]) == sorted(bottom) and np.all(contacts["vertices"][:, 1:] == -1)
    assert np.allclose(contacts["distance"], sim.x[bottom, 1], rtol=0, atol=1e-15)
    assert contacts["term"] == ["obstacle_barrier"] * 9
    forces = sim.contact_forces()  # barrier contact: no constraint forces
    assert forces["gap"].shape == (0,) and forces["force"].shape == (0, 3)
    with pytest.raises(ValueError, match='no body "lid"'):
        sim.body_vertices("lid")


def test_run_with_callback_every_and_early_stop(drop_scene):
    seen = []
    sim = softsim.Simulation(drop_scene)
    report = sim.run(callback=lambda s: seen.append(s.step_index), every=4)
    assert seen == [4, 8, 12, 16, 20] and report["status"] == "ok" and report["steps_done"] == 20
    assert sim.steps_requested == 20
    sim = softsim.Simulation(drop_scene)
    sim.run(callback=lambda s: s.step_index < 3)
    assert sim.step_index == 3 and sim.running and sim.report["status"] == "running"
    sim.run(steps=2)
    assert sim.step_index == 5
    with pytest.raises(ValueError):
        sim.run(every=0)


def test_frames_are_bitwise_those_of_the_cli(drop_scene, tmp_path):
    scene_file = tmp_path / "drop.json"
    scene_file.write_text(json.dumps(drop_scene))
    cli = run_cli("run", scene_file, "--out", tmp_path / "cli", "--quiet")
    assert cli.returncode == 0, cli.stderr
    report = softsim.run(scene_file, out_dir=tmp_path / "py", progress=False)
    assert report["status"] == "ok"
    # Every file under frames/, the analytic obstacles' outlines in frames/obstacles/ included.
    def files(root):
        return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())

    frames = files(tmp_path / "cli" / "frames")
    assert len(frames) >= 8 and frames == files(tmp_path / "py" / "frames")
    assert any(f.startswith("obstacles/") for f in frames)
    match, mismatch, errors = filecmp.cmpfiles(tmp_path / "cli" / "frames", tmp_path / "py" / "frames", frames,
                                               shallow=False)
    assert mismatch == [] and errors == []
    cli_stats = (tmp_path / "cli" / "stats.csv").read_text().splitlines()
    py_stats = (tmp_path / "py" / "stats.csv").read_text().splitlines()
    drop_wall = lambda row: row.split(",")[:9]  # wall_ms differs
    assert [drop_wall(r) for r in cli_stats] == [drop_wall(r) for r in py_stats]
    summary = json.loads((tmp_path / "py" / "summary.json").read_text())
    assert summary["status"] == "ok" and summary["steps_done"] == 20


def test_write_frame_and_resume(drop_scene, tmp_path):
    drop_scene["output"] = {"every": 100, "checkpoint_every": 10}
    sim = softsim.Simulation(drop_scene, out_dir=tmp_path)
    sim.run(steps=3)
    sim.write_frame()
    assert (tmp_path / "frames" / "frame_00003.vtu").exists() and (tmp_path / "frames" / "surface_00003.obj").exists()
    sim.run(steps=7)
    sim.interrupt()
    assert sim.report["status"] == "interrupted" and not sim.running
    resumed = softsim.Simulation(drop_scene, out_dir=tmp_path, resume=True)
    assert resumed.step_index == 10
    resumed.run()
    whole = softsim.Simulation(drop_scene)
    whole.run()
    assert np.array_equal(resumed.x, whole.x) and np.array_equal(resumed.v, whole.v)
    with pytest.raises(ValueError, match="resume=True needs out_dir"):
        softsim.Simulation(drop_scene, resume=True)


def test_threads_setting():
    softsim.set_threads(1)
    assert softsim.threads() == 1
    softsim.set_threads(0)
    assert softsim.threads() >= 1
    with pytest.raises(ValueError):
        softsim.set_threads(-1)


def test_constraint_contact_forces_balance_the_weight_on_the_slope(source_dir):
    # The block on a 10 degree slope (gravity tilted), sliding: the normal forces carry the weight's
    # normal component m g cos(10 deg) and kinetic friction is mu times that.
    sim = softsim.Simulation(source_dir / "scenes" / "constraint_block_on_slope.json", steps=20)
    sim.run()
    f = sim.contact_forces()
    assert f["kind"] == ["point_obstacle"] * 4 and f["vertices"].shape == (4, 4)
    weight_normal = sim.masses.sum() * 9.66096
    assert f["normal_force"].sum() == pytest.approx(weight_normal, rel=1e-9)
    assert f["tangential_force"].sum() == pytest.approx(0.177 * weight_normal, rel=1e-9)
    assert f["force"].sum(axis=0) == pytest.approx([-0.177 * weight_normal, weight_normal, 0.0], abs=1e-4)
    assert np.all(f["gap"] > -1e-9)


def test_context_manager_finishes_and_an_early_end_is_resumable(drop_scene, tmp_path):
    with softsim.Simulation(drop_scene, out_dir=tmp_path) as sim:
        sim.step()
    assert sim.report["status"] == "interrupted" and not sim.running
    assert json.loads((tmp_path / "summary.json").read_text())["status"] == "interrupted"
    resumed = softsim.Simulation(drop_scene, out_dir=tmp_path, resume=True)
    assert resumed.step_index == 1 and resumed.run()["status"] == "ok"
    assert softsim.Scene.default().steps > 0 and "Simulation" in repr(resumed)


def test_ipc_contacts_between_bodies(source_dir):
    sim = softsim.Simulation(source_dir / "scenes" / "box_stack.json", steps=10)
    sim.run()
    c = sim.contacts()
    kinds = {k for k, t in zip(c["kind"], c["term"]) if t == "ipc_contact"}
    assert kinds and kinds <= {"point_triangle", "edge_edge", "point_edge", "point_point"}
    assert np.all(c["distance"] > 0)
    assert c["distance"].min() == pytest.approx(sim.min_distance, rel=1e-9)
