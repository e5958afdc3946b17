"""softsim.Scene: files and dicts read as the CLI reads them, bad input as ValueError with the CLI's
message."""
import json

import numpy as np
import pytest

import softsim
from conftest import run_cli


def test_load_reads_the_scene_file(source_dir):
    scene = softsim.Scene.load(source_dir / "scenes" / "bowl_grasp.json")
    assert scene.dim == 3
    assert scene.dt == pytest.approx(0.005)
    assert scene.steps == 200  # time.end 1.0 s at 0.005 s
    assert scene.integrator == "backward_euler"
    assert scene.bodies == ["bowl", "pad0", "pad1", "pad2"]
    assert scene.obstacles == ["ground"]
    assert scene.file.endswith("bowl_grasp.json")
    assert "4 bodies" in repr(scene)


def test_from_dict_accepts_numpy_values(drop_scene):
    drop_scene["bodies"][0]["transform"]["translate"] = np.array([0.0, 0.06, 0.0])
    drop_scene["time"]["dt"] = np.float64(0.02)
    scene = softsim.Scene.from_dict(drop_scene, name="drop")
    assert scene.dt == 0.02 and scene.steps == 20 and scene.file == "drop"


def test_default_scene_is_the_cli_default():
    assert softsim.Scene.default().file == "(default scene)"


def cli_error(scene_path, tmp_path):
    r = run_cli("run", scene_path, "--out", tmp_path / "out", "--quiet")
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("error: ")
    return r.stderr[len("error: "):].strip()


@pytest.mark.parametrize("change, key", [
    (lambda s: s["bodies"][0]["material"].__setitem__("E", -1.0), "bodies[0].material.E"),
    (lambda s: s["time"].__setitem__("dt", "fast"), "time.dt"),
    (lambda s: s.__setitem__("gravty", [0, -9.81, 0]), "gravty"),
    (lambda s: (s["bodies"][0].pop("generator"), s["bodies"][0].__setitem__("mesh", "missing.msh")), "missing.msh"),
])
def test_bad_input_raises_value_error_with_the_cli_message(drop_scene, tmp_path, change, key):
    change(drop_scene)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(drop_scene))
    expected = cli_error(path, tmp_path)
    assert key in expected
    with pytest.raises(ValueError) as e:
        softsim.Simulation(softsim.Scene.load(path))  # a missing mesh is found when the model is built
    assert str(e.value) == expected
    # The same dict from Python: the same message, naming the dict's name instead of the file.
    with pytest.raises(ValueError) as e:
        softsim.Simulation(softsim.Scene.from_dict(drop_scene, name=str(path)))
    assert str(e.value) == expected


def test_missing_file_and_malformed_json(tmp_path):
    with pytest.raises(ValueError, match="nothing.json: cannot open the scene file"):
        softsim.Scene.load(tmp_path / "nothing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"dim": 31e308}')
    expected = cli_error(bad, tmp_path)
    with pytest.raises(ValueError) as e:
        softsim.Scene.load(bad)
    assert str(e.value) == expected and "line 1" in expected


def test_nan_in_a_dict_is_refused(drop_scene):
    drop_scene["time"]["dt"] = float("nan")
    with pytest.raises(ValueError, match="drop: a value is NaN or infinite"):
        softsim.Scene.from_dict(drop_scene, name="drop")
    drop_scene["time"]["dt"] = object()
    with pytest.raises(ValueError, match="drop: a value of type object cannot be part of a scene"):
        softsim.Scene.from_dict(drop_scene, name="drop")
