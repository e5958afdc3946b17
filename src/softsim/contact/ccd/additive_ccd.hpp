#pragma once
// Additive continuous collision detection (ACCD; Li, Kaufman, Jiang 2021, "Codimensional
// Incremental Potential Contact", Alg. 1; Li & Jiang 2025, Implementation 21.4.3 and §24.2).
// Never misses a collision of the linear trajectories x(t) = x0 + t (x1 - x0), t in [0, tmax]:
//   1. subtract the mean displacement of the stencil (distance is translation invariant);
//   2. l_p = max displacement of the first primitive + max displacement of the second (a bound
//      on the closing speed of any pair of points on them);
//   3. from d = distance - xi (xi the minimum separation), advance by the lower bound
//      t_l = s d / l_p (s = 0.9, i.e. 1 - eta of Li & Jiang 2025), re-evaluate the distance,
//      and stop when it falls below gap = (1 - s) d_0 (eta d_0), not counting the step that did;
//   4. the accumulated t is the time of impact estimate: toi <= true first contact time, and the
//      separation at toi is >= (1 - s) d_0. No collision if t exceeds tmax.
// A pair already within xi at t = 0 collides with toi = 0, and so does a pair whose computed
// distance at t = 0 is within the distance's own rounding error of xi (a few ulps of the stencil's
// extent): touching exactly at the start is a collision, whatever the motion, and a floating-point
// distance of 1e-17 must not stand for a gap (it made ACCD miss separating and sliding pairs that
// start in contact, and creep along in steps of 1e-17 / l_p). When max_iterations is reached
// (sliding in-plane or along a parallel edge at a tiny distance, where each step advances by
// s d / l_p), the query is reported colliding at the current t: every earlier time was checked
// free, so this stays conservative, and the cost per query stays bounded.
#include <Eigen/Core>

namespace softsim {

struct CcdResult {
  bool collides = false;
  double toi = 1;  // meaningful when collides; <= the true first time of contact
  long iterations = 0;  // distance evaluations after the first (0: decided at t = 0 or by the box filter)
};

// The default iteration cap: far above what a query of a simulation needs (the shared
// benchmarks' largest count is in docs/ccd.md), low enough that a degenerate query costs well
// under a millisecond.
inline constexpr long kAccdMaxIterations = 10'000;
// Distances at t = 0 at or below xi + kAccdContactUlps * epsilon * (the stencil's extent) are
// contact: the rounding error of a distance computed from exact coordinates is a few ulps of it.
inline constexpr double kAccdContactUlps = 64;

struct AccdOptions {
  double rescaling = 0.9;       // s: fraction of the distance lower bound taken per step
  double min_separation = 0;    // xi: distances below xi count as contact
  double tmax = 1;              // end of the time interval
  // Stop stepping beyond this time (<= tmax), reporting no collision: for a caller that only
  // wants impacts earlier than a time it already has (the running minimum of a step size). The
  // sequence of times does not depend on it and the box filter still covers [0, tmax], so every
  // impact reported before stop_time is exactly the one reported without it.
  double stop_time = 1;
  long max_iterations = kAccdMaxIterations;
  // Skip pairs whose trajectory boxes do not overlap (Li & Jiang 2025, Implementation 21.4.2).
  bool aabb_filter = true;
};

// Point p against triangle (t0, t1, t2), 3D.
CcdResult additive_ccd_point_triangle(const Eigen::Vector3d& p_t0, const Eigen::Vector3d& t0_t0,
                                      const Eigen::Vector3d& t1_t0, const Eigen::Vector3d& t2_t0,
                                      const Eigen::Vector3d& p_t1, const Eigen::Vector3d& t0_t1,
                                      const Eigen::Vector3d& t1_t1, const Eigen::Vector3d& t2_t1,
                                      const AccdOptions& options = {});
// Edge (ea0, ea1) against edge (eb0, eb1), 3D.
CcdResult additive_ccd_edge_edge(const Eigen::Vector3d& ea0_t0, const Eigen::Vector3d& ea1_t0,
                                 const Eigen::Vector3d& eb0_t0, const Eigen::Vector3d& eb1_t0,
                                 const Eigen::Vector3d& ea0_t1, const Eigen::Vector3d& ea1_t1,
                                 const Eigen::Vector3d& eb0_t1, const Eigen::Vector3d& eb1_t1,
                                 const AccdOptions& options = {});
// Point p against edge (e0, e1), 2D (the case of Li & Jiang 2025, §21.4).
CcdResult additive_ccd_point_edge(const Eigen::Vector2d& p_t0, const Eigen::Vector2d& e0_t0,
                                  const Eigen::Vector2d& e1_t0, const Eigen::Vector2d& p_t1,
                                  const Eigen::Vector2d& e0_t1, const Eigen::Vector2d& e1_t1,
                                  const AccdOptions& options = {});

}  // namespace softsim
