#pragma once
// The SPH smoothing kernels of position-based fluids (Müller et al. 2003; Macklin & Müller 2013,
// §3): poly6 for densities, the spiky kernel's gradient for the density constraint's gradient
// (poly6's gradient vanishes at r = 0, which lets particles clump). Both have support radius h and
// integrate to 1 over the plane (D = 2) or space (D = 3).
#include <cmath>
#include <numbers>

#include "softsim/core/types.hpp"

namespace softsim {

template <int D>
struct SphKernels {
  static_assert(D == 2 || D == 3);
  explicit SphKernels(double support) : h(support), h2(support * support) {
    const double pi = std::numbers::pi;
    if constexpr (D == 2) {
      poly6_scale = 4.0 / (pi * std::pow(h, 8));
      spiky_gradient_scale = -30.0 / (pi * std::pow(h, 5));
    } else {
      poly6_scale = 315.0 / (64.0 * pi * std::pow(h, 9));
      spiky_gradient_scale = -45.0 / (pi * std::pow(h, 6));
    }
  }

  // W_poly6(r) = K (h^2 - r^2)^3 for r < h, from the squared distance.
  double poly6(double r2) const {
    if (r2 >= h2) return 0.0;
    const double d = h2 - r2;
    return poly6_scale * d * d * d;
  }

  // grad W_spiky(r) = K' (h - |r|)^2 r / |r| for 0 < |r| < h (zero at r = 0, where it has no direction).
  VecD<D> spiky_gradient(const VecD<D>& r) const {
    const double r2 = r.squaredNorm();
    if (r2 >= h2 || r2 == 0.0) return VecD<D>::Zero();
    const double len = std::sqrt(r2);
    const double d = h - len;
    return (spiky_gradient_scale * d * d / len) * r;
  }

  // W_spiky(r) = K'' (h - |r|)^3: only for tests of the gradient above.
  double spiky(double len) const {
    if (len >= h) return 0.0;
    const double d = h - len;
    return -spiky_gradient_scale / 3.0 * d * d * d;
  }

  double h, h2;
  double poly6_scale, spiky_gradient_scale;
};

}  // namespace softsim
