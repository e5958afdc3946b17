"""The installed C++ package: `cmake --install` into a temporary prefix gives the library, the CLI,
the public headers (and only the headers they need) and a CMake package; examples/cpp, a
downstream project, configures against it with find_package(softsim), builds and runs."""
import os
import pathlib
import subprocess

BINARY_DIR = pathlib.Path(os.environ["SOFTSIM_BINARY_DIR"])
SOURCE_DIR = pathlib.Path(os.environ["SOFTSIM_SOURCE_DIR"])


def run(*args, **kwargs):
    r = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    assert r.returncode == 0, f"{' '.join(map(str, args))}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def test_install_then_build_and_run_the_downstream_example(tmp_path):
    prefix = tmp_path / "prefix"
    run("cmake", "--install", BINARY_DIR, "--prefix", prefix)
    assert (prefix / "lib" / "libsoftsim.a").is_file()
    assert os.access(prefix / "bin" / "softsim", os.X_OK)
    assert (prefix / "lib" / "cmake" / "softsim" / "softsimConfig.cmake").is_file()
    headers = sorted(str(p.relative_to(prefix / "include")) for p in (prefix / "include").rglob("*.hpp"))
    for public in ["softsim/scene/scene.hpp", "softsim/sim/simulation.hpp", "softsim/sim/steering.hpp",
                   "softsim/model/model.hpp", "softsim/integrate/stepper.hpp", "softsim/core/errors.hpp"]:
        assert public in headers
    # Internals no public header includes stay out: the CCD root finder, the linear solvers'
    # factorizations, the readers' parse buffer, the test and CLI helpers.
    for internal in ["softsim/contact/ccd/additive_ccd_root.hpp", "softsim/io/parse_buffer.hpp",
                     "softsim/sim/progress.hpp", "softsim/sim/frame_writer.hpp"]:
        assert internal not in headers
    assert not list((prefix / "include").rglob("*.cpp"))
    assert "softsim" in run(prefix / "bin" / "softsim", "--version")

    build = tmp_path / "build"
    run("cmake", "-S", SOURCE_DIR / "examples" / "cpp", "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}")
    run("cmake", "--build", build, "-j", "2")
    out = run(build / "drop", SOURCE_DIR / "scenes" / "box_stack.json", "40")
    lines = out.splitlines()
    assert lines[0].startswith("40 steps, t = 0.4 s")
    assert len(lines) == 4  # three boxes
    # Resting on the ground and on each other: every lowest point above the ground.
    assert all(float(line.split()[-2]) > 0.0 for line in lines[1:])
    # Bad input through the installed library: the same message and exit code 2 as the CLI.
    r = subprocess.run([str(build / "drop"), str(tmp_path / "missing.json")], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr == f"error: {tmp_path / 'missing.json'}: cannot open the scene file\n"
