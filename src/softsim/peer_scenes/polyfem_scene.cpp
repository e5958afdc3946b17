#include "softsim/peer_scenes/polyfem_scene.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>
#include <set>

#include "softsim/core/errors.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/refine.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/peer_scenes/expression.hpp"
#include "softsim/peer_scenes/prescribed_motion.hpp"
#include "softsim/peer_scenes/rigid_transform.hpp"
#include "softsim/scene/json_reader.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

using nlohmann::json;

namespace {

// ---- reading: includes, list-or-object keys, the key audit ----

// PolyFEM's `common`: the included file is the base, this file a JSON merge patch on it
// (RFC 7386: objects merge, arrays and values replace); includes nest.
json with_common(json scene, const std::filesystem::path& file, int depth) {
  if (!scene.is_object() || !scene.contains("common")) return scene;
  if (scene["common"] == "") {
    scene.erase("common");
    return scene;
  }
  if (depth > 16) throw InputError(file.string() + ": common: includes nested more than 16 deep (a cycle?)");
  if (!scene["common"].is_string()) throw InputError(file.string() + ": common: expected a file name");
  const std::filesystem::path included = file.parent_path() / scene["common"].get<std::string>();
  if (!std::filesystem::exists(included))
    throw InputError(fmt::format("{}: common: {}: no such file", file.string(), included.string()));
  json base = with_common(read_scene_json(included), included, depth + 1);
  scene.erase("common");
  base.merge_patch(scene);
  return base;
}

void wrap_in_array(json& parent, const char* key) {
  auto it = parent.find(key);
  if (it != parent.end() && it->is_object()) *it = json::array({*it});
}

// Every key path PolyFEM scenes may use that the conversion reads ([] = any array element).
const std::set<std::string>& read_keys() {
  static const std::set<std::string> keys = {
      "geometry", "geometry[].mesh", "geometry[].type", "geometry[].array", "geometry[].array.offset",
      "geometry[].array.size", "geometry[].array.relative", "geometry[].transformation",
      "geometry[].transformation.translation", "geometry[].transformation.rotation",
      "geometry[].transformation.rotation_mode", "geometry[].transformation.scale",
      "geometry[].transformation.dimensions", "geometry[].volume_selection", "geometry[].surface_selection",
      "geometry[].surface_selection[].id", "geometry[].surface_selection[].axis",
      "geometry[].surface_selection[].position", "geometry[].surface_selection[].relative",
      "geometry[].surface_selection[].box", "geometry[].is_obstacle", "geometry[].enabled", "geometry[].n_refs",
      "geometry[].advanced", "geometry[].advanced.normalize_mesh", "materials", "materials[].id", "materials[].type",
      "materials[].E", "materials[].nu", "materials[].rho", "time", "time.tend", "time.dt", "time.time_steps",
      "time.t0", "time.integrator", "time.integrator.type", "time.integrator.steps", "time.integrator.gamma",
      "time.integrator.beta", "time.quasistatic", "contact", "contact.enabled", "contact.dhat", "contact.epsv",
      "contact.friction_coefficient", "boundary_conditions", "boundary_conditions.rhs",
      "boundary_conditions.dirichlet_boundary", "boundary_conditions.dirichlet_boundary[].id",
      "boundary_conditions.dirichlet_boundary[].value", "boundary_conditions.obstacle_displacements",
      "boundary_conditions.obstacle_displacements[].id", "boundary_conditions.obstacle_displacements[].value",
      "initial_conditions", "initial_conditions.velocity", "initial_conditions.velocity[].id",
      "initial_conditions.velocity[].value", "solver", "solver.advanced", "solver.advanced.lump_mass_matrix",
      "solver.contact", "solver.contact.friction_iterations", "solver.contact.barrier_stiffness"};
  return keys;
}

// Keys with no effect on the motion softsim computes: noted, not refused.
const std::map<std::string, std::string>& ignored_keys() {
  static const std::map<std::string, std::string> keys = {
      {"output", "output: softsim writes its own frames (every step) and stats; PolyFEM's output options are ignored"},
      {"tests", "tests: PolyFEM's regression norms are ignored"},
      {"root_path", "root_path: paths are resolved against the scene file's folder"},
      {"solver.linear", "solver.linear: softsim chooses its own linear solver (solver.linear_solver: auto)"},
      {"solver.nonlinear",
       "solver.nonlinear: softsim's projected Newton with its own stopping rule (solver.tolerance) replaces PolyFEM's "
       "Newton settings, but for its iteration cap (max_iterations, default 500)"},
      {"solver.contact.friction_convergence_tol",
       "solver.contact.friction_convergence_tol: softsim makes a fixed number of lagged friction passes"},
      {"solver.contact.CCD", "solver.contact.CCD: softsim's additive CCD has its own settings"},
      {"solver.max_threads", "solver.max_threads: use softsim run --threads"}};
  return keys;
}

void audit(const json& node, const std::string& path, std::vector<std::string>& unsupported,
           std::set<std::string>& ignored) {
  if (node.is_array()) {
    for (const json& element : node) audit(element, path + "[]", unsupported, ignored);
    return;
  }
  if (!node.is_object()) return;
  for (const auto& [key, value] : node.items()) {
    const std::string p = path.empty() ? key : path + "." + key;
    if (ignored_keys().count(p)) {
      ignored.insert(p);
      continue;
    }
    if (!read_keys().count(p)) {
      unsupported.push_back(p);
      continue;
    }
    audit(value, p, unsupported, ignored);
  }
}

// ---- typed access with messages naming the key ----

struct Where {
  std::string file;
  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    throw InputError(fmt::format("{}: {}: {}", file, key, message));
  }
  double number(const json& j, const std::string& key) const {
    if (!j.is_number()) fail(key, "expected a number, got " + describe_json(j));
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(key, "expected a finite number");
    return v;
  }
  Vec3 vec3(const json& j, const std::string& key, double fill) const {
    Vec3 v = Vec3::Constant(fill);
    if (j.is_number()) return Vec3::Constant(number(j, key));
    if (!j.is_array() || j.size() > 3) fail(key, "expected up to 3 numbers, got " + describe_json(j));
    for (std::size_t i = 0; i < j.size(); ++i) v[static_cast<int>(i)] = number(j[i], fmt::format("{}[{}]", key, i));
    return v;
  }
  // A value component: a number or an expression string of x, y, z, t.
  Expression expression(const json& j, const std::string& key) const {
    if (j.is_number()) return Expression::parse(fmt::format("{:.17g}", number(j, key)), file + ": " + key);
    if (j.is_string()) return Expression::parse(j.get<std::string>(), file + ": " + key);
    fail(key, "expected a number or an expression, got " + describe_json(j));
  }
  std::vector<int> ids(const json& j, const std::string& key) const {  // an int or a list; "all" = {-1}
    if (j.is_string() && j.get<std::string>() == "all") return {-1};
    if (j.is_number_integer()) return {j.get<int>()};
    if (j.is_array()) {
      std::vector<int> out;
      for (std::size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_number_integer()) fail(fmt::format("{}[{}]", key, i), "expected an integer id");
        out.push_back(j[i].get<int>());
      }
      return out;
    }
    fail(key, "expected an integer id, a list of them or \"all\", got " + describe_json(j));
  }
};

bool has_id(const std::vector<int>& ids, int id) {
  for (int i : ids)
    if (i == -1 || i == id) return true;
  return false;
}

// ---- geometry ----

struct Geometry {
  std::string key;          // geometry[i]
  std::string mesh_text;    // as written (relative to the scene's folder)
  Mesh mesh;                // as read
  Placement placement;      // softsim transform of the mesh
  std::vector<Vec3> placed;  // its vertices placed (the first copy)
  std::vector<Vec3> offsets{Vec3::Zero()};  // mesh_array copies
  bool obstacle = false;
  int volume_id = 0;
  int refine = 0;           // n_refs: uniform refinements (a deformable body's `refine`)
  json surface_selection;   // int, array of selection objects, or null
};

// x' = R S x + t with PolyFEM's rules: normalize first (min to 0, largest extent 1), `dimensions`
// (absolute box size) over `scale`, rotation angles indexed by axis letter, applied in the order
// of `rotation_mode`.
Placement polyfem_placement(const Where& w, const json& g, const std::string& key, const Mesh& mesh) {
  Vec3 lo = mesh.vertices.colwise().minCoeff().transpose(), hi = mesh.vertices.colwise().maxCoeff().transpose();
  double pre_scale = 1.0;
  Vec3 pre_shift = Vec3::Zero();
  if (g.contains("advanced") && g["advanced"].value("normalize_mesh", false)) {
    const double extent = (hi - lo).maxCoeff();
    pre_scale = extent > 0 ? 1.0 / extent : 1.0;
    pre_shift = -lo * pre_scale;
  }
  Vec3 scale = Vec3::Ones();
  Mat3 R = Mat3::Identity();
  Vec3 t = Vec3::Zero();
  if (g.contains("transformation")) {
    const json& tr = g["transformation"];
    const std::string tk = key + ".transformation";
    if (tr.contains("translation")) t = w.vec3(tr["translation"], tk + ".translation", 0.0);
    if (tr.contains("scale")) scale = w.vec3(tr["scale"], tk + ".scale", 1.0);
    if (tr.contains("dimensions")) {
      const Vec3 dims = w.vec3(tr["dimensions"], tk + ".dimensions", 1.0);
      const Vec3 extent = (hi - lo) * pre_scale;
      for (int a = 0; a < 3; ++a) scale[a] = extent[a] > 0 ? dims[a] / extent[a] : 1.0;
    }
    for (int a = 0; a < 3; ++a)
      if (!(scale[a] > 0)) w.fail(tk, "scales must be positive (a mirror or a collapse is not a placement)");
    if (tr.contains("rotation")) {
      const Vec3 angles = w.vec3(tr["rotation"], tk + ".rotation", 0.0);
      const std::string mode = tr.value("rotation_mode", std::string("xyz"));
      if (mode.empty() || mode.size() > 3 || mode.find_first_not_of("xyz") != std::string::npos)
        w.fail(tk + ".rotation_mode", "\"" + mode + "\": softsim reads Euler orders of x, y and z (e.g. \"xyz\", \"zyx\")");
      for (char c : mode) R = axis_rotation(c - 'x', angles[c - 'x']) * R;
    }
  }
  Placement p;
  p.rotation = R;
  p.scale = scale * pre_scale;
  p.translation = t + R * scale.cwiseProduct(pre_shift);
  return p;
}

Geometry read_geometry(const Where& w, const json& g, std::size_t i, const std::filesystem::path& folder) {
  Geometry geo;
  geo.key = fmt::format("geometry[{}]", i);
  if (!g.is_object()) w.fail(geo.key, "expected an object");
  const std::string type = g.value("type", std::string("mesh"));
  if (type != "mesh" && type != "mesh_array")
    w.fail(geo.key + ".type", "\"" + type + "\": softsim converts \"mesh\" and \"mesh_array\" geometries");
  if (!g.contains("mesh") || !g["mesh"].is_string()) w.fail(geo.key + ".mesh", "missing (a mesh file name)");
  geo.mesh_text = g["mesh"].get<std::string>();
  geo.obstacle = g.value("is_obstacle", false);
  if (g.contains("n_refs")) {
    const json& n = g["n_refs"];
    if (!n.is_number_integer() || n.get<long long>() < 0 || n.get<long long>() > 4)
      w.fail(geo.key + ".n_refs", "expected an integer in [0, 4] (uniform refinements: 8^n tets per tet)");
    geo.refine = n.get<int>();
  }
  try {
    geo.mesh = read_mesh(folder / geo.mesh_text, 3);
  } catch (const InputError& e) {
    w.fail(geo.key + ".mesh", e.what());
  }
  // A refined obstacle has the same surface: only deformable bodies are refined (`refine`, the same
  // function at build time, so the selections below number the refined vertices).
  if (geo.obstacle) geo.refine = 0;
  if (geo.refine > 0 && geo.mesh.cell_type() == CellType::Tetrahedron) geo.mesh = refine_uniformly(geo.mesh, geo.refine);
  const CellType cells = geo.mesh.cell_type();
  if (!geo.obstacle && cells != CellType::Tetrahedron)
    w.fail(geo.key + ".mesh", fmt::format("{} has {} cells; a deformable PolyFEM body converts from tetrahedra (3D)",
                                          geo.mesh_text, to_string(cells)));
  if (geo.obstacle && cells != CellType::Tetrahedron && cells != CellType::Triangle)
    w.fail(geo.key + ".mesh", fmt::format("{} has {} cells; an obstacle converts from triangles or tetrahedra",
                                          geo.mesh_text, to_string(cells)));
  geo.placement = polyfem_placement(w, g, geo.key, geo.mesh);
  geo.placed = geo.placement.apply_to(geo.mesh.vertices);
  if (type == "mesh_array") {
    if (!g.contains("array")) w.fail(geo.key + ".array", "missing (a mesh_array needs offset and size)");
    const json& a = g["array"];
    const double offset = w.number(a.value("offset", json(1.0)), geo.key + ".array.offset");
    const Vec3 count = w.vec3(a.value("size", json::array({1, 1, 1})), geo.key + ".array.size", 1.0);
    Vec3 step = Vec3::Constant(offset);
    if (a.value("relative", false)) {
      Vec3 lo = Vec3::Constant(HUGE_VAL), hi = Vec3::Constant(-HUGE_VAL);
      for (const Vec3& x : geo.placed) lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
      step = step.cwiseProduct(hi - lo);
    }
    geo.offsets.clear();
    for (int ix = 0; ix < count.x(); ++ix)
      for (int iy = 0; iy < count.y(); ++iy)
        for (int iz = 0; iz < count.z(); ++iz) geo.offsets.push_back(step.cwiseProduct(Vec3(ix, iy, iz)));
  }
  if (g.contains("volume_selection")) {
    if (!g["volume_selection"].is_number_integer())
      w.fail(geo.key + ".volume_selection", "softsim converts one integer body id per geometry");
    geo.volume_id = g["volume_selection"].get<int>();
  }
  if (g.contains("surface_selection")) {
    geo.surface_selection = g["surface_selection"];
    if (geo.surface_selection.is_object()) geo.surface_selection = json::array({geo.surface_selection});
    if (!geo.surface_selection.is_number_integer() && !geo.surface_selection.is_array())
      w.fail(geo.key + ".surface_selection", "expected an integer id or selection objects");
    if (geo.obstacle && !geo.surface_selection.is_number_integer())
      w.fail(geo.key + ".surface_selection", "an obstacle's selection is one integer id");
  }
  return geo;
}

// The world position of vertex v of a copy.
Vec3 world(const Geometry& geo, int v, const Vec3& offset) { return geo.placed[v] + offset; }

// The boundary id of each boundary face (first matching selection, tested at the face's
// barycentre; -2: none). PolyFEM selects on the placed mesh before copying it, so every copy of a
// mesh_array has the ids of the first.
std::vector<int> face_ids(const Where& w, const Geometry& geo, const Eigen::MatrixXi& faces) {
  std::vector<int> ids(faces.rows(), -2);
  if (geo.surface_selection.is_null()) return ids;
  if (geo.surface_selection.is_number_integer()) {
    std::fill(ids.begin(), ids.end(), geo.surface_selection.get<int>());
    return ids;
  }
  Vec3 lo = Vec3::Constant(HUGE_VAL), hi = Vec3::Constant(-HUGE_VAL);
  for (const Vec3& x : geo.placed) lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
  // Selections on a face's exact coordinate (x = 0.5) meet the barycentre's rounding.
  const double eps = 1e-8 * std::max((hi - lo).norm(), 1e-12);
  for (std::size_t s = geo.surface_selection.size(); s-- > 0;) {  // first match wins: apply in reverse
    const json& sel = geo.surface_selection[s];
    const std::string key = fmt::format("{}.surface_selection[{}]", geo.key, s);
    if (!sel.is_object() || !sel.contains("id") || !sel["id"].is_number_integer())
      w.fail(key, "expected an object with an integer \"id\" and \"box\" or \"axis\"/\"position\"");
    const int id = sel["id"].get<int>();
    const bool relative = sel.value("relative", false);
    const auto to_world = [&](int a, double c) { return relative ? lo[a] + c * (hi[a] - lo[a]) : c; };
    std::function<bool(const Vec3&)> inside;
    if (sel.contains("box")) {
      const json& b = sel["box"];
      if (!b.is_array() || b.size() != 2) w.fail(key + ".box", "expected [[min], [max]]");
      Vec3 bmin = w.vec3(b[0], key + ".box[0]", 0.0), bmax = w.vec3(b[1], key + ".box[1]", 0.0);
      for (int a = 0; a < 3; ++a) {
        bmin[a] = to_world(a, bmin[a]) - eps;
        bmax[a] = to_world(a, bmax[a]) + eps;
      }
      inside = [bmin, bmax](const Vec3& p) { return (p.array() >= bmin.array()).all() && (p.array() <= bmax.array()).all(); };
    } else if (sel.contains("axis") && sel.contains("position")) {
      int axis = 0, sign = 1;
      const json& a = sel["axis"];
      if (a.is_number_integer() && std::abs(a.get<int>()) >= 1 && std::abs(a.get<int>()) <= 3) {
        axis = std::abs(a.get<int>()) - 1;
        sign = a.get<int>() < 0 ? -1 : 1;
      } else if (a.is_string() && !a.get<std::string>().empty()) {
        std::string s = a.get<std::string>();
        if (s[0] == '-' || s[0] == '+') {
          sign = s[0] == '-' ? -1 : 1;
          s = s.substr(1);
        }
        if (s.size() != 1 || s[0] < 'x' || s[0] > 'z') w.fail(key + ".axis", "expected x, y, z, -x, ... or +-1..3");
        axis = s[0] - 'x';
      } else {
        w.fail(key + ".axis", "expected x, y, z, -x, ... or +-1..3");
      }
      const double position = to_world(axis, w.number(sel["position"], key + ".position"));
      inside = [axis, sign, position, eps](const Vec3& p) {
        return sign > 0 ? p[axis] >= position - eps : p[axis] <= position + eps;
      };
    } else {
      w.fail(key, "softsim converts box and axis/position selections");
    }
    for (Eigen::Index f = 0; f < faces.rows(); ++f) {
      const Vec3 c = (geo.placed[faces(f, 0)] + geo.placed[faces(f, 1)] + geo.placed[faces(f, 2)]) / 3.0;
      if (inside(c)) ids[f] = id;
    }
  }
  return ids;
}

const std::map<std::string, std::string>& material_names() {
  static const std::map<std::string, std::string> names = {{"NeoHookean", "neo_hookean"},
                                                           {"LinearElasticity", "linear"},
                                                           {"HookeLinearElasticity", "linear"},
                                                           {"SaintVenant", "stvk"},
                                                           {"FixedCorotational", "fixed_corotated"}};
  return names;
}

json polyfem_material(const Where& w, const json& m, const std::string& key, bool lumped) {
  const std::string type = m.value("type", std::string("LinearElasticity"));
  const auto it = material_names().find(type);
  if (it == material_names().end()) {
    std::vector<std::string> known;
    for (const auto& [name, ours] : material_names()) known.push_back(name);
    w.fail(key + ".type", fmt::format("\"{}\" has no softsim counterpart (converted: {})", type, fmt::join(known, ", ")));
  }
  if (!m.contains("E") || !m.contains("nu")) w.fail(key, "softsim converts materials given by E and nu");
  json out = {{"model", it->second},
              {"E", w.number(m["E"], key + ".E")},
              {"nu", w.number(m["nu"], key + ".nu")},
              {"density", m.contains("rho") ? w.number(m["rho"], key + ".rho") : 1.0},  // PolyFEM's default rho is 1
              {"mass", lumped ? "lumped" : "consistent"}};
  return out;
}

}  // namespace

bool is_polyfem_scene(const json& json) {
  if (!json.is_object() || json.contains("bodies") || json.contains("mpm") || json.contains("pbf")) return false;
  return json.contains("geometry") || json.contains("common") || json.contains("meshes") ||
         json.contains("materials") || json.contains("boundary_conditions") ||
         (json.contains("solver") && json["solver"].is_object() && json["solver"].contains("nonlinear"));
}

static json convert_polyfem(const json& raw, const std::filesystem::path& file, std::vector<std::string>& notes);

json polyfem_scene_to_softsim(const json& raw, const std::filesystem::path& file, std::vector<std::string>& notes) {
  // Keys read with a typed check name themselves; a value of an unexpected JSON type anywhere
  // else still becomes one message naming the file, never a crash.
  try {
    return convert_polyfem(raw, file, notes);
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    if (const auto close = what.find("] "); close != std::string::npos) what = what.substr(close + 2);
    throw InputError(fmt::format("{}: a PolyFEM key has a value of the wrong type: {}", file.string(), what));
  }
}

static json convert_polyfem(const json& raw, const std::filesystem::path& file, std::vector<std::string>& notes) {
  const Where w{file.string()};
  json s = with_common(raw, file, 0);
  for (const char* legacy : {"meshes", "mesh", "obstacles", "body_params", "problem_params", "tend", "has_collision"})
    if (s.contains(legacy))
      w.fail(legacy, "this is PolyFEM's pre-2022 format; convert it to the current one with PolyFEM's "
                     "tools/json_converter.py first");
  // A single material object applies to every element, whatever its id.
  const bool one_material = s.contains("materials") && s["materials"].is_object();
  wrap_in_array(s, "geometry");
  wrap_in_array(s, "materials");
  if (s.contains("boundary_conditions") && s["boundary_conditions"].is_object()) {
    wrap_in_array(s["boundary_conditions"], "dirichlet_boundary");
    wrap_in_array(s["boundary_conditions"], "obstacle_displacements");
  }
  if (s.contains("initial_conditions") && s["initial_conditions"].is_object())
    wrap_in_array(s["initial_conditions"], "velocity");
  if (s.contains("geometry") && s["geometry"].is_array())
    for (json& g : s["geometry"])
      if (g.is_object()) wrap_in_array(g, "surface_selection");
  std::vector<std::string> unsupported;
  std::set<std::string> ignored;
  audit(s, "", unsupported, ignored);
  if (!unsupported.empty())
    throw InputError(fmt::format("{}: PolyFEM keys softsim does not convert: {} (docs/peer-scenes.md lists what it does)",
                                 file.string(), fmt::join(unsupported, ", ")));
  for (const std::string& key : ignored) notes.push_back(ignored_keys().at(key));
  if (!s.contains("geometry") || !s["geometry"].is_array() || s["geometry"].empty())
    w.fail("geometry", "missing (a PolyFEM scene names its meshes in geometry; an include-only file cannot run)");
  if (!s.contains("time") || !s["time"].is_object())
    w.fail("time", "missing: a scene without time is a static PolyFEM problem, which the conversion does not take");

  json out = json::object();
  out["description"] = fmt::format("converted from the PolyFEM scene {}", file.filename().string());
  // time
  const json& time = s["time"];
  const bool has_end = time.contains("tend"), has_dt = time.contains("dt"), has_steps = time.contains("time_steps");
  if (has_end + has_dt + has_steps < 2) w.fail("time", "give two of tend, dt and time_steps");
  if (time.contains("t0") && w.number(time["t0"], "time.t0") != 0.0) w.fail("time.t0", "softsim runs start at t = 0");
  double dt = 0.0;
  int steps = 0;
  if (has_dt) dt = w.number(time["dt"], "time.dt");
  if (has_steps) {
    if (!time["time_steps"].is_number_integer() || time["time_steps"].get<int>() < 1)
      w.fail("time.time_steps", "expected a positive integer");
    steps = time["time_steps"].get<int>();
    if (!has_dt) dt = w.number(time["tend"], "time.tend") / steps;
  } else {
    steps = static_cast<int>(std::ceil(w.number(time["tend"], "time.tend") / dt - 1e-9));
  }
  if (!(dt > 0)) w.fail("time.dt", "must be positive");
  if (has_end && has_dt && has_steps && std::abs(steps * dt - w.number(time["tend"], "time.tend")) > 1e-12)
    w.fail("time", "tend, dt and time_steps disagree (tend must be dt x time_steps)");
  out["time"] = {{"dt", dt}, {"steps", steps}};
  // integrator
  json integrator = {{"type", "backward_euler"}};
  if (time.contains("integrator")) {
    const json& in = time["integrator"];
    std::string type = in.is_string() ? in.get<std::string>() : in.value("type", std::string("ImplicitEuler"));
    int bdf_steps = in.is_object() ? in.value("steps", 1) : 1;
    if (type.rfind("BDF", 0) == 0 && type.size() == 4) bdf_steps = type[3] - '0', type = "BDF";
    if (type == "ImplicitEuler" || (type == "BDF" && bdf_steps == 1)) {
    } else if (type == "BDF" && bdf_steps == 2) {
      integrator["type"] = "bdf2";
    } else if (type == "ImplicitNewmark") {
      integrator = {{"type", "newmark"}, {"beta", in.is_object() ? in.value("beta", 0.25) : 0.25},
                    {"gamma", in.is_object() ? in.value("gamma", 0.5) : 0.5}};
    } else {
      w.fail("time.integrator", fmt::format("\"{}\" (steps {}) has no softsim counterpart (converted: ImplicitEuler, "
                                            "BDF1, BDF2, ImplicitNewmark)", type, bdf_steps));
    }
  }
  if (time.contains("quasistatic") && time["quasistatic"] == true) integrator = {{"type", "static"}};
  out["integrator"] = integrator;
  // gravity: PolyFEM's rhs is minus the body acceleration; none when absent.
  Vec3 gravity = Vec3::Zero();
  const json bc = s.value("boundary_conditions", json::object());
  if (bc.contains("rhs")) {
    const json& rhs = bc["rhs"];
    if (!rhs.is_array() || rhs.size() > 3) w.fail("boundary_conditions.rhs", "expected up to 3 numbers");
    for (std::size_t a = 0; a < rhs.size(); ++a) {
      const std::string key = fmt::format("boundary_conditions.rhs[{}]", a);
      const Expression e = w.expression(rhs[a], key);
      if (e.uses('t') || e.uses('x') || e.uses('y') || e.uses('z'))
        w.fail(key, "softsim takes a constant body force (gravity), not \"" + e.text() + "\"");
      gravity[static_cast<int>(a)] = -e(0.0);
    }
  }
  out["gravity"] = {gravity.x(), gravity.y(), gravity.z()};
  // contact
  const json contact = s.value("contact", json::object());
  const bool contact_on = contact.value("enabled", false);
  json c = {{"enabled", contact_on}, {"dhat", contact.contains("dhat") ? w.number(contact["dhat"], "contact.dhat") : 1e-3}};
  const double mu = contact.contains("friction_coefficient")
                        ? w.number(contact["friction_coefficient"], "contact.friction_coefficient")
                        : 0.0;
  const json solver = s.value("solver", json::object());
  const json solver_contact = solver.value("contact", json::object());
  if (solver_contact.contains("barrier_stiffness")) {
    const json& k = solver_contact["barrier_stiffness"];
    if (!(k.is_string() && k.get<std::string>() == "adaptive"))
      w.fail("solver.contact.barrier_stiffness",
             "a fixed barrier stiffness is not converted (PolyFEM's scales the unscaled barrier, softsim's the "
             "h^2-scaled potential); \"adaptive\" is softsim's automatic stiffness");
  }
  int friction_passes = -2;  // not given
  if (solver_contact.contains("friction_iterations")) {
    if (!solver_contact["friction_iterations"].is_number_integer())
      w.fail("solver.contact.friction_iterations", "expected an integer");
    friction_passes = solver_contact["friction_iterations"].get<int>();
    if (friction_passes == 0 && mu > 0)
      notes.push_back("solver.contact.friction_iterations: 0 turns friction off, as in PolyFEM");
  }
  if (contact_on && mu > 0 && friction_passes != 0) {
    int iterations = 1;
    if (friction_passes != -2) {
      const int n = friction_passes;
      if (n < 0) {
        iterations = 10;
        notes.push_back("solver.contact.friction_iterations: -1 (lag until converged) becomes 10 lagged passes per "
                        "step (softsim's contact.friction.iterations)");
      } else {
        iterations = std::clamp(n, 1, 100);
      }
    }
    c["friction"] = {{"mu", mu},
                     {"eps_v", contact.contains("epsv") ? w.number(contact["epsv"], "contact.epsv") : 1e-3},
                     {"iterations", iterations}};
  }
  const bool lumped = solver.value("advanced", json::object()).value("lump_mass_matrix", false);
  // PolyFEM's Newton gives up after max_iterations (polysolve's default 500); softsim's then halves
  // the step. Its default cap (100) would halve impact steps that PolyFEM's Newton finishes.
  int max_iterations = 500;
  if (solver.contains("nonlinear") && solver["nonlinear"].is_object() && solver["nonlinear"].contains("max_iterations")) {
    const json& m = solver["nonlinear"]["max_iterations"];
    if (!m.is_number_integer() || m.get<long long>() < 1 || m.get<long long>() > 100000)
      w.fail("solver.nonlinear.max_iterations", "expected an integer in [1, 100000], got " + describe_json(m));
    max_iterations = m.get<int>();
  }

  // materials by body id (a single object applies to every body)
  std::vector<json> materials;
  if (s.contains("materials")) materials = s["materials"].get<std::vector<json>>();
  const auto material_of = [&](int id, const std::string& key) {
    for (std::size_t m = 0; m < materials.size(); ++m) {
      const std::string mk = fmt::format("materials[{}]", m);
      if (one_material || has_id(w.ids(materials[m].value("id", json(0)), mk + ".id"), id))
        return polyfem_material(w, materials[m], mk, lumped);
    }
    w.fail(key + ".volume_selection", fmt::format("no material has id {}", id));
  };
  std::vector<json> dirichlet = bc.value("dirichlet_boundary", json::array()).get<std::vector<json>>();
  std::vector<json> obstacle_moves = bc.value("obstacle_displacements", json::array()).get<std::vector<json>>();
  // A Dirichlet entry's displacement field u(X, t).
  const auto field_of = [&](const json& entry, const std::string& key) -> DisplacementField {
    if (!entry.contains("value") || !entry["value"].is_array() || entry["value"].size() != 3)
      w.fail(key + ".value", "expected three components (numbers or expressions of x, y, z, t)");
    std::vector<Expression> e;
    for (int a = 0; a < 3; ++a) e.push_back(w.expression(entry["value"][a], fmt::format("{}.value[{}]", key, a)));
    return [e](const Vec3& x, double t) { return Vec3(e[0](t, x.x(), x.y(), x.z()), e[1](t, x.x(), x.y(), x.z()),
                                                      e[2](t, x.x(), x.y(), x.z())); };
  };
  // initial velocities by body id
  std::vector<json> velocities;
  if (s.contains("initial_conditions")) velocities = s["initial_conditions"].value("velocity", json::array()).get<std::vector<json>>();

  json bodies = json::array(), obstacles = json::array();
  const std::filesystem::path folder = file.parent_path();
  for (std::size_t i = 0; i < s["geometry"].size(); ++i) {
    const json& g = s["geometry"][i];
    if (g.is_object() && !g.value("enabled", true)) continue;
    const Geometry geo = read_geometry(w, g, i, folder);
    // Dirichlet selects the vertices of the faces whose id an entry names (one set for all copies).
    const Surface surface = geo.obstacle ? Surface{} : extract_surface(geo.mesh);
    const std::vector<int> ids = face_ids(w, geo, surface.faces);
    for (const Vec3& offset : geo.offsets) {
      Placement placement = geo.placement;
      placement.translation += offset;
      if (geo.obstacle) {
        json o = {{"type", "mesh"}, {"mesh", geo.mesh_text}, {"transform", placement.to_json()}};
        const int id = geo.surface_selection.is_number_integer() ? geo.surface_selection.get<int>() : -3;
        for (const auto* list : {&dirichlet, &obstacle_moves})
          for (std::size_t d = 0; d < list->size(); ++d) {
            const std::string key = fmt::format("boundary_conditions.{}[{}]",
                                                list == &dirichlet ? "dirichlet_boundary" : "obstacle_displacements", d);
            if (!has_id(w.ids((*list)[d].value("id", json(-3)), key + ".id"), id)) continue;
            std::vector<Vec3> rest;
            for (int v = 0; v < geo.mesh.num_vertices(); ++v) rest.push_back(world(geo, v, offset));
            const json motion = fit_prescribed_motion(field_of((*list)[d], key), rest, dt, steps, key);
            if (motion.empty()) {  // a later entry overrides an earlier one
              o.erase("velocity");
              continue;
            }
            if (motion.contains("angular_velocity") || motion.contains("path"))
              w.fail(key, "a moving mesh obstacle in softsim translates at a constant velocity");
            o["velocity"] = motion["velocity"];
          }
        obstacles.push_back(o);
        continue;
      }
      json body = {{"mesh", geo.mesh_text}, {"transform", placement.to_json()},
                   {"material", material_of(geo.volume_id, geo.key)}};
      if (geo.refine > 0) body["refine"] = geo.refine;
      json fixed = json::array();
      for (std::size_t d = 0; d < dirichlet.size(); ++d) {
        const std::string key = fmt::format("boundary_conditions.dirichlet_boundary[{}]", d);
        const std::vector<int> wanted = w.ids(dirichlet[d].value("id", json(-3)), key + ".id");
        std::set<int> vertices;
        for (Eigen::Index f = 0; f < surface.faces.rows(); ++f)
          if (ids[f] != -2 && has_id(wanted, ids[f]))
            for (int k = 0; k < 3; ++k) vertices.insert(surface.faces(f, k));
        if (vertices.empty()) continue;
        std::vector<Vec3> rest;
        for (int v : vertices) rest.push_back(world(geo, v, offset));
        json entry = {{"ids", std::vector<int>(vertices.begin(), vertices.end())}};
        entry.update(fit_prescribed_motion(field_of(dirichlet[d], key), rest, dt, steps, key));
        fixed.push_back(entry);
      }
      if (!fixed.empty()) body["fixed"] = fixed;
      for (std::size_t v = 0; v < velocities.size(); ++v) {
        const std::string key = fmt::format("initial_conditions.velocity[{}]", v);
        if (!has_id(w.ids(velocities[v].value("id", json(0)), key + ".id"), geo.volume_id)) continue;
        const DisplacementField f = field_of(velocities[v], key);
        const Vec3 v0 = f(Vec3::Zero(), 0.0);
        for (int p = 0; p < geo.mesh.num_vertices(); p += std::max(1, geo.mesh.num_vertices() / 50))
          if ((f(world(geo, p, offset), 0.0) - v0).norm() > 1e-12 * (1 + v0.norm()))
            w.fail(key + ".value", "softsim takes one initial velocity per body, not a field of x, y, z");
        body["initial_velocity"] = {v0.x(), v0.y(), v0.z()};
      }
      bodies.push_back(body);
    }
  }
  if (bodies.empty()) w.fail("geometry", "no deformable body (every geometry is an obstacle or disabled)");
  out["bodies"] = bodies;
  out["solver"] = {{"max_iterations", max_iterations}};
  out["contact"] = c;
  if (!contact_on && !obstacles.empty())
    notes.push_back("contact.enabled is false: PolyFEM's obstacles then do nothing, so they are left out");
  else if (!obstacles.empty())
    out["obstacles"] = obstacles;
  return out;
}

}  // namespace softsim
