"""The examples in examples/python run as a user runs them, and say what they should."""
import os
import subprocess
import sys


def run_example(source_dir, name, *args):
    r = subprocess.run([sys.executable, str(source_dir / "examples" / "python" / name), *args], capture_output=True,
                       text=True, env=os.environ, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_drop_and_measure(source_dir, tmp_path):
    out = run_example(source_dir, "drop_and_measure.py", "--steps", "30", "--out", str(tmp_path))
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["step", "t", "(s)"] and lines[-1] == "status: ok"
    assert [int(line.split()[0]) for line in lines[1:-1]] == [10, 20, 30]
    assert (tmp_path / "summary.json").exists()


def test_steer_gripper(source_dir):
    out = run_example(source_dir, "steer_gripper.py", "--lift", "0.01")
    lifted = out.splitlines()[-1].split()
    assert lifted[:3] == ["lifted", "the", "bowl"] and lifted[-1] == "(ok)"
    assert float(lifted[3]) > 9.0  # mm of the pads' 10
