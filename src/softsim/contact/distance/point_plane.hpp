#pragma once
// Squared distance from point p to the plane through t0, t1, t2 (IPC, Li et al. 2020, sec. 4.1,
// type P-T): with n = (t1 - t0) x (t2 - t0), d^2 = (n . (p - t0))^2 / |n|^2. Stencil
// (p, t0, t1, t2). Undefined for a degenerate triangle (n == 0).
#include "softsim/contact/distance/derivatives.hpp"

namespace softsim {

double point_plane_distance_squared(const Eigen::Vector3d& p, const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                    const Eigen::Vector3d& t2);
DistanceDerivatives<12> point_plane_distance_derivatives(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                                         const Eigen::Vector3d& t1, const Eigen::Vector3d& t2);

}  // namespace softsim
