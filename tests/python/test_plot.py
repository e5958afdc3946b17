"""softsim plot: the energy, iteration and distance curves of a run as PNG or SVG, with the right
axis labels and units; several runs compared in one figure; bad input refused with a message."""
import json

from conftest import run_cli


def make_run(tmp_path, drop_scene, name, **changes):
    drop_scene["contact"]["friction"]["mu"] = changes.get("mu", 0.5)
    (tmp_path / f"{name}.json").write_text(json.dumps(drop_scene))
    r = run_cli("run", tmp_path / f"{name}.json", "--out", tmp_path / name, "--quiet")
    assert r.returncode == 0, r.stderr
    return tmp_path / name


def test_svg_has_the_axes_labels_and_units(tmp_path, drop_scene):
    run = make_run(tmp_path, drop_scene, "drop")
    r = run_cli("plot", run, "--out", tmp_path / "drop.svg")
    assert r.returncode == 0, r.stderr
    svg = (tmp_path / "drop.svg").read_text()
    for text in ["energy (J)", "Newton iterations", "minimum distance (m)", "t (s)", "kinetic", "potential", "total"]:
        assert f">{text}<" in svg or text in svg, text
    assert svg.count("<path") > 10


def test_png_default_name_and_comparison(tmp_path, drop_scene):
    a = make_run(tmp_path, drop_scene, "sticky", mu=0.9)
    b = make_run(tmp_path, drop_scene, "slippery", mu=0.05)
    r = run_cli("plot", a)
    assert r.returncode == 0, r.stderr
    png = (a / "plot.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000
    r = run_cli("plot", a, b, "--out", tmp_path / "both.svg")
    assert r.returncode == 0, r.stderr
    svg = (tmp_path / "both.svg").read_text()
    assert "comparison of sticky, slippery" in svg and "sticky" in svg and "slippery" in svg


def test_bad_input(tmp_path):
    r = run_cli("plot", tmp_path / "nothing")
    assert r.returncode == 2 and r.stderr == f"error: {tmp_path / 'nothing'}: no such run folder\n"
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "stats.csv").write_text("step,t,newton_iters\n1,0.01,x\n")
    r = run_cli("plot", tmp_path / "run", "--out", tmp_path / "p.png")
    assert r.returncode == 2 and "stats.csv: line 2: column newton_iters: 'x' is not a number" in r.stderr
    assert not (tmp_path / "p.png").exists()
    r = run_cli("plot", tmp_path / "run", "--out", tmp_path / "p.txt")
    assert r.returncode == 2
