#include "softsim/contact/distance/separation_bound.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

namespace softsim {

namespace {
// The projections onto the axis, scaled by |axis|, are separated by `gap_times_length`:
// the separation is gap_times_length / |axis| >= sqrt(s) (1 + margin), without a square root.
bool separated(double gap_times_length, double axis_squared, double s) {
  return gap_times_length > 0.0 && gap_times_length * gap_times_length >= (1.0 + kSeparationMargin) * s * axis_squared;
}
}  // namespace

bool separation_bound_applies(double max_abs_coordinate, double s) {
  // Rounding moves each projection by a few ulps of the coordinates: at most ~1e-15 of the
  // coordinates, i.e. below 1e-9 sqrt(s) within the range, far inside the margin.
  return s > 0.0 && max_abs_coordinate * max_abs_coordinate <= kSeparationCoordinateRange * kSeparationCoordinateRange * s;
}

bool point_triangle_farther_than(const Eigen::Vector3d& p, const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                 const Eigen::Vector3d& t2, double s) {
  const Eigen::Vector3d a = t1 - t0, b = t2 - t0, w = p - t0;
  // The normal: the triangle projects to {0, a.n, b.n} (zero up to rounding), the point to w.n.
  const Eigen::Vector3d n = a.cross(b);
  const double wn = w.dot(n), an = a.dot(n), bn = b.dot(n);
  const double n_gap = std::max(wn - std::max({0.0, an, bn}), std::min({0.0, an, bn}) - wn);
  if (separated(n_gap, n.squaredNorm(), s)) return true;
  // The line from the centroid to the point: the point lies beyond every corner along c.
  const Eigen::Vector3d c = w - (a + b) / 3.0;
  const double c_gap = w.dot(c) - std::max({0.0, a.dot(c), b.dot(c)});
  return separated(c_gap, c.squaredNorm(), s);
}

bool edge_edge_farther_than(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                            const Eigen::Vector3d& eb1, double s) {
  // Relative to ea0: edge a is {0, ea}, edge b is {w, w + eb}.
  const Eigen::Vector3d ea = ea1 - ea0, eb = eb1 - eb0, w = eb0 - ea0;
  const Eigen::Vector3d n = ea.cross(eb);
  const double wn = w.dot(n), an = ea.dot(n), bn = eb.dot(n);
  const double n_gap = std::max(std::min(wn, wn + bn) - std::max(0.0, an), std::min(0.0, an) - std::max(wn, wn + bn));
  if (separated(n_gap, n.squaredNorm(), s)) return true;
  // The line between the midpoints, pointing from a to b.
  const Eigen::Vector3d c = w + 0.5 * (eb - ea);
  const double wc = w.dot(c), bc = eb.dot(c);
  const double c_gap = std::min(wc, wc + bc) - std::max(0.0, ea.dot(c));
  return separated(c_gap, c.squaredNorm(), s);
}

}  // namespace softsim
