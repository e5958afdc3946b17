#pragma once
// The cubic contact penalty of Larionov et al. 2022 (§3.2) on a signed gap d (negative when penetrating):
//   b(d) = kappa (delta - d)^3 for d < delta, 0 otherwise,
//   b'(d) = -3 kappa (delta - d)^2,  b''(d) = 6 kappa (delta - d)       (C2 at d = delta),
// and the contact force magnitude lambda = -b'(d) (eq. 3). Unlike a log barrier it is defined
// for every d, so interpenetrating states have finite energy and are pushed apart.
// Adaptive stiffness (sec. 4.4): after a converged step whose deepest contact has d < 0, kappa is
// multiplied by b'(d_deepest) / b'(delta / 2) = (delta - d_deepest)^2 / (delta / 2)^2 (> 4), so
// that the force the solution needed at d_deepest now appears at d = delta / 2.
#include <algorithm>

namespace softsim {

struct PenaltyValue {
  double value = 0, first = 0, second = 0;  // b, db/dd, d2b/dd2
};

inline PenaltyValue cubic_penalty(double d, double delta, double kappa) {
  if (!(d < delta)) return {};
  const double g = delta - d;
  return {kappa * g * g * g, -3.0 * kappa * g * g, 6.0 * kappa * g};
}

// lambda = -db/dd and its derivative d lambda / dd (for implicit friction's lambda(q)).
inline double penalty_force_magnitude(double d, double delta, double kappa) { return -cubic_penalty(d, delta, kappa).first; }
inline double penalty_force_derivative(double d, double delta, double kappa) {
  return -cubic_penalty(d, delta, kappa).second;
}

// The factor b'(d_deepest) / b'(delta / 2) of sec. 4.4; 1 when nothing penetrates.
inline double penalty_stiffness_bump(double d_deepest, double delta) {
  if (!(d_deepest < 0.0)) return 1.0;
  const double g = (delta - d_deepest) / (0.5 * delta);
  return g * g;
}

}  // namespace softsim
