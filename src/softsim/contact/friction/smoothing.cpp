#include "softsim/contact/friction/smoothing.hpp"

#include <cmath>
#include <stdexcept>

namespace softsim {

FrictionSmoothingValue friction_smoothing(FrictionSmoothing kind, double y, double eps) {
  FrictionSmoothingValue r;
  if (kind == FrictionSmoothing::c1) {
    if (y < eps) {
      // IPC eq. 16 / Li & Jiang 2025, eq. 9.2.5: f1/y = (2 eps - y)/eps^2 is safe at y = 0.
      const double e2 = eps * eps;
      r.f0 = -y * y * y / (3 * e2) + y * y / eps + eps / 3;
      r.f1 = 2 * y / eps - y * y / e2;
      r.f1_prime = 2 / eps - 2 * y / e2;
      r.f1_over_y = (2 * eps - y) / e2;
      r.c = y > 0 ? -1.0 / (e2 * y) : 0.0;  // (f1' - f1/y)/y^2 = -y/eps^2 / y^2
    } else {
      r.f0 = y;
      r.f1 = 1;
      r.f1_prime = 0;
      r.f1_over_y = 1 / y;
      r.c = -1 / (y * y * y);
    }
  } else {
    // Larionov et al. 2022, eq. 15: s_b = y/(y + eps).
    const double ye = y + eps;
    r.f0 = y - eps * std::log1p(y / eps);
    r.f1 = y / ye;
    r.f1_prime = eps / (ye * ye);
    r.f1_over_y = 1 / ye;
    r.c = y > 0 ? -1.0 / (y * ye * ye) : 0.0;  // (eps/ye^2 - 1/ye)/y^2
  }
  return r;
}

}  // namespace softsim
