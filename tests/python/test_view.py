"""softsim view in a real headless browser (Debian's Chromium through Selenium): the page of a
small run loads with no console errors, shows the mesh, its time slider changes the frame, and its
plot panel shows the curves; served on 127.0.0.1 and as a static export opened from the disk.
Skipped, with the reason, where no browser is installed (scripts/install-deps.sh installs one)."""
import io
import json
import os
import shutil
import signal
import subprocess
import time

import pytest

from conftest import CLI, run_cli

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
