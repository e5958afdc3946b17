#pragma once
// An analytic moving shape in a particle scene (MPM's colliders, PBF's obstacles): "type" (plane,
// sphere or box), its placement ("point" and "normal"; "center" and "radius"; "center" and
// "size") and an optional translation "velocity". The caller reads its own keys and finishes.
#include "softsim/scene/json_reader.hpp"
#include "softsim/core/moving_shape.hpp"

namespace softsim {

MovingShape<3> read_moving_shape(const JsonReader& r, int dim);

// The shape in the scene's dimension (the first dim coordinates).
template <int D>
MovingShape<D> shape_in_dimension(const MovingShape<3>& s) {
  MovingShape<D> d;
  d.shape = static_cast<typename MovingShape<D>::Shape>(static_cast<int>(s.shape));
  d.point = s.point.head<D>();
  d.normal = s.normal.head<D>();
  d.radius = s.radius;
  d.half_size = s.half_size.head<D>();
  d.velocity = s.velocity.head<D>();
  return d;
}

}  // namespace softsim
