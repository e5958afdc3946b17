#pragma once
#include "softsim/core/types.hpp"

namespace softsim {

// The dynamic state: positions and velocities of all vertices (vertex-major DOF vectors).
//
// A model whose bodies all live in a subspace and whose energy is evaluated there (reduced bodies
// with cubature: integrate/reduced_incremental_potential.hpp) is stepped in its coordinates,
// x = offset + B y, v = B y_dot (model/subspace_map.hpp). The stepper then keeps y and y_dot here
// as well. A driver that reads positions only now and then (frames, the benchmarks) sets
// `defer_positions`: a step then advances y, y_dot and t only and leaves x, v behind
// (positions_current false) until update_positions (subspace_map.hpp) writes them, so a step
// costs nothing in proportion to the mesh. Without it, every step writes x and v, and takes y
// from x and v again at the next step (they may have been changed in between).
struct State {
  VecX x;
  VecX v;
  double t = 0.0;
  VecX y{}, y_dot{};  // initialised, so that State{x, v, t} leaves them empty without a warning
  // y and y_dot are this state's coordinates (set by a step in coordinates). A driver that sets
  // defer_positions and then changes x or v must clear it, so that the next step reads them.
  bool coordinates_current = false;
  bool defer_positions = false;
  bool positions_current = true;  // x and v are this state's (false only while deferred)
};

// to = from, without the positions a deferred step left behind (they are not the state's, and
// update_positions writes them from y): copying a state stepped in coordinates costs nothing in
// proportion to the mesh. Storage is reused where the sizes allow.
inline void copy_state(const State& from, State& to) {
  if (from.positions_current) {
    to.x = from.x;
    to.v = from.v;
  }
  to.t = from.t;
  to.y = from.y;
  to.y_dot = from.y_dot;
  to.coordinates_current = from.coordinates_current;
  to.defer_positions = from.defer_positions;
  to.positions_current = from.positions_current;
}

}  // namespace softsim
