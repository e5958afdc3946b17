#pragma once
// Squared point-segment distance, classified (P-E0, P-E1 or P-E line; Li & Jiang 2025, §21.2; IPC sec. 4.1),
// in 2D and 3D, with gradient and Hessian on the full stencil (p, e0, e1). C1 everywhere.
#include "softsim/contact/distance/derivatives.hpp"
#include "softsim/contact/distance/classification.hpp"

namespace softsim {

double point_edge_distance_squared(const Eigen::Vector3d& p, const Eigen::Vector3d& e0, const Eigen::Vector3d& e1);
double point_edge_distance_squared(const Eigen::Vector2d& p, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1);

DistanceDerivatives<9> point_edge_distance(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                                           const Eigen::Vector3d& e1);
DistanceDerivatives<6> point_edge_distance(const Eigen::Vector2d& p, const Eigen::Vector2d& e0,
                                           const Eigen::Vector2d& e1);

}  // namespace softsim
