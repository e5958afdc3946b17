#pragma once
// Squared distance from point p to the infinite line through e0, e1 (IPC, Li et al. 2020,
// sec. 4.1, type P-E): d^2 = |(e0 - p) x (e1 - p)|^2 / |e1 - e0|^2. In 2D the cross product is
// the scalar (e0 - p)_x (e1 - p)_y - (e0 - p)_y (e1 - p)_x, which is the formula of Li & Jiang 2025, §21.2.
// Stencil order (p, e0, e1). Undefined for a degenerate edge (e0 == e1); the classified
// point_edge_distance never calls it then.
#include "softsim/contact/distance/derivatives.hpp"

namespace softsim {

double point_line_distance_squared(const Eigen::Vector3d& p, const Eigen::Vector3d& e0, const Eigen::Vector3d& e1);
double point_line_distance_squared(const Eigen::Vector2d& p, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1);

DistanceDerivatives<9> point_line_distance_derivatives(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                                                       const Eigen::Vector3d& e1);
DistanceDerivatives<6> point_line_distance_derivatives(const Eigen::Vector2d& p, const Eigen::Vector2d& e0,
                                                       const Eigen::Vector2d& e1);

}  // namespace softsim
