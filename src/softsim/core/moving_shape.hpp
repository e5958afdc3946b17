#pragma once
// An analytic rigid shape that particle methods keep their particles out of (MPM's colliders,
// position-based fluids' obstacles): a plane, a sphere (a disk in 2D) or an axis-aligned box,
// translating at a constant velocity.
#include "softsim/core/types.hpp"

namespace softsim {

template <int D>
struct MovingShape {
  enum class Shape { plane, sphere, box } shape = Shape::plane;
  VecD<D> point = VecD<D>::Zero();   // plane: a point on it; sphere and box: the centre at t = 0
  VecD<D> normal = VecD<D>::UnitY();  // plane: normal towards the free side (normalized when used)
  double radius = 0.1;                // sphere
  VecD<D> half_size = VecD<D>::Constant(0.1);  // box
  VecD<D> velocity = VecD<D>::Zero();  // rigid translation

  // Signed distance of x from the surface at time t (negative inside) and the outward normal.
  double signed_distance(const VecD<D>& x, double t, VecD<D>& outward) const;
};

}  // namespace softsim
