#!/usr/bin/env python3
"""The run viewer behind `softsim view`: plays a run's frames in 3D in the browser beside plots of
its stats.csv. Standard library only (the page uses three.js and dygraphs from Debian's
libjs-three and libjs-dygraphs).

    view.py RUN_DIR [--port 8000] [--host 127.0.0.1]     serve it; prints the URL
    view.py RUN_DIR --export SITE_DIR                      a static site that opens from the disk

The frames are read from RUN_DIR/frames/simulation.pvd and its .vtu files (the ASCII VTK
softsim writes): each body's boundary surface, per-vertex speed (|velocity|) and energy density
(the mean over the vertex's elements), and each analytic obstacle's surface (its own parts, files
under frames/obstacles/: triangles in 3D, segments in 2D). They go into run-data.js (a script,
not JSON, so that the exported page works from file://, where pages cannot fetch files); the
server rebuilds it on each load, so reloading shows the frames of a run still going.
"""
import argparse
import base64
import http.server
import itertools
import json
import os
import shutil
import struct
import sys
import tempfile
import xml.etree.ElementTree as ET

WEB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web")
# Debian's packages of the two libraries the page uses (see scripts/install-deps.sh).
LIBRARIES = {
    "three.min.js": ["/usr/share/javascript/three/build/three.min.js", "/usr/share/javascript/three/three.min.js"],
    "OrbitControls.js": ["/usr/share/javascript/three/examples/js/controls/OrbitControls.js"],
    "Lut.js": ["/usr/share/javascript/three/examples/js/math/Lut.js"],
    "dygraph.min.js": ["/usr/share/javascript/dygraphs/dygraph.min.js"],
    "dygraph.min.css": ["/usr/share/javascript/dygraphs/dygraph.min.css"],
}
# Faces of a tetrahedron (VTK type 10) and of a triangle (5); edges of a line (3).
TET_FACES = ((0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3))


class ViewError(Exception):
    """Bad input: a message naming the file, exit code 2."""


def _floats(text):
    return [float(v) for v in text.split()]


def _ints(text):
    return [int(v) for v in text.split()]


def read_vtu(path):
    """Points (flat xyz), cells (lists of vertex ids with their VTK type) and the data arrays."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise ViewError(f"{path}: cannot read the frame ({e})") from None
    piece = root.find("UnstructuredGrid/Piece")
    if piece is None:
        raise ViewError(f"{path}: not an UnstructuredGrid .vtu file")
    points = _floats(piece.find("Points/DataArray").text or "")
    arrays = {a.get("Name"): a for a in piece.iter("DataArray") if a.get("Name")}
    connectivity = _ints(arrays["connectivity"].text or "")
    offsets = _ints(arrays["offsets"].text or "")
    types = _ints(arrays["types"].text or "")
    cells, start = [], 0
    for end, kind in zip(offsets, types):
        cells.append((kind, connectivity[start:end]))
        start = end
    point_data = {a.get("Name"): _floats(a.text or "") for a in piece.findall("PointData/DataArray")}
    cell_data = {a.get("Name"): _floats(a.text or "") for a in piece.findall("CellData/DataArray")}
    return points, cells, point_data, cell_data


def surface_of(cells):
    """The boundary triangles (tetrahedra: faces that belong to one tetrahedron; triangles as they
    are) and the line segments (mass-spring edges)."""
    faces, triangles, lines = {}, [], []
    for kind, ids in cells:
        if kind == 10:
            for a, b, c in TET_FACES:
                f = (ids[a], ids[b], ids[c])
                key = tuple(sorted(f))
                faces[key] = None if key in faces else f
        elif kind == 5:
            triangles.append(tuple(ids))
        elif kind == 3:
            lines.append(tuple(ids))
    triangles += [f for f in faces.values() if f is not None]
    return triangles, lines


def is_flat(points, triangles, tolerance=1e-6):
    """Whether the triangles lie in one plane (a plane obstacle's square, which the page draws
    see-through): every vertex within tolerance x their extent of the largest triangle's plane."""
    p = [points[3 * i:3 * i + 3] for i in range(len(points) // 3)]
    best, normal, origin = 0.0, None, None
    for a, b, c in triangles:
        u = [p[b][k] - p[a][k] for k in range(3)]
        v = [p[c][k] - p[a][k] for k in range(3)]
        n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        area = sum(x * x for x in n) ** 0.5
        if area > best:
            best, normal, origin = area, [x / area for x in n], p[a]
    if normal is None:
        return False
    used = [p[i] for t in triangles for i in t]
    extent = max(max(q[k] for q in used) - min(q[k] for q in used) for k in range(3))
    return all(abs(sum(normal[k] * (q[k] - origin[k]) for k in range(3))) <= tolerance * extent for q in used)


def _b64(fmt, values):
    return base64.b64encode(struct.pack(f"<{len(values)}{fmt}", *values)).decode("ascii")


def _check_points(path, points, n):
    # The page copies each frame's positions into one buffer: a part keeps its vertices.
    if len(points) != 3 * n:
        raise ViewError(f"{path}: {len(points) // 3} points where the part's first frame has {n}")


def read_run(run_dir):
    """The run's frames and stats as the page's data (a dict)."""
    pvd = os.path.join(run_dir, "frames", "simulation.pvd")
    if not os.path.isdir(run_dir):
        raise ViewError(f"{run_dir}: no such run folder")
    if not os.path.isfile(pvd):
        raise ViewError(f"{pvd}: missing (is {run_dir} the output folder of a softsim run with .vtu frames?)")
    try:
        collection = ET.parse(pvd).getroot().find("Collection")
    except ET.ParseError as e:
        raise ViewError(f"{pvd}: malformed ({e})") from None
    times, parts, obstacle_parts = [], {}, set()
    for ds in collection.findall("DataSet"):
        t, part, file = float(ds.get("timestep")), int(ds.get("part", "0")), ds.get("file")
        if not times or times[-1] != t:
            times.append(t)
        # Analytic obstacles are parts of their own whose files are in frames/obstacles/.
        if file.replace("\\", "/").split("/")[0] == "obstacles":
            obstacle_parts.add(part)
        parts.setdefault(part, []).append(os.path.join(run_dir, "frames", file))
    bodies, obstacles = [], []
    for part in sorted(parts):
        files = parts[part]
        if len(files) != len(times) and part in obstacle_parts:
            # A run resumed from a checkpoint older than obstacle output: the obstacle is not drawn.
            continue
        if len(files) != len(times):
            raise ViewError(f"{pvd}: part {part} has {len(files)} frames for {len(times)} times")
        first = read_vtu(files[0])
        points, cells, _, _ = first
        triangles, lines = surface_of(cells)
        n = len(points) // 3
        name = os.path.basename(files[0]).rsplit("_", 1)[0]
        mesh = {"name": name, "vertices": n, "triangles": _b64("I", [i for t in triangles for i in t]),
                "lines": _b64("I", [i for e in lines for i in e])}
        if part in obstacle_parts:
            # Positions only: an obstacle is drawn grey, never coloured by a field.
            frames = []
            for file, (points, _, _, _) in zip(files, itertools.chain([first], map(read_vtu, files[1:]))):
                _check_points(file, points, n)
                frames.append({"positions": _b64("f", points)})
            obstacles.append(dict(mesh, flat=is_flat(first[0], triangles), frames=frames))
            continue
        incident = [0] * n
        for _, ids in cells:
            for i in ids:
                incident[i] += 1
        frames = []
        # Each file parsed once, one at a time (the first already is).
        for file, (points, cells, point_data, cell_data) in zip(files, itertools.chain([first], map(read_vtu, files[1:]))):
            _check_points(file, points, n)
            velocity = point_data.get("velocity", [0.0] * (3 * n))
            speed = [(velocity[3 * i] ** 2 + velocity[3 * i + 1] ** 2 + velocity[3 * i + 2] ** 2) ** 0.5 for i in range(n)]
            density = [0.0] * n
            for (_, ids), e in zip(cells, cell_data.get("energy_density", [0.0] * len(cells))):
                for i in ids:
                    density[i] += e
            density = [d / max(k, 1) for d, k in zip(density, incident)]
            frames.append({"positions": _b64("f", points), "speed": _b64("f", speed), "energy_density": _b64("f", density)})
        bodies.append(dict(mesh, frames=frames))
    stats_path = os.path.join(run_dir, "stats.csv")
    stats = open(stats_path).read() if os.path.isfile(stats_path) else ""
    summary_path = os.path.join(run_dir, "summary.json")
    summary = {}
    if os.path.isfile(summary_path):
        try:
            summary = json.load(open(summary_path))
        except ValueError:
            summary = {}
    return {"run": os.path.abspath(run_dir), "times": times, "bodies": bodies, "obstacles": obstacles, "stats": stats,
            "summary": summary}


def run_data_js(run_dir):
    return "window.SOFTSIM_RUN = " + json.dumps(read_run(run_dir)) + ";\n"


def _library(name):
    for path in LIBRARIES[name]:
        if os.path.isfile(path):
            return path
    raise ViewError(f"{name}: not found in {', '.join(LIBRARIES[name])} (run scripts/install-deps.sh: "
                    "packages libjs-three and libjs-dygraphs)")


def write_site(run_dir, site_dir, with_data=True):
    """The page, its libraries and (with_data) run-data.js in site_dir."""
    data = run_data_js(run_dir) if with_data else None  # read first: a bad run writes nothing
    os.makedirs(site_dir, exist_ok=True)
    for name in os.listdir(WEB_DIR):
        shutil.copyfile(os.path.join(WEB_DIR, name), os.path.join(site_dir, name))
    for name in LIBRARIES:
        shutil.copyfile(_library(name), os.path.join(site_dir, name))
    if data is not None:
        tmp = os.path.join(site_dir, "run-data.js.tmp")
        with open(tmp, "w") as f:
            f.write(data)
        os.replace(tmp, os.path.join(site_dir, "run-data.js"))


def serve(run_dir, host, port):
    site = tempfile.mkdtemp(prefix="softsim_view_")
    write_site(run_dir, site, with_data=False)
    read_run(run_dir)  # a bad run is refused before serving

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=site, **kwargs)

        def do_GET(self):
            if self.path.split("?")[0] == "/run-data.js":
                try:
                    body = run_data_js(run_dir).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/javascript")
                except ViewError as e:
                    body = f"console.error({json.dumps(str(e))});".encode()
                    self.send_response(500)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

        def log_message(self, *args):
            pass

    try:
        server = http.server.ThreadingHTTPServer((host, port), Handler)
    except OSError as e:
        raise ViewError(f"--port {port}: cannot listen on {host}:{port} ({e.strerror})") from None
    url = f"http://{host}:{server.server_address[1]}/"
    print(f"softsim view: {os.path.abspath(run_dir)} at {url} (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        shutil.rmtree(site, ignore_errors=True)


def main(argv=None):
    p = argparse.ArgumentParser(prog="softsim view", description="Plays a run in the browser beside plots of its stats.")
    p.add_argument("run_dir")
    p.add_argument("--port", type=int, default=8000, help="port to serve on (0: any free one)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--export", metavar="SITE_DIR", help="write a static site that opens from the disk instead")
    args = p.parse_args(argv)
    try:
        if args.export:
            write_site(args.run_dir, args.export)
            print(f"softsim view: {os.path.join(os.path.abspath(args.export), 'index.html')}")
        else:
            serve(args.run_dir, args.host, args.port)
    except ViewError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
