// The run viewer page (view.py writes its data into run-data.js as window.SOFTSIM_RUN): the
// bodies' surfaces frame by frame with three.js (orbit camera, play/pause, a time slider, per-vertex
// colour by speed or energy density through three.js's Lut) among the grey analytic obstacles, and
// the run's stats.csv as dygraphs plots. window.softsimViewer exposes the state for tests (frame,
// setFrame).
(function () {
  "use strict";
  const run = window.SOFTSIM_RUN;
  if (!run) {
    console.error("softsim view: run-data.js is missing or failed to load");
    return;
  }
  const decode = (b64, Type) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return new Type(bytes.buffer);
  };
  document.getElementById("run-name").textContent = run.run;
  const status = run.summary && run.summary.status;
  document.getElementById("run-status").textContent = status ? `${status}, ${run.summary.steps_done} steps` : "";

  // Scene ----------------------------------------------------------------------------------------
  const container = document.getElementById("scene");
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setClearColor(0xffffff);
  container.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(40, 1, 1e-4, 1e4);
  const controls = new THREE.OrbitControls(camera, renderer.domElement);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 0.7));
  const sun = new THREE.DirectionalLight(0xffffff, 0.6);
  scene.add(sun);
  const lut = new THREE.Lut("rainbow", 256);

  // Bodies are coloured per vertex by the chosen field. Obstacles (analytic planes, spheres, boxes:
  // positions only) are grey whatever the field, and flat ones (planes) see-through, so that what
  // lies behind the ground shows.
  function addMesh(part, obstacle) {
    const frames = part.frames.map((f) => obstacle ? { positions: decode(f.positions, Float32Array) } : {
      positions: decode(f.positions, Float32Array),
      speed: decode(f.speed, Float32Array),
      energy_density: decode(f.energy_density, Float32Array),
    });
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(frames[0].positions), 3));
    if (!obstacle) geometry.setAttribute("color", new THREE.BufferAttribute(new Float32Array(part.vertices * 3), 3));
    const triangles = decode(part.triangles, Uint32Array);
    const group = new THREE.Group();
    if (triangles.length) {
      geometry.setIndex(new THREE.BufferAttribute(triangles, 1));
      geometry.computeVertexNormals();
      const material = obstacle
        ? new THREE.MeshPhongMaterial({ color: 0x9a9a9a, side: THREE.DoubleSide, flatShading: true,
          transparent: part.flat, opacity: part.flat ? 0.35 : 1, depthWrite: !part.flat })
        : new THREE.MeshPhongMaterial({ vertexColors: THREE.VertexColors, side: THREE.DoubleSide, flatShading: true });
      group.add(new THREE.Mesh(geometry, material));
    }
    const lines = decode(part.lines, Uint32Array);
    if (lines.length) {
      const lineGeometry = new THREE.BufferGeometry();
      lineGeometry.setAttribute("position", geometry.getAttribute("position"));
      if (!obstacle) lineGeometry.setAttribute("color", geometry.getAttribute("color"));
      lineGeometry.setIndex(new THREE.BufferAttribute(lines, 1));
      const material = new THREE.LineBasicMaterial(obstacle ? { color: 0x808080 } : { vertexColors: THREE.VertexColors });
      group.add(new THREE.LineSegments(lineGeometry, material));
    }
    scene.add(group);
    return { body: part, frames, geometry, obstacle, surface: triangles.length > 0 };
  }
  const meshes = run.bodies.map((body) => addMesh(body, false));
  const obstacles = run.obstacles.map((obstacle) => addMesh(obstacle, true));

  // Field ranges over the whole run, so colours mean the same in every frame (bodies only).
  const range = (field) => {
    let lo = Infinity, hi = -Infinity;
    for (const m of meshes) for (const f of m.frames) for (const v of f[field]) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    return hi > lo ? [lo, hi] : [lo, lo + 1];
  };
  const ranges = { speed: range("speed"), energy_density: range("energy_density") };

  const fieldSelect = document.getElementById("field");
  const slider = document.getElementById("time");
  const label = document.getElementById("time-label");
  const legend = document.getElementById("legend");
  slider.max = String(Math.max(run.times.length - 1, 0));
  const state = { frame: 0, playing: false };

  function colour(mesh, frame, field) {
    const colours = mesh.geometry.getAttribute("color");
    const c = new THREE.Color(0.55, 0.6, 0.7);
    for (let i = 0; i < mesh.body.vertices; i++) {
      const k = field === "none" ? c : lut.getColor(frame[field][i]);
      colours.setXYZ(i, k.r, k.g, k.b);
    }
    colours.needsUpdate = true;
  }

  function setFrame(index) {
    const i = Math.max(0, Math.min(run.times.length - 1, index | 0));
    state.frame = i;
    slider.value = String(i);
    const field = fieldSelect.value;
    if (field !== "none") {
      lut.setMin(ranges[field][0]);
      lut.setMax(ranges[field][1]);
      legend.textContent = `${ranges[field][0].toPrecision(3)} … ${ranges[field][1].toPrecision(3)}`;
    } else {
      legend.textContent = "";
    }
    for (const m of meshes.concat(obstacles)) {
      const frame = m.frames[i];
      m.geometry.getAttribute("position").array.set(frame.positions);
      m.geometry.getAttribute("position").needsUpdate = true;
      if (m.surface) m.geometry.computeVertexNormals();
      m.geometry.computeBoundingSphere();
      if (!m.obstacle) colour(m, frame, field);
    }
    label.textContent = `t = ${run.times[i].toPrecision(4)} s (frame ${i + 1}/${run.times.length})`;
    highlightTime(run.times[i]);
    requestRender();
  }

  // Frames the bodies only: a plane obstacle's square, a few times the scene, would zoom out.
  function frameCamera() {
    const box = new THREE.Box3();
    for (const m of meshes) { m.geometry.computeBoundingBox(); box.union(m.geometry.boundingBox); }
    const centre = box.getCenter(new THREE.Vector3());
    const size = box.getSize(new THREE.Vector3()).length() || 1;
    camera.position.copy(centre).add(new THREE.Vector3(0.6, 0.5, 1.0).multiplyScalar(size * 1.2));
    camera.near = size * 1e-3;
    camera.far = size * 100;
    camera.updateProjectionMatrix();
    controls.target.copy(centre);
    sun.position.copy(centre).add(new THREE.Vector3(1, 2, 1.5).multiplyScalar(size));
    controls.update();
  }

  function resize() {
    const w = container.clientWidth, h = container.clientHeight;
    renderer.setSize(w, h);
    camera.aspect = w / Math.max(h, 1);
    camera.updateProjectionMatrix();
    requestRender();
  }

  const play = document.getElementById("play");
  play.addEventListener("click", () => {
    state.playing = !state.playing;
    play.textContent = state.playing ? "Pause" : "Play";
    if (state.playing && state.frame >= run.times.length - 1) setFrame(0);
    requestRender();
  });
  slider.addEventListener("input", () => setFrame(Number(slider.value)));
  fieldSelect.addEventListener("change", () => setFrame(state.frame));
  document.addEventListener("keydown", (e) => { if (e.code === "Space" && e.target === document.body) { e.preventDefault(); play.click(); } });
  window.addEventListener("resize", resize);

  // Drawn on demand (a frame, a camera move, a resize), not in a loop: an idle page costs nothing.
  let pending = false, lastPlayed = 0;
  function requestRender() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(draw);
  }
  function draw(now) {
    pending = false;
    if (state.playing && now - lastPlayed > 1000 / 30) {
      lastPlayed = now;
      if (state.frame < run.times.length - 1) setFrame(state.frame + 1);
      else play.click();
    }
    renderer.render(scene, camera);
    if (state.playing) requestRender();
  }
  controls.addEventListener("change", requestRender);

  // Plots of stats.csv -------------------------------------------------------------------------------
  const plots = [];
  function highlightTime(t) {
    for (const g of plots) {
      const rows = g.numRows();
      for (let r = 0; r < rows; r++) if (g.getValue(r, 0) >= t - 1e-12) { g.setSelection(r); break; }
    }
  }
  function columns(csv) {
    const lines = csv.trim().split("\n");
    const header = lines[0].split(",");
    const data = lines.slice(1).map((l) => l.split(",").map((v) => (v === "" ? null : Number(v))));
    return { header, data };
  }
  function plot(id, stats, names, title, ylabel, logscale) {
    const idx = names.map((n) => stats.header.indexOf(n)).filter((i) => i >= 0);
    if (!idx.length) return;
    const t = stats.header.indexOf("t");
    const rows = stats.data.map((r) => [r[t], ...idx.map((i) => r[i])]);
    plots.push(new Dygraph(document.getElementById(id), rows, {
      labels: ["t", ...idx.map((i) => stats.header[i])], title, ylabel, xlabel: "t (s)", logscale: !!logscale,
      legend: "always", labelsSeparateLines: false, highlightCircleSize: 3, connectSeparatedPoints: false,
      axes: { y: { axisLabelWidth: 64 } },
    }));
  }
  if (run.stats) {
    const stats = columns(run.stats);
    plot("plot-energy", stats, ["kinetic", "potential", "total_energy"], "Energy", "energy (J)");
    plot("plot-newton", stats, ["newton_iters"], "Newton iterations per step", "iterations");
    const d = stats.header.indexOf("min_distance");
    if (d >= 0 && stats.data.some((r) => r[d] !== null)) plot("plot-distance", stats, ["min_distance"], "Minimum distance", "distance (m)", true);
  }

  resize();
  setFrame(0);
  frameCamera();
  requestRender();
  window.softsimViewer = { get frame() { return state.frame; }, setFrame, frames: run.times.length, obstacles: obstacles.length,
    plots: plots.length, ready: true };
})();
