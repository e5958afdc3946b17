#pragma once
// Squared edge-edge (segment-segment) distance, classified over the 9 IPC types (4 point-point,
// 4 point-edge, line-line; IPC, Li et al. 2020, sec. 4.1; Li & Jiang 2025, Def. 24.1.2); (nearly) parallel
// edges fall back to the point-edge types. Gradient and Hessian on the full stencil
// (ea0, ea1, eb0, eb1). Only C0 at parallel edges: the barrier multiplies it by the mollifier
// (edge_edge_mollifier.hpp).
#include "softsim/contact/distance/derivatives.hpp"
#include "softsim/contact/distance/classification.hpp"

namespace softsim {

double edge_edge_distance_squared(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                                  const Eigen::Vector3d& eb1);
double edge_edge_distance_squared(EdgeEdgeDistanceType type, const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                  const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1);
DistanceDerivatives<12> edge_edge_distance(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                           const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1);
DistanceDerivatives<12> edge_edge_distance(EdgeEdgeDistanceType type, const Eigen::Vector3d& ea0,
                                           const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                                           const Eigen::Vector3d& eb1);

}  // namespace softsim
