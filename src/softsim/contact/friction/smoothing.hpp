#pragma once
// Smoothed friction magnitudes (stick-slip transition) as functions of the tangential
// displacement norm y = |T^T u| >= 0, with eps = eps_v h (a displacement).
//  - c1: IPC (Li et al. 2020, eqs. 14-16; Li & Jiang 2025, §9.1-9.2; Larionov et al. 2022, eq. 14, s_a):
//      f1(y) = 2y/eps - y^2/eps^2 for y < eps, else 1
//      f0(y) = -y^3/(3 eps^2) + y^2/eps + eps/3 for y < eps, else y      (f0' = f1)
//  - rational: Larionov et al. 2022, eq. 15, s_b(y) = y/(y + eps):
//      f1(y) = y/(y + eps),  f0(y) = y - eps ln(1 + y/eps)              (f0' = f1, f0(0) = 0)
// For the derivatives of f0(|z|), z in R^m:
//   grad_z = (f1(y)/y) z,   hess_z = (f1(y)/y) I + c(y) z z^T,   c(y) = (f1'(y) - f1(y)/y) / y^2,
// with the limits at y = 0 taken safely: f1/y -> 2/eps (c1) or 1/eps (rational), and
// c(y) z z^T -> 0 (|c| y^2 -> 0), so c = 0 is returned at y = 0.
#include <string>

#include "softsim/core/enum_names.hpp"

namespace softsim {

enum class FrictionSmoothing { c1, rational };

template <>
struct EnumNames<FrictionSmoothing> {
  static constexpr std::pair<FrictionSmoothing, const char*> table[] = {{FrictionSmoothing::c1, "c1"},
                                                                        {FrictionSmoothing::rational, "rational"}};
};

struct FrictionSmoothingValue {
  double f0 = 0;         // mollified magnitude (potential)
  double f1 = 0;         // f0'
  double f1_prime = 0;   // f1' = f0''
  double f1_over_y = 0;  // f1(y)/y, finite at 0
  double c = 0;          // (f1' - f1/y) / y^2, 0 at y = 0
};

FrictionSmoothingValue friction_smoothing(FrictionSmoothing kind, double y, double eps);

inline double friction_f0(FrictionSmoothing k, double y, double eps) { return friction_smoothing(k, y, eps).f0; }
inline double friction_f1(FrictionSmoothing k, double y, double eps) { return friction_smoothing(k, y, eps).f1; }
inline double friction_f1_over_y(FrictionSmoothing k, double y, double eps) {
  return friction_smoothing(k, y, eps).f1_over_y;
}

}  // namespace softsim
