#pragma once
// Smallest root in (0, 1] of a low-degree polynomial c0 + c1 a + ... (ascending coefficients)
// with c0 > 0: the first a at which the polynomial reaches zero. The interval is split at the
// derivative's roots into monotone pieces; the first piece with a sign change is bisected.
// Returns +infinity when the polynomial stays positive on (0, 1].
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace softsim {

template <int Degree>
double polynomial_value(const std::array<double, Degree + 1>& c, double a) {
  double v = 0.0;
  for (int i = Degree; i >= 0; --i) v = v * a + c[i];
  return v;
}

// Real roots of a quadratic c0 + c1 a + c2 a^2 (0, 1 or 2 values; degenerate cases handled).
inline std::vector<double> quadratic_roots(double c0, double c1, double c2) {
  const double scale = std::max({std::abs(c0), std::abs(c1), std::abs(c2)});
  if (scale == 0.0) return {};
  if (std::abs(c2) <= 1e-14 * scale) {
    if (std::abs(c1) <= 1e-14 * scale) return {};
    return {-c0 / c1};
  }
  const double disc = c1 * c1 - 4 * c2 * c0;
  if (disc < 0) return {};
  // Numerically stable form (no cancellation).
  const double q = -0.5 * (c1 + std::copysign(std::sqrt(disc), c1));
  std::vector<double> roots{q / c2};
  if (q != 0.0) roots.push_back(c0 / q);
  std::sort(roots.begin(), roots.end());
  return roots;
}

template <int Degree>
double smallest_root_in_unit_interval(const std::array<double, Degree + 1>& c) {
  static_assert(Degree == 2 || Degree == 3);
  std::vector<double> breaks{0.0};
  std::vector<double> critical = Degree == 2 ? std::vector<double>{-c[1] / (2 * c[2])}
                                             : quadratic_roots(c[1], 2 * c[2], 3 * c[3]);
  if (Degree == 2 && c[2] == 0.0) critical.clear();
  for (double r : critical)
    if (r > 0.0 && r < 1.0) breaks.push_back(r);
  breaks.push_back(1.0);
  for (std::size_t i = 0; i + 1 < breaks.size(); ++i) {
    double lo = breaks[i], hi = breaks[i + 1];
    if (polynomial_value<Degree>(c, hi) > 0.0) continue;
    for (int it = 0; it < 100; ++it) {
      const double mid = 0.5 * (lo + hi);
      (polynomial_value<Degree>(c, mid) > 0.0 ? lo : hi) = mid;
    }
    return lo;  // last point known to be positive: conservative
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace softsim
