#pragma once
#include "softsim/core/types.hpp"

namespace softsim {

// The dynamic state: positions and velocities of all vertices (vertex-major DOF vectors).
struct State {
  VecX x;
  VecX v;
  double t = 0.0;
};

}  // namespace softsim
