#include "softsim/contact/ccd/additive_ccd.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/distance/point_edge.hpp"
#include "softsim/contact/distance/point_triangle.hpp"

namespace softsim {

namespace {

template <int D>
using V = Eigen::Matrix<double, D, 1>;

// Do the boxes of the swept vertices [0, K1) and [K1, K) overlap (inflated by xi)?
template <int D, int K>
bool swept_boxes_overlap(const std::array<V<D>, K>& x0, const std::array<V<D>, K>& x1, int K1, double xi, double tmax) {
  V<D> lo[2], hi[2];
  for (int g = 0; g < 2; ++g) {
    lo[g].setConstant(std::numeric_limits<double>::infinity());
    hi[g].setConstant(-std::numeric_limits<double>::infinity());
  }
  for (int i = 0; i < K; ++i) {
    const int g = i < K1 ? 0 : 1;
    const V<D> end = x0[i] + tmax * (x1[i] - x0[i]);
    lo[g] = lo[g].cwiseMin(x0[i]).cwiseMin(end);
    hi[g] = hi[g].cwiseMax(x0[i]).cwiseMax(end);
  }
  return ((lo[0].array() - xi <= hi[1].array()) && (lo[1].array() - xi <= hi[0].array())).all();
}

// ACCD on a stencil of K vertices, the first K1 forming the first primitive. dist2 gives the
// squared distance of a stencil configuration.
template <int D, int K, class Dist2>
CcdResult accd(const std::array<V<D>, K>& x0, const std::array<V<D>, K>& x1, int K1, Dist2 dist2,
               const AccdOptions& o) {
  if (o.aabb_filter && !swept_boxes_overlap<D, K>(x0, x1, K1, o.min_separation, o.tmax)) return {false, o.tmax};
  std::array<V<D>, K> dx;
  V<D> mean = V<D>::Zero();
  for (int i = 0; i < K; ++i) {
    dx[i] = x1[i] - x0[i];
    mean += dx[i];
  }
  mean /= K;
  double max_a = 0, max_b = 0;
  for (int i = 0; i < K; ++i) {
    dx[i] -= mean;  // step 1: relative displacement
    (i < K1 ? max_a : max_b) = std::max(i < K1 ? max_a : max_b, dx[i].squaredNorm());
  }
  const double lp = std::sqrt(max_a) + std::sqrt(max_b);  // step 2
  const double xi = o.min_separation, xi2 = xi * xi;

  // d - xi computed as (d^2 - xi^2)/(d + xi) for accuracy.
  auto gap_of = [&](const std::array<V<D>, K>& x) {
    const double d2 = dist2(x);
    return (d2 - xi2) / (std::sqrt(d2) + xi);
  };
  double extent = 0;
  for (int i = 1; i < K; ++i) extent = std::max(extent, (x0[i] - x0[0]).norm());
  const double contact_tolerance = kAccdContactUlps * std::numeric_limits<double>::epsilon() * extent;
  double d = gap_of(x0);
  if (!(d > contact_tolerance)) return {true, 0};  // in contact at t = 0 (or within xi)
  if (lp == 0) return {false, o.tmax};               // no relative motion
  const double gap = (1 - o.rescaling) * d;

  std::array<V<D>, K> x;
  double t = 0;
  long it = 0;
  for (;; ++it) {
    const double tl = o.rescaling * d / lp;  // step 3: safe advance
    const double t_next = t + tl;
    for (int i = 0; i < K; ++i) x[i] = x0[i] + t_next * dx[i];
    d = gap_of(x);
    if (t > 0 && d < gap) break;
    t = t_next;
    if (t > o.tmax || t > o.stop_time) return {false, o.tmax, it + 1};
    if (it + 1 >= o.max_iterations) break;
  }
  return {true, t, it + 1};
}

}  // namespace

CcdResult additive_ccd_point_triangle(const Eigen::Vector3d& p_t0, const Eigen::Vector3d& t0_t0,
                                      const Eigen::Vector3d& t1_t0, const Eigen::Vector3d& t2_t0,
                                      const Eigen::Vector3d& p_t1, const Eigen::Vector3d& t0_t1,
                                      const Eigen::Vector3d& t1_t1, const Eigen::Vector3d& t2_t1,
                                      const AccdOptions& options) {
  return accd<3, 4>({p_t0, t0_t0, t1_t0, t2_t0}, {p_t1, t0_t1, t1_t1, t2_t1}, 1,
                    [](const std::array<V<3>, 4>& x) { return point_triangle_distance_squared(x[0], x[1], x[2], x[3]); },
                    options);
}

CcdResult additive_ccd_edge_edge(const Eigen::Vector3d& ea0_t0, const Eigen::Vector3d& ea1_t0,
                                 const Eigen::Vector3d& eb0_t0, const Eigen::Vector3d& eb1_t0,
                                 const Eigen::Vector3d& ea0_t1, const Eigen::Vector3d& ea1_t1,
                                 const Eigen::Vector3d& eb0_t1, const Eigen::Vector3d& eb1_t1,
                                 const AccdOptions& options) {
  return accd<3, 4>({ea0_t0, ea1_t0, eb0_t0, eb1_t0}, {ea0_t1, ea1_t1, eb0_t1, eb1_t1}, 2,
                    [](const std::array<V<3>, 4>& x) { return edge_edge_distance_squared(x[0], x[1], x[2], x[3]); },
                    options);
}

CcdResult additive_ccd_point_edge(const Eigen::Vector2d& p_t0, const Eigen::Vector2d& e0_t0,
                                  const Eigen::Vector2d& e1_t0, const Eigen::Vector2d& p_t1,
                                  const Eigen::Vector2d& e0_t1, const Eigen::Vector2d& e1_t1,
                                  const AccdOptions& options) {
  return accd<2, 3>({p_t0, e0_t0, e1_t0}, {p_t1, e0_t1, e1_t1}, 1,
                    [](const std::array<V<2>, 3>& x) { return point_edge_distance_squared(x[0], x[1], x[2]); },
                    options);
}

}  // namespace softsim
