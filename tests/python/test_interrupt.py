"""Ctrl-C in Python stops a run cleanly, as in the CLI: the step in progress finishes, a checkpoint
is written, summary.json says "interrupted", KeyboardInterrupt reaches the script, and the run
continues from the checkpoint."""
import json
import os
import signal
import subprocess
import sys
import time

from conftest import run_cli

SCRIPT = """
import sys, softsim
sim = softsim.Simulation(sys.argv[1], out_dir=sys.argv[2])
try:
    sim.run()
except KeyboardInterrupt:
    print("stopped at step", sim.step_index, sim.report["status"], flush=True)
    sys.exit(130)
"""


def test_ctrl_c_stops_cleanly_and_the_run_resumes(drop_scene, tmp_path):
    drop_scene["time"] = {"dt": 0.01, "steps": 100000}
    drop_scene["output"] = {"every": 1000}
    scene_file = tmp_path / "drop.json"
    scene_file.write_text(json.dumps(drop_scene))
    out = tmp_path / "out"
    p = subprocess.Popen([sys.executable, "-c", SCRIPT, str(scene_file), str(out)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=os.environ)
    stats = out / "stats.csv"
    deadline = time.time() + 120
    while time.time() < deadline and (not stats.exists() or stats.read_text().count("\n") < 6):
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130, stderr
    words = stdout.split()
    step = int(words[3])
    assert words[:3] == ["stopped", "at", "step"] and words[4] == "interrupted" and step >= 5
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "interrupted" and summary["steps_done"] == step
    assert (out / "checkpoint.bin").exists()
    assert stats.read_text().count("\n") == step + 1  # header + one row per finished step
    # The CLI continues the run from the checkpoint.
    r = run_cli("run", "--resume", out, "--steps", step + 3, "--quiet")
    assert r.returncode == 0, r.stderr
    assert json.loads((out / "summary.json").read_text())["steps_done"] == step + 3
