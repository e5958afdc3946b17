#pragma once
// B-spline interpolation kernels of the material point method (Li & Jiang 2025, ch. 27-28; Jiang
// et al. 2016, "The material point method for simulating continuum materials", §9): a
// particle's weight on grid node i along one axis is N((x_p - x_i) / dx), and the D-dimensional
// weight is the product over the axes. Quadratic: 3/4 - d^2 for |d| < 1/2, (3/2 - |d|)^2 / 2 for
// |d| < 3/2 (3 nodes per axis). Cubic: |d|^3 / 2 - d^2 + 2/3 for |d| < 1, (2 - |d|)^3 / 6 for
// |d| < 2 (4 nodes per axis). Both are partitions of unity and reproduce linear functions.
#include <array>
#include <cmath>

namespace softsim {

enum class MpmKernel { quadratic, cubic };

// Nodes per axis a particle touches.
constexpr int kernel_support(MpmKernel k) { return k == MpmKernel::quadratic ? 3 : 4; }

// The APIC inertia-like tensor D = s I (Jiang et al. 2015, "The affine particle-in-cell method"):
// s = dx^2 / 4 for the quadratic kernel, dx^2 / 3 for the cubic.
inline double apic_inertia_scale(MpmKernel k, double dx) {
  return k == MpmKernel::quadratic ? dx * dx / 4.0 : dx * dx / 3.0;
}

// N(d) and N'(d) for a distance d in cells.
inline double kernel_value(MpmKernel k, double d) {
  const double a = std::abs(d);
  if (k == MpmKernel::quadratic) {
    if (a < 0.5) return 0.75 - a * a;
    if (a < 1.5) return 0.5 * (1.5 - a) * (1.5 - a);
    return 0.0;
  }
  if (a < 1.0) return 0.5 * a * a * a - a * a + 2.0 / 3.0;
  if (a < 2.0) return (2.0 - a) * (2.0 - a) * (2.0 - a) / 6.0;
  return 0.0;
}

inline double kernel_derivative(MpmKernel k, double d) {
  const double a = std::abs(d), s = d < 0 ? -1.0 : 1.0;
  if (k == MpmKernel::quadratic) {
    if (a < 0.5) return -2.0 * d;
    if (a < 1.5) return -s * (1.5 - a);
    return 0.0;
  }
  if (a < 1.0) return s * (1.5 * a * a - 2.0 * a);
  if (a < 2.0) return -s * 0.5 * (2.0 - a) * (2.0 - a);
  return 0.0;
}

// One axis of a particle's stencil: the first node it touches and, for each of the support's
// nodes, the weight and its derivative with respect to the particle's coordinate (1/m).
struct AxisWeights {
  int base = 0;
  std::array<double, 4> w{}, dw{};
};

// The first node along one axis that a particle at x (relative to the grid origin, metres)
// touches: what bucketing particles by block needs, without the weights.
inline int axis_base(MpmKernel k, double x, double dx) {
  const double u = x / dx;
  return k == MpmKernel::quadratic ? static_cast<int>(std::floor(u - 0.5)) : static_cast<int>(std::floor(u)) - 1;
}

// x: the particle's coordinate relative to the grid origin, in metres.
inline AxisWeights axis_weights(MpmKernel k, double x, double dx) {
  const double u = x / dx;
  AxisWeights a;
  a.base = axis_base(k, x, dx);
  for (int n = 0; n < kernel_support(k); ++n) {
    const double d = u - (a.base + n);
    a.w[n] = kernel_value(k, d);
    a.dw[n] = kernel_derivative(k, d) / dx;
  }
  return a;
}

}  // namespace softsim
