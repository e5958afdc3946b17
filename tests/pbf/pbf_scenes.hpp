#pragma once
// Small fluid scenes the PBF tests share: a block of water on the regular lattice in a box.
#include <vector>

#include "softsim/mpm/mpm_particles.hpp"
#include "softsim/pbf/pbf_solver.hpp"

namespace softsim::pbf_test {

// A 2D dam break: a water column of width x height in the lower left corner of a box of
// box_width x box_height, on a lattice of `spacing`.
inline PbfSolver<2> dam_break_2d(double spacing, double width, double height, double box_width, double box_height,
                                 PbfOptions<2> options = {}) {
  options.spacing = spacing;
  options.gravity = Vec2(0, -9.81);
  options.domain_lo = Vec2::Zero();
  options.domain_hi = Vec2(box_width, box_height);
  std::vector<Vec2> x = sample_box_regular<2>(Vec2::Zero(), Vec2(width, height), spacing, 1.0);
  std::vector<Vec2> v(x.size(), Vec2::Zero());
  return PbfSolver<2>(options, std::move(x), std::move(v));
}

}  // namespace softsim::pbf_test
