#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

#include "softsim/core/errors.hpp"
#include "softsim/scene/mpm_scene.hpp"

namespace softsim {

template <int D>
MpmSolver<D> build_mpm_solver(const MpmScene& scene) {
  MpmOptions<D> o;
  o.origin = scene.origin.head<D>();
  o.dx = scene.dx;
  for (int a = 0; a < D; ++a) o.cells[a] = scene.cells[a];
  o.kernel = scene.kernel;
  o.transfer = scene.transfer;
  o.flip_ratio = scene.flip_ratio;
  o.gravity = scene.gravity.head<D>();
  o.wall_nodes = scene.wall_nodes;
  o.walls = scene.walls;
  o.wall_friction = scene.wall_friction;
  o.materials = scene.materials;
  for (const MpmCollider<3>& c : scene.colliders) {
    MpmCollider<D> d;
    d.shape = static_cast<typename MpmCollider<D>::Shape>(static_cast<int>(c.shape));
    d.point = c.point.head<D>();
    d.normal = c.normal.head<D>();
    d.radius = c.radius;
    d.half_size = c.half_size.head<D>();
    d.velocity = c.velocity.head<D>();
    d.boundary = c.boundary;
    d.friction = c.friction;
    o.colliders.push_back(d);
  }
  MpmParticles<D> particles;
  std::vector<std::size_t> first;  // each body's first particle
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const MpmScene::Body& body = scene.bodies[b];
    const VecD<D> lo = body.lo.head<D>(), hi = body.hi.head<D>();
    const std::vector<VecD<D>> x = body.poisson
                                       ? sample_box_poisson<D>(lo, hi, scene.dx, body.particles_per_cell, body.seed)
                                       : sample_box_regular<D>(lo, hi, scene.dx, body.particles_per_cell);
    const double volume = (hi - lo).prod() / static_cast<double>(x.size());
    first.push_back(particles.size());
    for (const VecD<D>& xi : x) particles.add(xi, body.velocity.head<D>(), volume, body.material);
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
