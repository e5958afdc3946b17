#include <fmt/format.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <map>

#include "softsim/core/bounding_box.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/fem/penalty_motion.hpp"
#include "softsim/fem/timed_load.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

namespace {

std::vector<int> select_vertices(const Scene& scene, const BodySpec& body, const Mesh& mesh, const SelectionSpec& s) {
  std::vector<int> ids;
  if (s.box) {
    const auto& [lo, hi] = *s.box;
    const double eps = 1e-9 * bounding_box_diagonal(mesh.vertices);
    for (int i = 0; i < mesh.num_vertices(); ++i) {
      bool inside = true;
      for (int d = 0; d < scene.dim; ++d)
        inside = inside && mesh.vertices(i, d) >= lo[d] - eps && mesh.vertices(i, d) <= hi[d] + eps;
      if (inside) ids.push_back(i);
    }
    if (ids.empty())
      throw InputError(fmt::format("{}: {}.box: selects no vertex of body \"{}\"", scene.source(), s.path, body.name));
  } else {
    for (int id : s.ids)
      if (id >= mesh.num_vertices())
        throw InputError(fmt::format("{}: {}.ids: vertex {} is out of range (body \"{}\" has {} vertices)",
                                     scene.source(), s.path, id, body.name, mesh.num_vertices()));
    ids = s.ids;
  }
  return ids;
}

// Piecewise-linear keyframe offset, held constant outside the keyed interval.
Vec3 keyframe_offset(const std::vector<std::pair<double, Vec3>>& keys, double t) {
  if (t <= keys.front().first) return keys.front().second;
  for (std::size_t k = 1; k < keys.size(); ++k)
    if (t <= keys[k].first) {
      const double s = (t - keys[k - 1].first) / (keys[k].first - keys[k - 1].first);
      return (1 - s) * keys[k - 1].second + s * keys[k].second;
    }
  return keys.back().second;
}

// Distributes a constant traction over the boundary faces (3D) or edges (2D) lying in the box:
// each of a facet's k vertices gets traction * measure / k. Returns the number of facets loaded.
int add_traction(Model& model, const Body& body, const std::pair<Vec3, Vec3>& box, const VecX& traction) {
  const int dim = model.dim();
  const MatXi& facets = dim == 3 ? body.surface.faces : body.surface.edges;
  const double eps = 1e-9 * bounding_box_diagonal(body.mesh.vertices);
  int loaded = 0;
  for (int f = 0; f < facets.rows(); ++f) {
    bool inside = true;
    for (int a = 0; a < facets.cols(); ++a)
      for (int d = 0; d < dim; ++d) {
        const double c = body.mesh.vertices(facets(f, a), d);
        inside = inside && c >= box.first[d] - eps && c <= box.second[d] + eps;
      }
    if (!inside) continue;
    double measure;
    if (dim == 3) {
      const Vec3 p0 = body.mesh.vertices.row(facets(f, 0)).transpose();
      measure = 0.5 * (Vec3(body.mesh.vertices.row(facets(f, 1)).transpose()) - p0)
                          .cross(Vec3(body.mesh.vertices.row(facets(f, 2)).transpose()) - p0)
                          .norm();
    } else {
      measure = (body.mesh.vertices.row(facets(f, 1)) - body.mesh.vertices.row(facets(f, 0))).norm();
    }
    for (int a = 0; a < facets.cols(); ++a)
      model.nodal_forces.segment(static_cast<Eigen::Index>(body.first_vertex + facets(f, a)) * dim, dim) +=
          traction * measure / facets.cols();
    ++loaded;
  }
  return loaded;
}

// A rotation at constant angular velocity w, R(t) = exp(t [w]x), about the given centre or the
// mean of the selected vertices at rest; null when the selection does not rotate.
struct Rotation {
  std::function<MatX(double t)> matrix;
  VecX center;
};
Rotation rotation_of(const Model& model, int dim, const std::vector<int>& ids, const FixedSpec* f) {
  if (!f || !f->rotates()) return {};
  Rotation r;
  if (f->rotation_center) {
    r.center = f->rotation_center->head(dim);
  } else {
    r.center = VecX::Zero(dim);
    for (int v : ids) r.center += model.rest_positions.segment(static_cast<Eigen::Index>(v) * dim, dim);
    r.center /= static_cast<double>(ids.size());
  }
  const Vec3 w = f->angular_velocity;
  if (dim == 2)
    r.matrix = [w](double t) -> MatX { return Eigen::Rotation2Dd(w.z() * t).toRotationMatrix(); };
  else
    r.matrix = [w](double t) -> MatX { return Eigen::AngleAxisd(w.norm() * t, w.normalized()).toRotationMatrix(); };
  return r;
}

// The offset of a keyframed path at time t (dim vector).
std::function<VecX(double)> keyframe_path(const std::vector<std::pair<double, Vec3>>& keys, int dim) {
  return [keys, dim](double t) -> VecX { return keyframe_offset(keys, t).head(dim); };
}

// The vertices follow the motion: eliminated DOFs on its path, or pulled by a penalty with
// their nodal masses (Li & Jiang 2025, §11.1).
void add_motion(Model& model, const Scene& scene, const std::vector<int>& ids, const MotionSpec& m,
                const std::string& label, const FixedSpec* fixed = nullptr, const Body* body = nullptr) {
  const int dim = scene.dim;
  Rotation rotation = rotation_of(model, dim, ids, fixed);
  if (m.penalty) {
    const std::vector<double> all = model.vertex_masses();
    std::vector<double> masses;
    for (int id : ids) masses.push_back(all[id]);
    auto penalty = std::make_unique<PenaltyMotion>(dim, ids, masses, m.velocity.head(dim), m.limit, m.kappa,
                                                   scene.integrator.newton.tolerance, model.rest_positions,
                                                   m.hold_when_met, m.limit_by_position);
    if (rotation.matrix) penalty->set_rotation(std::move(rotation.matrix), rotation.center);
    if (!m.path.empty()) penalty->set_path(keyframe_path(m.path, dim));
    penalty->set_interval(m.from, m.until);
    if (fixed && fixed->release && body) {
      PenaltyMotion::Release release{{}, fixed->release->axis, fixed->release->above};
      for (int v = 0; v < body->mesh.num_vertices(); ++v) release.watched.push_back(body->first_vertex + v);
      penalty->set_release(std::move(release));
    }
    model.add_energy(std::move(penalty));
    return;
  }
  PrescribedMotion motion;
  motion.vertices = ids;
  motion.label = label;
  if (!m.path.empty()) {
    motion.offset = keyframe_path(m.path, dim);
  } else if (m.velocity != Vec3::Zero()) {
    const Vec3 velocity = m.velocity;
    motion.offset = [velocity, dim](double t) -> VecX { return (velocity * t).head(dim); };
  }  // else no translation (fixed, or rotating in place)
  motion.rotation = std::move(rotation.matrix);
  motion.center = rotation.center;
  model.boundary.add_motion(std::move(motion));
}

}  // namespace

void add_boundary_conditions(Model& model, const Scene& scene) {
  const int dim = scene.dim;
  const std::string file = scene.source();
  model.boundary.set_dimensions(model.num_vertices(), dim);
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodySpec& spec = scene.bodies[b];
    const Mesh& mesh = model.bodies[b].mesh;
    const int first = model.bodies[b].first_vertex;
    std::vector<char> prescribed(static_cast<std::size_t>(mesh.num_vertices()), 0);
    for (const FixedSpec& f : spec.fixed) {
      std::vector<int> ids;
      for (int id : select_vertices(scene, spec, mesh, f.selection)) ids.push_back(first + id);
      // An affine body moves as a whole: prescribed, all of it (a kinematic body) or nothing. A
      // penalty may pull any of its vertices (a handle): it acts through the subspace.
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      if (spec.kind == BodyKind::affine && !f.penalty && static_cast<int>(ids.size()) != mesh.num_vertices())
        throw InputError(fmt::format("{}: {}: selects {} of the {} vertices of affine body \"{}\": an affine body is "
                                     "prescribed as a whole (select every vertex) or not at all",
                                     file, f.selection.path, ids.size(), mesh.num_vertices(), spec.name));
      add_motion(model, scene, ids, f, f.selection.path, &f, &model.bodies[b]);
      const bool whole_run = f.from == 0.0 && f.until == HUGE_VAL && !f.release;  // kinematic only if never free
      if (whole_run)
        for (int id : ids) prescribed[static_cast<std::size_t>(id - first)] = 1;
    }
    model.bodies[b].kinematic =
        mesh.num_vertices() > 0 && std::all_of(prescribed.begin(), prescribed.end(), [](char p) { return p != 0; });
    if (!spec.loads.empty() || !spec.tractions.empty()) {
      if (model.nodal_forces.size() != model.num_dofs()) model.nodal_forces = VecX::Zero(model.num_dofs());
      // Loads with a time range: one term per interval (an IPC NBC converts to a load per vertex).
      std::map<std::pair<double, double>, VecX> timed;
      for (const LoadSpec& l : spec.loads) {
        VecX* forces = &model.nodal_forces;
        if (l.timed()) {
          auto [it, added] = timed.try_emplace({l.from, l.until});
          if (added) it->second = VecX::Zero(model.num_dofs());
          forces = &it->second;
        }
        for (int id : select_vertices(scene, spec, mesh, l.selection))
          forces->segment(static_cast<Eigen::Index>(first + id) * dim, dim) += l.force.head(dim);
      }
      for (auto& [interval, forces] : timed)
        model.add_energy(std::make_unique<TimedLoad>(std::move(forces), interval.first, interval.second));
      for (const TractionSpec& t : spec.tractions) {
        const VecX traction = t.traction.head(dim);
        if (add_traction(model, model.bodies[b], *t.selection.box, traction) == 0)
          throw InputError(fmt::format("{}: {}.box: selects no boundary {} of body \"{}\"", file, t.selection.path,
                                       dim == 3 ? "face" : "edge", spec.name));
      }
    }
    for (const SlipSpec& s : spec.slip) {
      SlipCondition slip;
      for (int id : select_vertices(scene, spec, mesh, s.selection)) slip.vertices.push_back(first + id);
      slip.direction = s.direction.head(dim);
      slip.line = s.line;
      try {
        model.boundary.add_slip(slip);
      } catch (const std::invalid_argument&) {
        throw InputError(fmt::format("{}: {}: a vertex already has a slip condition", file, s.selection.path));
      }
    }
  }
  const std::vector<int> poses = obstacle_pose_vertices(model, scene);
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k)
    if (poses[k] >= 0) add_motion(model, scene, {poses[k]}, *scene.obstacles[k].motion, scene.obstacles[k].path);
}

}  // namespace softsim
