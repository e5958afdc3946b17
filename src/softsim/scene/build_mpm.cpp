#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdio>

#include "softsim/core/errors.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/measure.hpp"
#include "softsim/mesh/quality.hpp"
#include "softsim/meshing/tetrahedralize.hpp"
#include "softsim/mpm/points_inside_mesh.hpp"
#include "softsim/scene/mpm_scene.hpp"
#include "softsim/scene/read_moving_shape.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

namespace {

// A mesh body's mesh as the scene places it: read, a closed 3D surface tetrahedralized (with
// the default options), checked, transformed.
Mesh load_body_mesh(const MpmScene& scene, const MpmScene::Body& body) {
  const std::filesystem::path file = scene_path(scene.file, body.mesh);
  const std::string where = fmt::format("{}: {}.mesh: {}", scene.source(), body.path, body.mesh.string());
  Mesh mesh;
  try {
    mesh = read_mesh(file, scene.dim);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}.mesh: {}", scene.source(), body.path, e.what()));
  }
  if (mesh.dim() != scene.dim)
    throw InputError(fmt::format("{}: the mesh is {}D but the scene is {}D", where, mesh.dim(), scene.dim));
  if (scene.dim == 3 && mesh.cell_type() == CellType::Triangle)
    mesh = tetrahedralize(std::move(mesh), TetrahedralizeOptions{}, where);
  const CellType expected = scene.dim == 3 ? CellType::Tetrahedron : CellType::Triangle;
  if (mesh.cell_type() != expected)
    throw InputError(fmt::format("{}: a {}D MPM body needs {} cells{}, the mesh has {} cells", where, scene.dim,
                                 to_string(expected), scene.dim == 3 ? " or a closed triangle surface" : "",
                                 to_string(mesh.cell_type())));
  validate_mesh(mesh, where);
  apply_transform(mesh, body.transform, scene.dim);
  if (!mesh.vertices.allFinite())
    throw InputError(fmt::format("{}: the transform makes vertex coordinates that are not finite", where));
  return mesh;
}

// The body's particle positions and its volume (for the particles' rest volumes).
template <int D>
std::vector<VecD<D>> sample_body(const MpmScene& scene, const MpmScene::Body& body, double& volume,
                                 double& particles_so_far) {
  using Shape = MpmScene::Body::Shape;
  VecD<D> lo = body.lo.head<D>(), hi = body.hi.head<D>();
  Mesh mesh;
  if (body.shape == Shape::mesh) {
    mesh = load_body_mesh(scene, body);
    const BoundingBox box = bounding_box(mesh.vertices);
    lo = box.min.template head<D>();
    hi = box.max.template head<D>();
    Vec3 lo3 = Vec3::Zero(), hi3 = Vec3::Zero();
    lo3.head<D>() = lo;
    hi3.head<D>() = hi;
    if (const std::string outside = outside_grid(scene, lo3, hi3); !outside.empty())
      throw InputError(fmt::format("{}: {}.mesh: {}: the mesh (after its transform) {}", scene.source(), body.path,
                                   body.mesh.string(), outside));
    particles_so_far += estimated_particles(scene, body.particles_per_cell, lo3, hi3);
    if (particles_so_far > kMpmMaxParticles)
      throw InputError(fmt::format("{}: {}.particles_per_cell: the bodies so far make about {:.3g} particles, more "
                                   "than the limit of {:.3g}",
                                   scene.source(), body.path, particles_so_far, kMpmMaxParticles));
  }
  std::vector<VecD<D>> x = body.poisson ? sample_box_poisson<D>(lo, hi, scene.dx, body.particles_per_cell, body.seed)
                                        : sample_box_regular<D>(lo, hi, scene.dx, body.particles_per_cell);
  switch (body.shape) {
    case Shape::box:
      volume = (hi - lo).prod();
      break;
    case Shape::sphere: {
      const VecD<D> c = body.center.head<D>();
      std::erase_if(x, [&](const VecD<D>& p) { return (p - c).norm() > body.radius; });
      volume = D == 2 ? M_PI * body.radius * body.radius : 4.0 / 3.0 * M_PI * std::pow(body.radius, 3);
      break;
    }
    case Shape::mesh:
      x = points_inside_mesh<D>(mesh, x);
      volume = mesh_volume(mesh);
      break;
  }
  if (x.empty())
    throw InputError(fmt::format("{}: {}: the body is thinner than the particle spacing: no particle falls inside it "
                                 "(give more particles_per_cell or a finer grid)",
                                 scene.source(), body.path));
  return x;
}

}  // namespace

template <int D>
MpmSolver<D> build_mpm_solver(const MpmScene& scene) {
  MpmOptions<D> o;
  o.origin = scene.origin.head<D>();
  o.dx = scene.dx;
  for (int a = 0; a < D; ++a) o.cells[a] = scene.cells[a];
  o.kernel = scene.kernel;
  o.transfer = scene.transfer;
  o.flip_ratio = scene.flip_ratio;
  o.damping = scene.damping;
  o.gravity = scene.gravity.head<D>();
  o.wall_nodes = scene.wall_nodes;
  o.walls = scene.walls;
  o.wall_friction = scene.wall_friction;
  o.materials = scene.materials;
  for (const MpmCollider<3>& c : scene.colliders) {
    MpmCollider<D> d;
    static_cast<MovingShape<D>&>(d) = shape_in_dimension<D>(c);
    d.boundary = c.boundary;
    d.friction = c.friction;
    o.colliders.push_back(d);
  }
  MpmParticles<D> particles;
  std::vector<std::size_t> first;  // each body's first particle
  double particles_so_far = 0.0;    // estimated, for the limit on mesh bodies
  for (const MpmScene::Body& body : scene.bodies)
    if (body.shape != MpmScene::Body::Shape::mesh)
      particles_so_far += estimated_particles(scene, body.particles_per_cell, body.lo, body.hi);
  for (const MpmScene::Body& body : scene.bodies) {
    double volume = 0.0;
    const std::vector<VecD<D>> x = sample_body<D>(scene, body, volume, particles_so_far);
    first.push_back(particles.size());
    for (const VecD<D>& xi : x)
      particles.add(xi, body.velocity.head<D>(), volume / static_cast<double>(x.size()), body.material);
  }
  first.push_back(particles.size());
  try {
    return MpmSolver<D>(std::move(o), std::move(particles));
  } catch (const std::invalid_argument& e) {
    // Name the body whose particle was refused ("MPM: particle N ...").
    std::string body;
    const std::string what = e.what();
    std::size_t p = 0;
    if (std::sscanf(what.c_str(), "MPM: particle %zu", &p) == 1)
      for (std::size_t b = 0; b + 1 < first.size(); ++b)
        if (p >= first[b] && p < first[b + 1]) body = fmt::format(" (body \"{}\")", scene.bodies[b].name);
    throw InputError(fmt::format("{}: mpm: {}{}; the grid covers [{}] + [0, {} cells of {:g} m]", scene.source(),
                                 what.substr(what.rfind("MPM: ") == 0 ? 5 : 0), body,
                                 fmt::join(scene.origin.data(), scene.origin.data() + D, ", "),
                                 fmt::join(scene.cells.data(), scene.cells.data() + D, " x "), scene.dx));
  }
}

template MpmSolver<2> build_mpm_solver<2>(const MpmScene&);
template MpmSolver<3> build_mpm_solver<3>(const MpmScene&);

}  // namespace softsim
