#pragma once
// What an integrator tells the model's terms about the solve in progress (compare MuJoCo, where
// the model is constant and everything a step writes is passed in): the time step [t0, t0 + h],
// the fraction of it at which the solve's unknown lives (a TR-BDF2 stage ends at t0 + h/2), and
// the solve's velocity as a function of its positions, v(x) = velocity_scale (x - velocity_reference)
// (backward Euler: (x - x^n) / h; a DIRK stage of length k: (x - Q) / k). Terms read what they
// need: moving penalty targets the time, lagged friction the velocity map. One value per solve,
// passed to every evaluation, instead of setters on the terms.
#include "softsim/core/types.hpp"

namespace softsim {

struct Stage {
  double t0 = 0.0;        // start of the step (s)
  double h = 0.0;         // step size (s); 0 outside a time step (static solves, one-off evaluations)
  double fraction = 1.0;  // the solve's unknown lives at t0 + fraction h
  VecX velocity_reference;     // v(x) = velocity_scale (x - velocity_reference) ...
  double velocity_scale = 0.0;  // ... when > 0; 0: the solve has no velocity map

  bool has_velocity_map() const { return velocity_scale > 0.0; }
  double time() const { return t0 + fraction * h; }

  // The step as it begins: at its end (fraction 1), no velocity map.
  static Stage step(double t0, double h) {
    Stage s;
    s.t0 = t0;
    s.h = h;
    return s;
  }
};

}  // namespace softsim
