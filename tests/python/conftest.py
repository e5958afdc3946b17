"""Shared fixtures of the Python module's tests: where the sources and the CLI are (set by CTest),
and small scenes built here so the suite needs no external data."""
import copy
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("SOFTSIM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
CLI = os.environ.get("SOFTSIM_CLI", str(SOURCE_DIR / "build" / "softsim"))

# A small 3D scene with contact and friction: a 2 x 2 x 2 box dropped on the ground, 0.2 s.
DROP_SCENE = {
    "dim": 3,
    "time": {"dt": 0.01, "steps": 20},
    "bodies": [{
        "name": "cube",
        "generator": {"type": "box", "size": [0.1, 0.1, 0.1], "resolution": [2, 2, 2]},
        "transform": {"translate": [0, 0.06, 0]},
        "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000},
        "initial_velocity": [0.2, 0, 0],
    }],
    "obstacles": [{"type": "plane", "name": "ground", "point": [0, 0, 0], "normal": [0, 1, 0]}],
    "contact": {"dhat": 0.002, "friction": {"mu": 0.5}},
    "output": {"every": 5},
}


@pytest.fixture
def drop_scene():
    return copy.deepcopy(DROP_SCENE)


@pytest.fixture
def source_dir():
    return SOURCE_DIR


def run_cli(*args, check=False):
    """Runs the softsim CLI; returns the CompletedProcess (text)."""
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, check=check)
