#pragma once
// Cheap proofs that two primitives are at least a given distance apart, to skip the exact
// distance (classification and closed form) for the many broad-phase candidates that are not
// within the barrier's reach. Two convex sets are at least as far apart as their projections on
// any axis (the separating axis theorem); two axes are tried: the line between the primitives'
// centres (separates primitives side by side, as neighbours on a smooth surface are) and the
// common normal (the triangle's normal; the cross product of the two edges), which separates
// primitives stacked across a gap. No division, no square root, no branch on the
// closest-feature type: about a tenth of the exact classification's cost.
//
// Conservative: true only when the separation along an axis exceeds sqrt(s) by the relative
// margin kSeparationMargin, which covers the rounding of these projections and of the exact
// distance routines when the coordinates are below kSeparationCoordinateRange * sqrt(s); callers
// must check that range (separation_bound_applies) before trusting a true.
#include <Eigen/Core>

namespace softsim {

inline constexpr double kSeparationMargin = 1e-6;            // relative, on the squared distance
inline constexpr double kSeparationCoordinateRange = 1e6;    // |coordinate| / sqrt(s) at most

// Every coordinate of V within kSeparationCoordinateRange * sqrt(s) of the origin.
bool separation_bound_applies(double max_abs_coordinate, double s);

// True when the squared distance between point p and triangle (t0, t1, t2) is certainly >= s.
bool point_triangle_farther_than(const Eigen::Vector3d& p, const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                 const Eigen::Vector3d& t2, double s);
// True when the squared distance between edges (ea0, ea1) and (eb0, eb1) is certainly >= s.
bool edge_edge_farther_than(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                            const Eigen::Vector3d& eb1, double s);

}  // namespace softsim
