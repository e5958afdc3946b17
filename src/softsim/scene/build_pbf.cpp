#include <fmt/format.h>

#include <stdexcept>

#include "softsim/core/errors.hpp"
#include "softsim/mpm/mpm_particles.hpp"
#include "softsim/scene/pbf_scene.hpp"
#include "softsim/scene/read_moving_shape.hpp"

namespace softsim {

template <int D>
PbfSolver<D> build_pbf_solver(const PbfScene& scene) {
  const PbfOptions<3>& s = scene.options;
  PbfOptions<D> o;
  o.rest_density = s.rest_density;
  o.spacing = s.spacing;
  o.kernel_radius = s.kernel_radius;
  o.substeps = s.substeps;
  o.iterations = s.iterations;
  o.relaxation = s.relaxation;
  o.tensile_k = s.tensile_k;
  o.tensile_n = s.tensile_n;
  o.tensile_distance = s.tensile_distance;
  o.xsph = s.xsph;
  o.vorticity = s.vorticity;
  o.unilateral = s.unilateral;
  o.gravity = scene.gravity.head<D>();
  o.domain_lo = s.domain_lo.head<D>();
  o.domain_hi = s.domain_hi.head<D>();
  for (const MovingShape<3>& obstacle : s.obstacles) o.obstacles.push_back(shape_in_dimension<D>(obstacle));
  std::vector<VecD<D>> x, v;
  for (const PbfScene::Fluid& f : scene.fluids) {
    // One particle per lattice cell of the spacing (the lattice centred in the region; a ball keeps
    // at least its centre).
    std::vector<VecD<D>> sampled = sample_box_regular<D>(f.lo.head<D>(), f.hi.head<D>(), s.spacing, 1.0);
    if (f.shape == PbfScene::Fluid::Shape::sphere)
      std::erase_if(sampled, [&](const VecD<D>& p) { return (p - f.center.head<D>()).norm() > f.radius; });
    x.insert(x.end(), sampled.begin(), sampled.end());
    v.insert(v.end(), sampled.size(), f.velocity.head<D>());
  }
  try {
    return PbfSolver<D>(o, std::move(x), std::move(v));
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("{}: pbf: {}", scene.source(), e.what()));
  }
}

template PbfSolver<2> build_pbf_solver<2>(const PbfScene&);
template PbfSolver<3> build_pbf_solver<3>(const PbfScene&);

}  // namespace softsim
