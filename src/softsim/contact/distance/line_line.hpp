#pragma once
// Squared distance between the infinite lines through ea0, ea1 and eb0, eb1 (IPC, Li et al.
// 2020, sec. 4.1, type EA-EB): with n = (ea1 - ea0) x (eb1 - eb0),
// d^2 = (n . (eb0 - ea0))^2 / |n|^2. Stencil (ea0, ea1, eb0, eb1). Undefined for parallel lines
// (n == 0); the classified edge_edge_distance falls back to point-edge types there.
#include "softsim/contact/distance/derivatives.hpp"

namespace softsim {

double line_line_distance_squared(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                                  const Eigen::Vector3d& eb1);
DistanceDerivatives<12> line_line_distance_derivatives(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                                       const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1);

}  // namespace softsim
