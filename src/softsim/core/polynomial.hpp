#pragma once
// Smallest root in (0, 1] of a low-degree polynomial c0 + c1 a + ... (ascending coefficients)
// with c0 > 0: the first a at which the polynomial reaches zero. The interval is split at the
// derivative's roots into monotone pieces; the first piece with a sign change is bisected.
// Returns +infinity when the polynomial stays positive on (0, 1].
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace softsim {

template <int Degree>
double polynomial_value(const std::array<double, Degree + 1>& c, double a) {
  double v = 0.0;
  for (int i = Degree; i >= 0; --i) v = v * a + c[i];
  return v;
}

// Real roots of a quadratic c0 + c1 a + c2 a^2 written to roots[], ascending; returns how many
// (0, 1 or 2; degenerate cases handled). No allocation: this runs per element per line search.
inline int quadratic_roots(double c0, double c1, double c2, double roots[2]) {
  const double scale = std::max({std::abs(c0), std::abs(c1), std::abs(c2)});
  if (scale == 0.0) return 0;
  if (std::abs(c2) <= 1e-14 * scale) {
    if (std::abs(c1) <= 1e-14 * scale) return 0;
    roots[0] = -c0 / c1;
    return 1;
  }
  const double disc = c1 * c1 - 4 * c2 * c0;
  if (disc < 0) return 0;
  // Numerically stable form (no cancellation).
  const double q = -0.5 * (c1 + std::copysign(std::sqrt(disc), c1));
  roots[0] = q / c2;
  if (q == 0.0) return 1;
  roots[1] = c0 / q;
  if (roots[1] < roots[0]) std::swap(roots[0], roots[1]);
  return 2;
}

template <int Degree>
double smallest_root_in_unit_interval(const std::array<double, Degree + 1>& c) {
  static_assert(Degree == 2 || Degree == 3);
  double critical[2];
  int num_critical = 0;
  if constexpr (Degree == 2) {
    if (c[2] != 0.0) critical[num_critical++] = -c[1] / (2 * c[2]);
  } else {
    num_critical = quadratic_roots(c[1], 2 * c[2], 3 * c[3], critical);
  }
  double breaks[4];
  int num_breaks = 0;
  breaks[num_breaks++] = 0.0;
  for (int k = 0; k < num_critical; ++k)
    if (critical[k] > 0.0 && critical[k] < 1.0) breaks[num_breaks++] = critical[k];
  breaks[num_breaks++] = 1.0;
  for (int i = 0; i + 1 < num_breaks; ++i) {
    double lo = breaks[i], hi = breaks[i + 1];
    if (polynomial_value<Degree>(c, hi) > 0.0) continue;
    for (int it = 0; it < 100; ++it) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;  // lo and hi adjacent doubles: nothing left to halve
      (polynomial_value<Degree>(c, mid) > 0.0 ? lo : hi) = mid;
    }
    return lo;  // last point known to be positive: conservative
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace softsim
