"""softsim view in a real headless browser (Debian's Chromium through Selenium): the page of a
small run loads with no console errors, shows the mesh, its time slider changes the frame, and its
plot panel shows the curves; served on 127.0.0.1 and as a static export opened from the disk.
Skipped, with the reason, where no browser is installed (scripts/install-deps.sh installs one).
The analytic obstacles' parts (frames/obstacles/) are checked on a run folder written here by hand,
in the data view.py makes and on the page."""
import base64
import importlib.util
import io
import json
import os
import shutil
import signal
import struct
import subprocess
import time

import pytest

from conftest import CLI, SOURCE_DIR, run_cli

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from conftest import DROP_SCENE
    scene = dict(DROP_SCENE, output={"every": 2})
    root = tmp_path_factory.mktemp("view")
    (root / "drop.json").write_text(json.dumps(scene))
    r = run_cli("run", root / "drop.json", "--out", root / "run", "--quiet")
    assert r.returncode == 0, r.stderr
    return root / "run"


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("no chromium / chromedriver installed (Debian packages chromium, chromium-driver)")
    selenium = pytest.importorskip("selenium.webdriver", reason="python3-selenium is not installed")
    from selenium.webdriver.chrome.service import Service
    options = selenium.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--window-size=1200,800"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = selenium.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def non_background_fraction(png, background=(255, 255, 255)):
    from PIL import Image
    image = Image.open(io.BytesIO(png)).convert("RGB")
    pixels = list(image.getdata())
    return sum(1 for p in pixels if max(abs(a - b) for a, b in zip(p, background)) > 24) / len(pixels)


def check_page(driver, url):
    driver.get(url)
    deadline = time.time() + 30
    while time.time() < deadline and not driver.execute_script("return !!(window.softsimViewer && window.softsimViewer.ready)"):
        time.sleep(0.1)
    viewer = driver.execute_script("return {frames: softsimViewer.frames, plots: softsimViewer.plots, frame: softsimViewer.frame}")
    assert viewer == {"frames": 11, "plots": 3, "frame": 0}
    time.sleep(0.5)  # a few animation frames drawn
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    canvas = driver.find_element(By.CSS_SELECTOR, "#scene canvas")
    first = canvas.screenshot_as_png
    assert non_background_fraction(first) > 0.01, "the mesh is not on the canvas"
    # The slider, moved from the keyboard as a user would, shows later frames: the cube has fallen.
    slider = driver.find_element(By.ID, "time")
    slider.send_keys(Keys.ARROW_RIGHT)
    assert driver.execute_script("return softsimViewer.frame") == 1
    slider.send_keys(Keys.END)
    assert driver.execute_script("return softsimViewer.frame") == 10
    assert driver.find_element(By.ID, "time-label").text.startswith("t = 0.2000 s (frame 11/11)")
    last_frame = canvas.screenshot_as_png
    assert last_frame != first
    # Colour by another field: the legend shows its range and the picture changes.
    from selenium.webdriver.support.ui import Select
    speed_range = driver.find_element(By.ID, "legend").text
    Select(driver.find_element(By.ID, "field")).select_by_value("energy_density")
    assert driver.find_element(By.ID, "legend").text not in ("", speed_range)
    assert canvas.screenshot_as_png != last_frame
    # The plot panel: three dygraphs with their curves and axis labels.
    for plot_id, label, curve in (("plot-energy", "energy (J)", "total_energy"), ("plot-newton", "iterations", "newton_iters"),
                                  ("plot-distance", "distance (m)", "min_distance")):
        panel = driver.find_element(By.ID, plot_id)
        assert label in panel.text and curve in panel.text and "t (s)" in panel.text
        assert non_background_fraction(panel.screenshot_as_png) > 0.02


def test_static_export_opens_from_the_disk(small_run, browser, tmp_path):
    r = run_cli("view", small_run, "--export", tmp_path / "site")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "site" / "run-data.js").stat().st_size > 1000
    check_page(browser, (tmp_path / "site" / "index.html").as_uri())


def test_served_on_localhost(small_run, browser):
    p = subprocess.Popen([CLI, "view", str(small_run), "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        assert line.startswith("softsim view: ") and " at http://127.0.0.1:" in line, line + p.stderr.read()
        url = line.split(" at ")[1].split()[0]
        check_page(browser, url)
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(timeout=20)
    assert p.returncode == 0


def test_bad_run_folder_is_refused(tmp_path):
    r = run_cli("view", tmp_path / "missing", "--export", tmp_path / "site")
    assert r.returncode == 2 and r.stderr == f"error: {tmp_path / 'missing'}: no such run folder\n"
    assert not (tmp_path / "site").exists()
    (tmp_path / "empty").mkdir()
    r = run_cli("view", tmp_path / "empty")
    assert r.returncode == 2 and "simulation.pvd: missing" in r.stderr


# view.py itself, from the sources (what `softsim view` runs), without the compiled module.
_spec = importlib.util.spec_from_file_location("softsim_view", SOURCE_DIR / "python" / "softsim" / "view.py")
view = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(view)


def write_vtu(path, points, cells, vtk_type, point_data, cell_data=None):
    """An ASCII .vtu as src/softsim/io/vtu.cpp writes it (2D points padded with z = 0)."""
    def arrays(tag, fields):
        if not fields:
            return ""
        out = [f"      <{tag}>"]
        for name, rows in fields.items():
            out.append(f'        <DataArray type="Float64" Name="{name}" NumberOfComponents="{len(rows[0])}" format="ascii">')
            out += ["          " + " ".join(map(repr, r)) for r in rows]
            out.append("        </DataArray>")
        return "\n".join(out + [f"      </{tag}>"]) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    points = [list(p) + [0.0] * (3 - len(p)) for p in points]
    path.write_text(
        '<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">\n'
        f'  <UnstructuredGrid>\n    <Piece NumberOfPoints="{len(points)}" NumberOfCells="{len(cells)}">\n'
        + arrays("PointData", point_data) + arrays("CellData", cell_data)
        + '      <Points>\n        <DataArray type="Float64" NumberOfComponents="3" format="ascii">\n'
        + "".join("          " + " ".join(map(repr, p)) + "\n" for p in points)
        + '        </DataArray>\n      </Points>\n      <Cells>\n'
        '        <DataArray type="Int32" Name="connectivity" format="ascii">\n'
        + "".join("          " + " ".join(map(str, c)) + "\n" for c in cells)
        + '        </DataArray>\n        <DataArray type="Int32" Name="offsets" format="ascii">\n'
        + "".join(f"          {sum(len(c) for c in cells[:k + 1])}\n" for k in range(len(cells)))
        + '        </DataArray>\n        <DataArray type="UInt8" Name="types" format="ascii">\n'
        + "".join(f"          {vtk_type}\n" for _ in cells)
        + "        </DataArray>\n      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n")


def box_triangles(centre, size):
    corners = [[centre[k] + (0.5 if (i >> k) & 1 else -0.5) * size for k in range(3)] for i in range(8)]
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    return corners, [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]


def write_run(root, parts, times=(0.0, 0.2)):
    """A run folder: parts is a list of (file name pattern, frame -> (points, cells, VTK type, point
    data, cell data)); the .pvd lists them frame by frame, one part each, as softsim does."""
    entries = []
    for frame, t in enumerate(times):
        for part, (pattern, make) in enumerate(parts):
            name = pattern.format(frame)
            write_vtu(root / "frames" / name, *make(frame))
            entries.append(f'    <DataSet timestep="{t}" group="" part="{part}" file="{name}"/>')
    (root / "frames" / "simulation.pvd").write_text(
        '<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1" byte_order="LittleEndian">\n  <Collection>\n'
        + "\n".join(entries) + "\n  </Collection>\n</VTKFile>\n")
    (root / "stats.csv").write_text("step,t,kinetic,potential,total_energy,newton_iters,min_distance\n"
                                    + "".join(f"{k},{t},0.5,0.1,0.6,{k + 2},{0.01 / (k + 1)}\n" for k, t in enumerate(times)))
    return root


# A tetrahedron at rest in both frames (speeds 0, 1, 0.5, 0.25), over a 60 m ground square (a plane
# obstacle, static), and a 0.4 m box obstacle in front moving at 5 m/s along -x: 1 m a frame.
TET = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
TET_VELOCITY = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.5, 0.0), (0.0, 0.0, 0.25)]
GROUND = [(-30.0, -0.5, -30.0), (30.0, -0.5, -30.0), (30.0, -0.5, 30.0), (-30.0, -0.5, 30.0)]


def obstacle_run(root):
    def pusher(frame):
        corners, triangles = box_triangles([1.0 - frame, 0.0, 1.0], 0.4)
        return corners, triangles, 5, {"velocity": [(-5.0, 0.0, 0.0)] * 8}
    return write_run(root, [
        ("tet_{:05d}.vtu", lambda frame: (TET, [(0, 1, 2, 3)], 10, {"velocity": TET_VELOCITY}, {"energy_density": [(2.0,)]})),
        ("obstacles/ground_{:05d}.vtu", lambda frame: (GROUND, [(0, 1, 2), (0, 2, 3)], 5, {"velocity": [(0.0, 0.0, 0.0)] * 4})),
        ("obstacles/pusher_{:05d}.vtu", pusher),
    ])


def floats(b64):
    data = base64.b64decode(b64)
    return list(struct.unpack(f"<{len(data) // 4}f", data))


def ints(b64):
    data = base64.b64decode(b64)
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def test_obstacle_parts_are_obstacles_that_move(tmp_path):
    data = view.read_run(obstacle_run(tmp_path / "run"))
    assert data["times"] == [0.0, 0.2]
    assert [b["name"] for b in data["bodies"]] == ["tet"]
    assert [(o["name"], o["vertices"], o["flat"]) for o in data["obstacles"]] == [("ground", 4, True), ("pusher", 8, False)]
    ground, pusher = data["obstacles"]
    assert ints(ground["triangles"]) == [0, 1, 2, 0, 2, 3] and len(ints(pusher["triangles"])) == 36
    assert ints(ground["lines"]) == [] and ints(pusher["lines"]) == []
    # Every frame's positions, and nothing to colour by: the colour scale is the bodies' alone.
    for o in data["obstacles"]:
        assert len(o["frames"]) == 2 and all(set(f) == {"positions"} for f in o["frames"])
    assert floats(ground["frames"][0]["positions"]) == floats(ground["frames"][1]["positions"])
    before, after = floats(pusher["frames"][0]["positions"]), floats(pusher["frames"][1]["positions"])
    assert [round(a - b, 6) for a, b in zip(after, before)] == [-1.0, 0.0, 0.0] * 8
    speeds = [v for f in data["bodies"][0]["frames"] for v in floats(f["speed"])]
    assert (min(speeds), max(speeds)) == (0.0, 1.0)
    assert view.run_data_js(tmp_path / "run").count('"flat"') == 2


def test_2d_obstacles_are_segments(tmp_path):
    # A 2D run: a triangle body (z = 0) over a ground segment rising 0.1 m a frame, and a circle
    # obstacle as a closed polyline of 8 segments.
    import math
    circle = [(2 + 0.5 * math.cos(k * math.pi / 4), 0.5 * math.sin(k * math.pi / 4)) for k in range(8)]
    triangle = ([(0, 0), (1, 0), (0, 1)], [(0, 1, 2)], 5, {"velocity": [(0, 0, 0), (3, 4, 0), (0, 0, 0)]})
    run = write_run(tmp_path / "run", [
        ("square_{:05d}.vtu", lambda frame: triangle),
        ("obstacles/floor_{:05d}.vtu", lambda frame: ([(-3, -0.5 + 0.1 * frame), (3, -0.5 + 0.1 * frame)], [(0, 1)], 3,
                                                      {"velocity": [(0.0, 0.5, 0.0)] * 2})),
        ("obstacles/post_{:05d}.vtu", lambda frame: (circle, [(k, (k + 1) % 8) for k in range(8)], 3,
                                                     {"velocity": [(0.0, 0.0, 0.0)] * 8})),
    ])
    data = view.read_run(run)
    assert ints(data["bodies"][0]["triangles"]) == [0, 1, 2] and max(floats(data["bodies"][0]["frames"][0]["speed"])) == 5.0
    floor, post = data["obstacles"]
    assert (floor["name"], floor["vertices"], floor["flat"]) == ("floor", 2, False)
    assert (ints(floor["triangles"]), ints(floor["lines"])) == ([], [0, 1])
    assert (post["name"], post["vertices"], len(ints(post["lines"]))) == ("post", 8, 16)
    assert [round(v, 6) for v in floats(floor["frames"][1]["positions"])] == [-3.0, -0.4, 0.0, 3.0, -0.4, 0.0]


def test_an_obstacle_frame_with_other_points_is_refused(tmp_path):
    run = obstacle_run(tmp_path / "run")
    write_vtu(run / "frames" / "obstacles" / "ground_00001.vtu", GROUND[:3], [(0, 1, 2)], 5, {"velocity": [(0.0, 0.0, 0.0)] * 3})
    with pytest.raises(view.ViewError, match="ground_00001.vtu: 3 points where the part's first frame has 4"):
        view.read_run(run)


def colourful_fraction(png):
    """The share of saturated pixels: the bodies' field colours, not the grey obstacles."""
    from PIL import Image
    pixels = list(Image.open(io.BytesIO(png)).convert("RGB").getdata())
    return sum(1 for p in pixels if max(p) - min(p) > 80) / len(pixels)


def test_page_draws_obstacles_grey_and_moving(tmp_path, browser):
    run = obstacle_run(tmp_path / "run")
    view.write_site(run, tmp_path / "site")
    browser.get((tmp_path / "site" / "index.html").as_uri())
    deadline = time.time() + 30
    while time.time() < deadline and not browser.execute_script("return !!(window.softsimViewer && window.softsimViewer.ready)"):
        time.sleep(0.1)
    viewer = browser.execute_script("return {frames: softsimViewer.frames, obstacles: softsimViewer.obstacles}")
    assert viewer == {"frames": 2, "obstacles": 2}
    time.sleep(0.5)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    from selenium.webdriver.common.by import By
    # The colour scale is the tetrahedron's speeds (the box moves at 5 m/s).
    assert browser.find_element(By.ID, "legend").text == "0.00 … 1.00"
    canvas = browser.find_element(By.CSS_SELECTOR, "#scene canvas")
    first = canvas.screenshot_as_png
    # The camera frames the tetrahedron, not the 60 m ground: the coloured body fills much of the view.
    assert colourful_fraction(first) > 0.05, colourful_fraction(first)
    # The ground, seen through, greys the white background in a corner of the view.
    from PIL import Image
    image = Image.open(io.BytesIO(first)).convert("RGB")
    r, g, b = image.getpixel((5, image.height - 5))
    assert r == g == b and 180 < r < 250, (r, g, b)
    # Only the box moves from frame 0 to 1, so a changed picture is the box moving.
    browser.execute_script("softsimViewer.setFrame(1)")
    time.sleep(0.3)
    assert canvas.screenshot_as_png != first
