#include "softsim/peer_scenes/ipc_scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>

#include <Eigen/Geometry>

#include "softsim/core/errors.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/peer_scenes/prescribed_motion.hpp"
#include "softsim/peer_scenes/rigid_transform.hpp"

namespace softsim {

using nlohmann::json;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kDegree = std::numbers::pi / 180.0;

// ---- lines and words ----

struct Line {
  int number = 0;  // 1-based, of the line where the command starts
  std::vector<std::string> words;
};

// One command per line; `\` continues a line, `#` starts a comment (Li et al. 2020's Config.cpp).
std::vector<Line> read_lines(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(file.string() + ": cannot open the scene file");
  std::vector<Line> lines;
  std::string text;
  int number = 0;
  bool continued = false;
  while (std::getline(in, text)) {
    ++number;
    if (const auto hash = text.find('#'); hash != std::string::npos) {
      const bool continues = text.find('\\', hash) != std::string::npos;
      text = text.substr(0, hash) + (continues ? " \\" : "");
    }
    std::istringstream words(text);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    const bool continues = !w.empty() && w.back() == "\\";
    if (continues) w.pop_back();
    if (continued && !lines.empty()) {
      lines.back().words.insert(lines.back().words.end(), w.begin(), w.end());
    } else if (!w.empty()) {
      lines.push_back({number, w});
    }
    continued = continues;
  }
  return lines;
}

struct Reader {
  std::string file;
  const Line* line = nullptr;
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(fmt::format("{}: line {}: {}: {}", file, line->number, line->words[0], message));
  }
  double number(std::size_t i) const {
    if (i >= line->words.size()) fail(fmt::format("expected a number as word {}", i + 1));
    const std::string& w = line->words[i];
    char* end = nullptr;
    const double v = std::strtod(w.c_str(), &end);
    if (end == w.c_str() || *end != '\0' || !std::isfinite(v)) fail(fmt::format("\"{}\" is not a number", w));
    return v;
  }
  bool is_number(std::size_t i) const {
    if (i >= line->words.size()) return false;
    char* end = nullptr;
    std::strtod(line->words[i].c_str(), &end);
    return end != line->words[i].c_str() && *end == '\0';
  }
  Vec3 vec(std::size_t i) const { return Vec3(number(i), number(i + 1), number(i + 2)); }
};

// ---- the scene as IPC reads it ----

enum class ShapeKind { tets, surface, segments };

struct Dbc {
  Vec3 lo, hi, velocity, omega_degrees;
  double t0 = 0.0, t1 = kInfinity;
  int line = 0;
};
struct Nbc {
  Vec3 lo, hi, acceleration;
  double t0 = 0.0, t1 = kInfinity;
  int line = 0;
};

struct Shape {
  std::string path;  // as the softsim scene names it: relative to the scene's folder
  int line = 0;
  ShapeKind kind = ShapeKind::tets;
  Mesh mesh;
  Placement placement;
  std::optional<Vec3> material;  // rho, E, nu
  std::optional<std::pair<Vec3, Vec3>> initial_velocity;  // v, omega (deg/s)
  std::optional<Vec3> linear_velocity, angular_velocity_degrees;
  std::vector<Dbc> dbc;
  std::vector<Nbc> nbc;
};

struct MeshObstacle {
  std::string path;
  Mesh mesh;
  Placement placement;
  double mu = 0.0;
};

struct Plane {
  Vec3 point, normal;
  double mu = 0.0;
  std::string name;
};

struct IpcScene {
  double end = 5.0, dt = 0.025;
  double density = 1000.0, youngs = 1e5, poisson = 0.4;
  std::string energy = "NH";
  bool newmark = false;
  double beta = 0.25, gamma = 0.5;
  bool gravity = true, self_collision = true;
  double self_friction = 0.0;
  double size = -1.0;
  std::optional<std::pair<Vec3, double>> rotate_model;  // axis, degrees
  std::string script = "null";
  int script_line = 0;
  double damping_ratio = 0.0;  // dampingRatio: IPC's stiffness damping, dampingStiff = ratio 3/4 dt^3
  std::vector<double> tuning{0.0, 1e-3, 1e-3, 1e-9, 1e-3, 1e-3};
  std::vector<double> tol;
  int friction_iterations = 1;
  std::vector<Shape> shapes;
  std::vector<MeshObstacle> mesh_obstacles;
  std::vector<Plane> planes;
};

// IPC's mesh paths are relative to its own root: found from the scene's folder upwards.
std::string find_mesh(const Reader& r, const std::filesystem::path& scene, const std::string& name) {
  const std::filesystem::path p(name);
  if (p.is_absolute()) {
    if (!std::filesystem::exists(p)) r.fail("no such mesh file");
    return name;
  }
  std::filesystem::path relative;
  for (std::filesystem::path folder = std::filesystem::absolute(scene).parent_path();; folder = folder.parent_path()) {
    if (std::filesystem::exists(folder / p)) return (relative / p).lexically_normal().generic_string();
    relative /= "..";
    if (folder == folder.parent_path()) break;
  }
  r.fail("no such mesh file (looked in the scene's folder and each folder above it)");
}

ShapeKind shape_kind(const Reader& r, const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".msh" || ext == ".ele" || ext == ".node" || ext == ".mesh") return ShapeKind::tets;
  if (ext == ".obj") return ShapeKind::surface;
  if (ext == ".seg" || ext == ".pt")
    r.fail(fmt::format("codimensional {} shapes (kinematic {}) are not supported: softsim's edge meshes collide "
                       "only at their vertices",
                       ext, ext == ".seg" ? "segments" : "points"));
  r.fail("unknown mesh type (IPC shapes are .msh, .obj, .seg or .pt)");
}

// IPC's R = Rx Ry Rz of angles in degrees.
Mat3 ipc_rotation(const Vec3& degrees) {
  return axis_rotation(0, degrees.x()) * axis_rotation(1, degrees.y()) * axis_rotation(2, degrees.z());
}

Shape read_shape_line(const Reader& r, const std::filesystem::path& scene) {
  const auto& w = r.line->words;
  Shape s;
  s.line = r.line->number;
  s.path = find_mesh(r, scene, w[0]);
  s.kind = shape_kind(r, w[0]);
  const Vec3 t = r.vec(1), rot = r.vec(4), scale = r.vec(7);
  if ((scale.array() <= 0).any()) r.fail("scales must be positive");
  s.placement.rotation = ipc_rotation(rot);
  s.placement.scale = scale;
  s.placement.translation = t;
  for (std::size_t i = 10; i < w.size();) {
    const std::string& key = w[i];
    if (key == "material") {
      s.material = r.vec(i + 1);
      i += 4;
    } else if (key == "initVel") {
      s.initial_velocity = std::make_pair(r.vec(i + 1), r.vec(i + 4));
      i += 7;
    } else if (key == "linearVelocity") {
      s.linear_velocity = r.vec(i + 1);
      i += 4;
    } else if (key == "angularVelocity") {
      s.angular_velocity_degrees = r.vec(i + 1);
      i += 4;
    } else if (key == "DBC") {
      Dbc d{r.vec(i + 1), r.vec(i + 4), r.vec(i + 7), r.vec(i + 10)};
      d.line = r.line->number;
      i += 13;
      if (r.is_number(i)) d.t0 = r.number(i++);
      if (r.is_number(i)) d.t1 = r.number(i++);
      s.dbc.push_back(d);
    } else if (key == "NBC") {
      Nbc n{r.vec(i + 1), r.vec(i + 4), r.vec(i + 7)};
      n.line = r.line->number;
      i += 10;
      if (r.is_number(i)) n.t0 = r.number(i++);
      if (r.is_number(i)) n.t1 = r.number(i++);
      s.nbc.push_back(n);
    } else {
      r.fail(fmt::format("shape option \"{}\" is not supported (material, initVel, linearVelocity, angularVelocity, "
                         "DBC, NBC are)", key));
    }
  }
  return s;
}

Mesh load(const Reader& r, const std::filesystem::path& scene, const std::string& path) {
  try {
    return read_mesh(scene.parent_path() / path, 3);
  } catch (const InputError& e) {
    r.fail(e.what());
  }
}

const std::map<std::string, std::string>& viewer_commands() {
  static const std::map<std::string, std::string> c = {
      {"view", "viewer only"},
      {"zoom", "viewer only"},
      {"cameraTracking", "viewer only"},
      {"playBackSpeed", "viewer only"},
      {"warmStart", "Newton's initial guess only"},
      {"CCDMethod", "softsim's additive CCD replaces IPC's choice of CCD"},
      {"CCDTolerance", "softsim's additive CCD has its own tolerance"},
      {"selfCollisionOn", "self-contact is on by default"},
      {"constraintSolver", ""}};
  return c;
}

IpcScene read_ipc(const std::filesystem::path& file, std::vector<std::string>& notes) {
  const std::vector<Line> lines = read_lines(file);
  IpcScene s;
  Reader r{file.string()};
  std::set<std::string> ignored;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    r.line = &lines[k];
    const auto& w = lines[k].words;
    const std::string& c = w[0];
    const auto count = [&](std::size_t n) {
      if (w.size() < n + 1) r.fail(fmt::format("expected {} value{}", n, n == 1 ? "" : "s"));
    };
    if (c == "shapes") {
      count(2);
      const double n = r.number(2);
      if (n < 0 || n != std::floor(n)) r.fail("expected a count of shapes");
      const Line* command = r.line;
      for (int i = 0; i < static_cast<int>(n); ++i) {
        if (++k >= lines.size()) {
          r.line = command;
          r.fail(fmt::format("expected {} shape lines, found {}", n, i));
        }
        r.line = &lines[k];
        if (lines[k].words.size() < 10) r.fail("a shape line is: mesh x y z rx ry rz sx sy sz [options]");
        s.shapes.push_back(read_shape_line(r, file));
      }
    } else if (c == "shapeMatrix") {
      count(4);
      const Vec3 n = r.vec(2);
      if (w.size() != 5 && w.size() != 8) r.fail("expected shapeMatrix input nx ny nz [px py pz]");
      const Vec3 origin = w.size() == 8 ? r.vec(5) : Vec3::Zero();  // IPC leaves it unset when absent: 0
      if (++k >= lines.size()) r.fail("expected the shape line after shapeMatrix");
      r.line = &lines[k];
      if (lines[k].words.size() < 10) r.fail("a shape line is: mesh dx dy dz rx ry rz sx sy sz [material rho E nu]");
      const Shape base = read_shape_line(r, file);
      if (!base.dbc.empty() || !base.nbc.empty() || base.initial_velocity || base.linear_velocity ||
          base.angular_velocity_degrees)
        r.fail("a shapeMatrix shape takes only `material` (IPC gives its copies no conditions or velocities)");
      const Vec3 step = base.placement.translation;
      for (int i = 0; i < n.x(); ++i)
        for (int j = 0; j < n.y(); ++j)
          for (int l = 0; l < n.z(); ++l) {
            Shape copy = base;
            copy.placement.translation = origin + step.cwiseProduct(Vec3(i, j, l));
            s.shapes.push_back(copy);
          }
    } else if (c == "time") {
      count(2);
      s.end = r.number(1);
      s.dt = r.number(2);
      if (!(s.dt > 0) || !(s.end > 0)) r.fail("expected T > 0 and dt > 0");
    } else if (c == "density") {
      count(1);
      s.density = r.number(1);
    } else if (c == "stiffness") {
      count(2);
      s.youngs = r.number(1);
      s.poisson = r.number(2);
    } else if (c == "energy") {
      count(1);
      if (w[1] != "NH" && w[1] != "FCR") r.fail(fmt::format("\"{}\": softsim converts NH and FCR", w[1]));
      s.energy = w[1];
    } else if (c == "timeIntegration") {
      count(1);
      if (w[1] == "NM") {
        s.newmark = true;
        if (r.is_number(2)) s.beta = r.number(2);
        if (r.is_number(3)) s.gamma = r.number(3);
      } else if (w[1] != "BE") {
        r.fail(fmt::format("\"{}\": IPC's integrators are BE and NM", w[1]));
      }
    } else if (c == "dampingRatio") {
      count(1);
      s.damping_ratio = std::clamp(r.number(1), 0.0, 1.0);  // IPC clamps it so
    } else if (c == "turnOffGravity") {
      s.gravity = false;
    } else if (c == "selfCollisionOff") {
      s.self_collision = false;
    } else if (c == "selfFric") {
      count(1);
      s.self_friction = std::max(0.0, r.number(1));
    } else if (c == "size") {
      count(1);
      s.size = r.number(1);
    } else if (c == "rotateModel") {
      count(4);
      if (!(r.vec(1).norm() > 0)) r.fail("the axis is zero");
      s.rotate_model = std::make_pair(Vec3(r.vec(1).normalized()), r.number(4));
    } else if (c == "script") {
      count(1);
      s.script = w[1];
      s.script_line = lines[k].number;
    } else if (c == "ground") {
      count(2);
      s.planes.push_back({Vec3(0, r.number(2), 0), Vec3::UnitY(), r.number(1), "ground"});
    } else if (c == "halfSpace") {
      count(8);
      const Vec3 n = r.vec(4);
      if (!(n.norm() > 0)) r.fail("the normal is zero");
      s.planes.push_back({r.vec(1), n.normalized(), r.number(8), fmt::format("halfspace{}", s.planes.size())});
    } else if (c == "meshCO") {
      count(6);
      MeshObstacle o;
      o.path = find_mesh(r, file, w[1]);
      o.mesh = load(r, file, o.path);
      if (o.mesh.cell_type() != CellType::Triangle) r.fail(o.path + ": a meshCO is a triangle surface (.obj)");
      // IPC centres the mesh on its vertex mean and scales its longest side to `scale`.
      const Vec3 mean = o.mesh.vertices.colwise().mean().transpose();
      const double extent = (o.mesh.vertices.colwise().maxCoeff() - o.mesh.vertices.colwise().minCoeff()).maxCoeff();
      if (!(extent > 0)) r.fail(o.path + ": the mesh has no extent");
      const double k = r.number(5) / extent;
      Mat3 R = Mat3::Identity();
      if (w.size() > 8 && w[8] == "rotate") R = ipc_rotation(r.vec(9));
      o.placement.rotation = R;
      o.placement.scale = Vec3::Constant(k);
      o.placement.translation = r.vec(2) - k * (R * mean);
      o.mu = r.number(7);
      s.mesh_obstacles.push_back(o);
    } else if (c == "tuning" || c == "tol") {
      count(1);
      const int n = static_cast<int>(r.number(1));
      std::vector<double> values;
      // The values follow on the next words or lines.
      std::size_t word = 2;
      while (static_cast<int>(values.size()) < n) {
        if (word < lines[k].words.size()) {
          values.push_back(r.number(word++));
          continue;
        }
        if (++k >= lines.size()) r.fail(fmt::format("expected {} values", n));
        r.line = &lines[k];
        word = 0;
      }
      if (c == "tol") {
        s.tol = values;
      } else {
        for (int i = 0; i < n && i < 6; ++i) s.tuning[i] = values[i];
      }
    } else if (c == "dHat") {
      count(1);
      s.tuning[1] = s.tuning[2] = r.number(1);
    } else if (c == "epsv") {
      count(1);
      s.tuning[4] = s.tuning[5] = r.number(1);
    } else if (c == "fricIterAmt") {
      count(1);
      s.friction_iterations = static_cast<int>(r.number(1));
    } else if (c == "section") {
      // Solver-specific blocks (SQP / QP settings): softsim solves every scene with the barrier
      // (IPC's interiorPoint), whose blocks IPC also skips.
      if (w.size() > 1 && w[1] == "end") continue;
      bool for_ip = false;
      for (std::size_t i = 1; i < w.size(); ++i) for_ip = for_ip || w[i] == "IP" || w[i] == "interiorPoint";
      if (for_ip) continue;
      while (k + 1 < lines.size() && !(lines[k + 1].words[0] == "section" && lines[k + 1].words.size() > 1 &&
                                       lines[k + 1].words[1] == "end"))
        ++k;
      ++k;
    } else if (auto v = viewer_commands().find(c); v != viewer_commands().end()) {
      if (c == "constraintSolver") {
        if (w.size() > 1 && w[1] != "interiorPoint" && w[1] != "IP")
          notes.push_back(fmt::format("line {}: constraintSolver {}: solved with IPC's barrier (interiorPoint) instead",
                                      lines[k].number, w[1]));
      } else {
        ignored.insert(c);
      }
    } else {
      r.fail("not an IPC command softsim converts (docs/peer-scenes.md lists them)");
    }
  }
  if (!ignored.empty()) {
    std::vector<std::string> names(ignored.begin(), ignored.end());
    notes.push_back(fmt::format("ignored (no effect on the motion): {}", fmt::join(names, ", ")));
  }
  if (s.shapes.empty()) throw InputError(file.string() + ": no shapes (an IPC scene starts with `shapes input N`)");
  return s;
}

// ---- geometry in IPC's frame ----

std::vector<Vec3> world_vertices(const Mesh& mesh, const Placement& p) { return p.apply_to(mesh.vertices); }

void grow(Vec3& lo, Vec3& hi, const std::vector<Vec3>& x) {
  for (const Vec3& p : x) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
}

Placement compose(const Mat3& R, const Vec3& shift, double k, const Placement& p) {
  // x -> k (R x + shift) applied after p.
  Placement q;
  q.rotation = R * p.rotation;
  q.scale = p.scale * k;
  q.translation = k * (R * p.translation + shift);
  return q;
}

// The effective angular velocity of IPC's per-step rotation Rx(wx dt) Ry(wy dt) Rz(wz dt) (rad/s).
Vec3 stepped_angular_velocity(const Vec3& omega_degrees, double dt) {
  const Eigen::AngleAxisd a(ipc_rotation(omega_degrees * dt));
  return a.angle() == 0 ? Vec3::Zero() : Vec3(a.axis() * a.angle() / dt);
}

// Vertices of a shape inside a DBC/NBC box relative to the raw mesh's bounding box; surface
// vertices only (IPC selects on the boundary).
std::vector<int> box_selection(const Mesh& mesh, const Vec3& lo_rel, const Vec3& hi_rel) {
  const Vec3 lo = mesh.vertices.colwise().minCoeff().transpose(), hi = mesh.vertices.colwise().maxCoeff().transpose();
  const Vec3 a = lo + lo_rel.cwiseProduct(hi - lo), b = lo + hi_rel.cwiseProduct(hi - lo);
  std::vector<int> out;
  for (int v : extract_surface(mesh).vertices) {
    const Vec3 p = mesh.vertices.row(v).transpose();
    if ((p.array() >= a.array()).all() && (p.array() <= b.array()).all()) out.push_back(v);
  }
  return out;
}

// Lumped masses of a tet shape at its placed positions x: rho V / 4 to each corner.
std::vector<double> lumped_masses(const Mesh& mesh, const std::vector<Vec3>& x, double density) {
  std::vector<double> mass(mesh.num_vertices(), 0.0);
  for (int e = 0; e < mesh.num_cells(); ++e) {
    const Vec3 a = x[mesh.cells(e, 0)], b = x[mesh.cells(e, 1)], c = x[mesh.cells(e, 2)], d = x[mesh.cells(e, 3)];
    const double m = density * std::abs((b - a).cross(c - a).dot(d - a)) / 6.0;
    for (int k = 0; k < 4; ++k) mass[mesh.cells(e, k)] += m / 4.0;
  }
  return mass;
}

// DCOSquash6: the six walls (shapes 0-5) move at 1 m/s along +x, -x, +y, -y, +z, -z, and all turn
// back at the start of a step at which the gap between walls 0 and 1 (wall 1's smallest x minus
// wall 0's largest) is below 0.1 (IPC's rule, checked every step). The walls are kinematic, so the
// turning steps are known beforehand: wall i's offset at every step start, as keyframes.
json squash6_path(const std::vector<std::vector<Vec3>>& start, std::size_t wall, double dt, int steps) {
  double right0 = -kInfinity, left1 = kInfinity;
  for (const Vec3& p : start[0]) right0 = std::max(right0, p.x());
  for (const Vec3& p : start[1]) left1 = std::min(left1, p.x());
  const Vec3 direction = (wall % 2 == 0 ? 1.0 : -1.0) * Vec3::Unit(static_cast<Eigen::Index>(wall / 2));
  std::vector<double> times;
  std::vector<Vec3> offsets;
  double sign = 1.0, travel = 0.0;
  for (int n = 0; n <= steps; ++n) {
    times.push_back(n * dt);
    offsets.push_back(travel * direction);
    if (left1 - right0 - 2.0 * travel < 0.1) sign = -sign;
    travel += sign * dt;
  }
  return keyframes(times, offsets, 1e-12);
}

}  // namespace

json ipc_scene_to_softsim(const std::filesystem::path& file, std::vector<std::string>& notes) {
  IpcScene s = read_ipc(file, notes);
  const std::string where = file.string();
  const auto script_fail = [&](const std::string& message) -> void {
    throw InputError(fmt::format("{}: line {}: script {}: {}", where, s.script_line, s.script, message));
  };
  // The scripts, checked before any mesh is read.
  const std::set<std::string> scripts = {"null",   "fall",        "fallNoShift", "twist",      "hangLeft",
                                         "fixLowerHalf", "stretchAndPause", "DCOFix", "DCORotCylinders",
                                         "DCOSqueezeOut", "DCOSquash6", "dragright"};
  if (s.script == "dragright" && s.shapes.size() != 1)
    script_fail("softsim converts it for one shape (it releases the handles when every shape has cleared the obstacles)");
  if (!scripts.count(s.script)) script_fail("is not a script softsim converts (docs/peer-scenes.md lists them)");
  if (s.script == "DCOSqueezeOut" && s.shapes.size() < 2) script_fail("needs shape 1, the box the plate is pressed towards");
  if (s.script == "DCOSquash6" && s.shapes.size() < 7) script_fail("needs six walls (shapes 0-5) and a body to squash");
  for (Shape& shape : s.shapes) {
    Reader r{where};
    Line line{shape.line, {shape.path}};
    r.line = &line;
    shape.mesh = load(r, file, shape.path);
    const CellType cells = shape.mesh.cell_type();
    if (shape.kind == ShapeKind::tets && cells != CellType::Tetrahedron)
      r.fail(fmt::format("{} has {} cells, expected tetrahedra", shape.path, to_string(cells)));
    if (shape.kind == ShapeKind::surface && cells != CellType::Triangle)
      r.fail(fmt::format("{} has {} cells, expected triangles", shape.path, to_string(cells)));
  }
  // rotateModel (initial positions turned about half the extent, IPC's pivot) and size (the whole
  // set scaled to its longest side `size`, its corner moved to the origin). IPC turns only the
  // initial positions; softsim turns the rest shape with them, which changes no elastic energy.
  Vec3 lo = Vec3::Constant(kInfinity), hi = -lo;
  for (const Shape& shape : s.shapes) grow(lo, hi, world_vertices(shape.mesh, shape.placement));
  Mat3 Rm = Mat3::Identity();
  Vec3 shift = Vec3::Zero();
  if (s.rotate_model) {
    const Vec3 pivot = (hi - lo) / 2;
    Rm = Eigen::AngleAxisd(s.rotate_model->second * kDegree, s.rotate_model->first).toRotationMatrix();
    shift = pivot - Rm * pivot;
  }
  // l, the unit of IPC's dHat, epsv and tol: the rest bounding-box diagonal of the tet shapes,
  // unturned by rotateModel (IPC turns only the initial positions), scaled by `size` below.
  Vec3 tlo = Vec3::Constant(kInfinity), thi = -tlo;
  bool has_tets = false;
  for (const Shape& shape : s.shapes)
    if (shape.kind == ShapeKind::tets) {
      grow(tlo, thi, world_vertices(shape.mesh, shape.placement));
      has_tets = true;
    }
  if (!has_tets) throw InputError(where + ": no deformable (.msh) shape");
  double k = 1.0;
  for (Shape& shape : s.shapes) shape.placement = compose(Rm, shift, 1.0, shape.placement);
  if (s.size > 0) {
    lo.setConstant(kInfinity);
    hi = -lo;
    for (const Shape& shape : s.shapes) grow(lo, hi, world_vertices(shape.mesh, shape.placement));
    k = s.size / (hi - lo).maxCoeff();
    for (Shape& shape : s.shapes) {
      shape.placement = compose(Mat3::Identity(), Vec3::Zero(), k, shape.placement);
      shape.placement.translation -= k * lo;
    }
  }
  const double l = k * (thi - tlo).norm();
  Vec3 all_lo = Vec3::Constant(kInfinity), all_hi = -all_lo;
  for (const Shape& shape : s.shapes) grow(all_lo, all_hi, world_vertices(shape.mesh, shape.placement));

  // fall and dragright lift every shape by half the set's diagonal.
  if (s.script == "fall" || s.script == "dragright") {
    const Vec3 lift(0, 0.5 * (all_hi - all_lo).norm(), 0);
    for (Shape& shape : s.shapes) shape.placement.translation += lift;
  }
  const int steps = static_cast<int>(std::ceil(s.end / s.dt - 1e-9));

  json bodies = json::array(), obstacles = json::array();
  std::vector<std::string> body_names;
  const double total_time = steps * s.dt;
  // Kinematic motion of a whole shape: its vertices all prescribed.
  const auto all_ids = [](const Mesh& mesh) {
    std::vector<int> ids(mesh.num_vertices());
    for (int v = 0; v < mesh.num_vertices(); ++v) ids[v] = v;
    return ids;
  };
  // Every shape's vertices at t = 0, placed once.
  std::vector<std::vector<Vec3>> start;
  for (const Shape& shape : s.shapes) start.push_back(world_vertices(shape.mesh, shape.placement));
  for (std::size_t i = 0; i < s.shapes.size(); ++i) {
    const Shape& shape = s.shapes[i];
    const std::string name = fmt::format("shape{}", i);
    const std::vector<Vec3>& x0 = start[i];
    Vec3 blo = Vec3::Constant(kInfinity), bhi = -blo;
    grow(blo, bhi, x0);
    const Vec3 box_centre = 0.5 * (blo + bhi);
    json fixed = json::array();
    // A whole-shape motion (IPC: linearVelocity / angularVelocity, or the DCO scripts).
    std::optional<json> whole;
    if (s.script == "null" && (shape.linear_velocity || shape.angular_velocity_degrees)) {
      // Moved inside the solve (a penalty towards each step's target, under CCD), as IPC moves
      // its kinematic shapes: eliminated DOFs jump to their targets and could pass through a body.
      json m = {{"method", "penalty"}};
      const Vec3 v = shape.linear_velocity.value_or(Vec3::Zero());
      const Vec3 w = stepped_angular_velocity(shape.angular_velocity_degrees.value_or(Vec3::Zero()), s.dt);
      if (v != Vec3::Zero()) m["velocity"] = vec_json(v);
      if (w != Vec3::Zero()) {
        m["angular_velocity"] = vec_json(w);
        m["rotation_center"] = vec_json(box_centre);
      }
      whole = m;
    }
    if (s.script == "DCORotCylinders" && i < 4) {
      const Vec3 w[4] = {Vec3(0.5, 0, 0), Vec3(-0.5, 0, 0), Vec3(0, 0, -0.5), Vec3(0, 0, 0.5)};
      whole = json{{"method", "penalty"},
                   {"angular_velocity", vec_json(w[i] * std::numbers::pi)},
                   {"rotation_center", vec_json(box_centre)}};
    }
    if (s.script == "DCOSqueezeOut" && i == 0) {
      // The top plate moves down at 0.3 m/s while its top is above 0.9/3.8 of the cone box's
      // height over its bottom (the 2020 release's rule; IPC's later code never moves it).
      const std::vector<Vec3>& cone = start[1];
      double cmin = kInfinity, cmax = -kInfinity, top = -kInfinity;
      for (const Vec3& p : cone) cmin = std::min(cmin, p.y()), cmax = std::max(cmax, p.y());
      for (const Vec3& p : x0) top = std::max(top, p.y());
      const double stop_at = cmin + 0.9 * (cmax - cmin) / 3.8;
      int moving = 0;
      while (moving < steps && top - 0.3 * moving * s.dt > stop_at) ++moving;
      // Moved by penalty (inside the solve, under CCD): the plate pushes the bodies ahead of it.
      whole = json{{"method", "penalty"}, {"velocity", {0.0, -0.3, 0.0}}};
      if (moving < steps) whole->operator[]("limit") = 0.3 * moving * s.dt;
    }
    if (s.script == "DCOSquash6" && i < 6) whole = json{{"method", "penalty"}, {"path", squash6_path(start, i, s.dt, steps)}};
    // A whole-shape motion that does not move (zero velocities) holds the shape in place.
    if (whole && !whole->contains("velocity") && !whole->contains("angular_velocity") && !whole->contains("path"))
      whole = shape.kind == ShapeKind::surface ? std::nullopt : std::optional<json>(json::object());
    if (shape.kind == ShapeKind::surface) {
      // A kinematic triangle surface: a static mesh obstacle, or a shell whose every vertex is prescribed.
      if (!whole) {
        obstacles.push_back({{"name", name}, {"type", "mesh"}, {"mesh", shape.path}, {"transform", shape.placement.to_json()}});
        continue;
      }
      json body = {{"name", name},
                   {"kind", "shell"},
                   {"mesh", shape.path},
                   {"transform", shape.placement.to_json()},
                   {"material", {{"model", "stvk"}, {"E", s.youngs}, {"nu", s.poisson}, {"density", s.density}}}};
      json f = {{"ids", all_ids(shape.mesh)}};
      f.update(*whole);
      body["fixed"] = json::array({f});
      bodies.push_back(body);
      body_names.push_back(name);
      continue;
    }
    // A deformable tet shape.
    const Vec3 mat = shape.material.value_or(Vec3(s.density, s.youngs, s.poisson));
    json body = {{"name", name},
                 {"mesh", shape.path},
                 {"transform", shape.placement.to_json()},
                 {"material",
                  {{"model", s.energy == "FCR" ? "fixed_corotated" : "neo_hookean"},
                   {"E", mat.y()},
                   {"nu", mat.z()},
                   {"density", mat.x()}}}};
    if (whole) {
      json f = {{"ids", all_ids(shape.mesh)}};
      f.update(*whole);
      fixed.push_back(f);
    }
    if (s.script == "null") {
      // DBC: boxes relative to the raw mesh's bounds, surface vertices; pieces of one box over
      // consecutive time ranges [t0, t1) that together cover the run become one keyframed motion.
      std::map<std::pair<std::vector<double>, std::vector<double>>, std::vector<const Dbc*>> by_box;
      for (const Dbc& d : shape.dbc)
        by_box[{{d.lo.x(), d.lo.y(), d.lo.z()}, {d.hi.x(), d.hi.y(), d.hi.z()}}].push_back(&d);
      std::set<int> taken;
      for (auto& [box, pieces] : by_box) {
        std::sort(pieces.begin(), pieces.end(), [](const Dbc* a, const Dbc* b) { return a->t0 < b->t0; });
        const std::vector<int> ids = box_selection(shape.mesh, pieces[0]->lo, pieces[0]->hi);
        if (ids.empty()) continue;  // IPC drops an empty selection
        for (int v : ids)
          if (!taken.insert(v).second)
            throw InputError(fmt::format("{}: line {}: DBC: boxes that share vertices add their motions in IPC; "
                                         "softsim prescribes one motion per vertex",
                                         where, pieces[0]->line));
        double covered = 0.0;
        bool gap = false;
        for (const Dbc* d : pieces) {
          gap = gap || d->t0 > covered + 1e-12;
          covered = std::max(covered, d->t1);
        }
        if (gap || covered < total_time - 1e-12) {
          // Free before, between or after its ranges: each piece a penalty-driven motion that acts
          // in the steps starting in [t0, t1) from wherever the vertices are, as IPC's DBC does.
          for (std::size_t k = 0; k < pieces.size(); ++k) {
            const Dbc& d = *pieces[k];
            if (!(d.t0 < d.t1))
              throw InputError(fmt::format("{}: line {}: DBC: the time range [{:g}, {:g}) s is empty", where, d.line, d.t0, d.t1));
            if (d.omega_degrees != Vec3::Zero())
              throw InputError(fmt::format("{}: line {}: DBC: a turning Dirichlet condition over part of the run is "
                                           "not supported (a rotation's centre would have to follow the vertices)",
                                           where, d.line));
            if (k > 0 && d.t0 < pieces[k - 1]->t1 - 1e-12)
              throw InputError(fmt::format("{}: line {}: DBC: overlapping time ranges of one box over part of the run "
                                           "are not supported", where, d.line));
            json f = {{"ids", ids}, {"method", "penalty"}, {"velocity", vec_json(d.velocity)}, {"from", d.t0}};
            if (std::isfinite(d.t1)) f["until"] = d.t1;
            fixed.push_back(f);
          }
          continue;
        }
        json f = {{"ids", ids}};
        if (pieces.size() == 1) {
          const Dbc& d = *pieces[0];
          const Vec3 w = stepped_angular_velocity(d.omega_degrees, s.dt);
          if (d.velocity != Vec3::Zero()) f["velocity"] = vec_json(d.velocity);
          if (w != Vec3::Zero()) {
            Vec3 slo = Vec3::Constant(kInfinity), shi = -slo;
            for (int v : ids) slo = slo.cwiseMin(x0[v]), shi = shi.cwiseMax(x0[v]);
            f["angular_velocity"] = vec_json(w);
            f["rotation_center"] = vec_json(0.5 * (slo + shi));
          }
        } else {
          std::vector<double> times;
          std::vector<Vec3> offsets;
          Vec3 offset = Vec3::Zero();
          for (int n = 0; n <= steps; ++n) {
            times.push_back(n * s.dt);
            offsets.push_back(offset);
            const double t = n * s.dt;
            for (const Dbc* d : pieces) {
              if (t >= d->t0 - 1e-12 && t < d->t1 - 1e-12) {
                if (d->omega_degrees != Vec3::Zero())
                  throw InputError(fmt::format("{}: line {}: DBC: a turning piece of a time-ranged DBC is not "
                                               "supported", where, d->line));
                offset += d->velocity * s.dt;
              }
            }
          }
          f["path"] = keyframes(times, offsets, 1e-12);
        }
        fixed.push_back(f);
      }
      if (shape.initial_velocity) {
        const auto& [v, w_degrees] = *shape.initial_velocity;
        if (v != Vec3::Zero()) body["initial_velocity"] = vec_json(v);
        if (w_degrees != Vec3::Zero()) {
          // IPC spins about the shape's bounding-box centre; softsim about the centre of mass: the
          // difference is a translation, added to the linear velocity.
          const std::vector<double> m = lumped_masses(shape.mesh, x0, 1.0);
          Vec3 com = Vec3::Zero();
          double total = 0.0;
          for (int p = 0; p < shape.mesh.num_vertices(); ++p) com += m[p] * x0[p], total += m[p];
          com /= total;
          const Vec3 w = w_degrees * kDegree;
          body["initial_angular_velocity"] = vec_json(w);
          body["initial_velocity"] = vec_json(v + w.cross(com - box_centre));
        }
      }
    } else if (s.script == "twist" || s.script == "hangLeft" || s.script == "stretchAndPause") {
      // Handles: the vertices (interior too) in the left / right 1% of the x range of every
      // shape's rest vertices (these scripts do not lift the start).
      const Vec3 rlo = all_lo, rhi = all_hi;
      const double range = rhi.x() - rlo.x();
      std::vector<int> left, right;
      for (int v = 0; v < shape.mesh.num_vertices(); ++v) {
        if (x0[v].x() < rlo.x() + 0.01 * range) left.push_back(v);
        if (x0[v].x() > rhi.x() - 0.01 * range) right.push_back(v);
      }
      if (s.script == "twist") {
        const Vec3 centre = 0.5 * (all_lo + all_hi);
        const double rate = 0.4 * std::numbers::pi;
        if (!left.empty())
          fixed.push_back({{"ids", left}, {"angular_velocity", {-rate, 0.0, 0.0}}, {"rotation_center", vec_json(centre)}});
        if (!right.empty())
          fixed.push_back({{"ids", right}, {"angular_velocity", {rate, 0.0, 0.0}}, {"rotation_center", vec_json(centre)}});
      } else if (s.script == "hangLeft") {
        if (!left.empty()) fixed.push_back({{"ids", left}});
      } else {
        // Handles move out at 1 m/s until the last left handle has passed x = -0.28, then hold.
        double turning = 0.0;
        for (const std::vector<Vec3>& y : start)
          for (const Vec3& p : y)
            if (p.x() < rlo.x() + 0.01 * range) turning = p.x();  // the highest-index left handle
        int moving = 0;
        while (moving < steps && turning - moving * s.dt >= -0.28) ++moving;
        const double travel = moving * s.dt;
        const auto path = [&](double sign) {
          return json::array({json::array({0.0, 0.0, 0.0, 0.0}), json::array({travel, sign * travel, 0.0, 0.0})});
        };
        if (!left.empty()) fixed.push_back({{"ids", left}, {"path", path(-1.0)}});
        if (!right.empty()) fixed.push_back({{"ids", right}, {"path", path(1.0)}});
      }
    } else if (s.script == "dragright") {
      // The right 4% of the x range pulled along +x at 0.5 m/s (by penalty: the handles lead the
      // body through the obstacle), let go for good at the first step whose start finds the whole
      // body right of every meshCO (IPC releases its DBC then); without a meshCO IPC lets go
      // before the first step, so nothing is held.
      double obstacles_right = -kInfinity;
      for (const MeshObstacle& o : s.mesh_obstacles)
        for (const Vec3& p : o.placement.apply_to(o.mesh.vertices)) obstacles_right = std::max(obstacles_right, p.x());
      std::vector<int> handles;
      for (int v = 0; v < shape.mesh.num_vertices(); ++v)
        if (x0[v].x() > all_hi.x() - 0.04 * (all_hi.x() - all_lo.x())) handles.push_back(v);
      if (!handles.empty() && std::isfinite(obstacles_right))
        fixed.push_back({{"ids", handles},
                         {"method", "penalty"},
                         {"velocity", {0.5, 0.0, 0.0}},
                         {"release", {{"axis", "x"}, {"above", obstacles_right}}}});
    } else if (s.script == "fixLowerHalf") {
      std::vector<int> lower;
      for (int v = 0; v < shape.mesh.num_vertices(); ++v)
        if (x0[v].y() < all_lo.y() + 0.5 * (all_hi.y() - all_lo.y())) lower.push_back(v);
      if (!lower.empty()) fixed.push_back({{"ids", lower}});
    }
    // NBC: an acceleration of the selected vertices, i.e. a force m_i a on each; IPC applies it
    // under every script.
    std::vector<double> mass;
    // A time range [t0, t1) switches the load on for the steps that start in it, as IPC's
    // isNBCActive tests the step's start time: softsim's loads `from` and `until`.
    for (const Nbc& n : shape.nbc) {
      if (!(n.t0 < n.t1))
        throw InputError(fmt::format("{}: line {}: NBC: the time range [{:g}, {:g}) s is empty", where, n.line, n.t0, n.t1));
      if (mass.empty()) mass = lumped_masses(shape.mesh, x0, mat.x());
      json loads = body.value("loads", json::array());
      for (int v : box_selection(shape.mesh, n.lo, n.hi)) {
        json load = {{"ids", {v}}, {"force", vec_json(mass[v] * n.acceleration)}};
        if (n.t0 > 0.0) load["from"] = n.t0;
        if (std::isfinite(n.t1)) load["until"] = n.t1;
        loads.push_back(load);
      }
      body["loads"] = loads;
    }
    if (!fixed.empty()) body["fixed"] = fixed;
    bodies.push_back(body);
    body_names.push_back(name);
  }
  for (std::size_t i = 0; i < s.mesh_obstacles.size(); ++i) {
    const MeshObstacle& o = s.mesh_obstacles[i];
    obstacles.push_back({{"name", fmt::format("meshCO{}", i)}, {"type", "mesh"}, {"mesh", o.path},
                         {"transform", o.placement.to_json()}});
  }
  for (const Plane& p : s.planes)
    obstacles.push_back({{"name", p.name}, {"type", "plane"}, {"point", vec_json(p.point)}, {"normal", vec_json(p.normal)}});

  json out = json::object();
  out["description"] = fmt::format("converted from the IPC scene {}", file.filename().string());
  out["time"] = {{"dt", s.dt}, {"steps", steps}};
  out["integrator"] = s.newmark ? json{{"type", "newmark"}, {"beta", s.beta}, {"gamma", s.gamma}}
                                : json{{"type", "backward_euler"}};
  // IPC's damping adds (dampingStiff / h) K(x^n) (x - x^n) to its backward Euler residual (K the
  // elasticity's PSD Hessian at the step's start, dampingStiff = ratio 3/4 h^3): softsim's
  // D v = beta K(x^n) (x - x^n) / h with beta = 3/4 ratio h. Under Newmark IPC keeps the same term
  // while the elasticity is weighted by beta_NM h^2, i.e. a force (3/4 ratio / beta_NM) K (x - x^n):
  // beta = 3/4 ratio h / beta_NM on Newmark's velocity (approximate: IPC's acts on (x - x^n) / h).
  if (s.damping_ratio > 0.0)
    out["damping"] = {{"beta", 0.75 * s.damping_ratio * s.dt / (s.newmark ? s.beta : 1.0)}};
  out["gravity"] = s.gravity ? json{0.0, -9.80665, 0.0} : json{0.0, 0.0, 0.0};
  // Newton stops when ||dx||_inf < tol l dt: softsim's criterion ||p||_inf / h < tolerance.
  const double tol = s.tol.empty() ? 1e-2 : s.tol.front();
  if (s.tol.size() > 1) notes.push_back("tol: IPC's per-step list is read as its first value for every step");
  // IPC's Newton loop (Optimizer::solveSub_IP) stops at 10,000 iterations; kept, as the PolyFEM
  // conversion keeps PolyFEM's cap: softsim's default of 100 halves steps IPC would finish.
  out["solver"] = {{"tolerance", tol * l}, {"max_iterations", 10000}};
  // IPC guards only its neo-Hookean energy against inversion; its fixed corotated elements may
  // flatten and invert (the energy stays finite in signed singular values), so softsim's filter is
  // off there too. Kept on, it stalls squeezes such as the trash compactor's.
  if (s.energy == "FCR") out["solver"]["inversion_filter"] = false;
  out["bodies"] = bodies;
  if (!obstacles.empty()) out["obstacles"] = obstacles;
  if (!s.self_collision && !s.mesh_obstacles.empty())
    throw InputError(where + ": selfCollisionOff with meshCO obstacles: IPC keeps contact with the obstacles, "
                             "softsim's mesh obstacles need contact between bodies on");
  if (s.tuning[0] > 0)
    throw InputError(where + ": tuning: a fixed barrier stiffness (tuning[0] > 0) is not converted (IPC's scales "
                             "the unscaled barrier, softsim's the h^2-scaled potential); 0 selects the automatic one");
  json contact = {{"enabled", s.self_collision}, {"dhat", s.tuning[1] * l}};
  // Friction: selfFric between shapes (kinematic surfaces included), each half-space's own mu,
  // none at meshCOs (IPC's barrier solver adds no friction there, whatever the file says).
  std::vector<json> pairs;
  for (const Plane& p : s.planes)
    if (p.mu != s.self_friction)
      for (const std::string& b : body_names) pairs.push_back({{"bodies", {b, p.name}}, {"mu", p.mu}});
  bool meshco_mu = false;
  for (std::size_t i = 0; i < s.mesh_obstacles.size(); ++i) {
    meshco_mu = meshco_mu || s.mesh_obstacles[i].mu > 0;
    if (s.self_friction > 0)
      for (const std::string& b : body_names) pairs.push_back({{"bodies", {b, fmt::format("meshCO{}", i)}}, {"mu", 0.0}});
  }
  if (meshco_mu)
    notes.push_back("meshCO friction: IPC's barrier solver applies none at mesh obstacles whatever their mu; the "
                    "conversion does the same (mu 0)");
  const bool any_friction = s.self_friction > 0 || std::any_of(pairs.begin(), pairs.end(), [](const json& p) {
                              return p["mu"].get<double>() > 0;
                            });
  if (any_friction) {
    // IPC's friction threshold is tuning[4] l per 0.025 s whatever dt (it is computed before the
    // scene's dt is set): eps_v = tuning[4] l 0.025 / dt.
    json friction = {{"mu", s.self_friction},
                     {"eps_v", s.tuning[4] * l * 0.025 / s.dt},
                     {"iterations", s.friction_iterations > 0 ? std::min(s.friction_iterations, 100) : 10}};
    if (!pairs.empty()) friction["pairs"] = pairs;
    contact["friction"] = friction;
  }
  out["contact"] = contact;
  if (s.script != "null" && s.script != "fall" && s.script != "fallNoShift")
    notes.push_back(fmt::format("script {}: converted to prescribed motions (docs/peer-scenes.md)", s.script));
  for (const Shape& shape : s.shapes)
    if (s.script != "null" && (!shape.dbc.empty() || shape.initial_velocity || shape.linear_velocity ||
                               shape.angular_velocity_degrees)) {
      notes.push_back("shape DBC / initVel / velocities: ignored under a script, as IPC does (NBC acts)");
      break;
    }
  return out;
}

}  // namespace softsim
