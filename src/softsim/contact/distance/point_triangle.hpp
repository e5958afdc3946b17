#pragma once
// Squared point-triangle distance, classified over the 7 IPC types (P-T0/1/2, P-E0/1/2, P-T;
// IPC, Li et al. 2020, sec. 4.1; Li & Jiang 2025, Def. 24.1.1), with gradient and Hessian on the full
// stencil (p, t0, t1, t2). C1 everywhere (Li & Jiang 2025, Remark 24.1.1).
#include "softsim/contact/distance/derivatives.hpp"
#include "softsim/contact/distance/classification.hpp"

namespace softsim {

double point_triangle_distance_squared(const Eigen::Vector3d& p, const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                       const Eigen::Vector3d& t2);
// The same for a given type (no classification).
double point_triangle_distance_squared(PointTriangleDistanceType type, const Eigen::Vector3d& p,
                                       const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                       const Eigen::Vector3d& t2);
DistanceDerivatives<12> point_triangle_distance(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                                const Eigen::Vector3d& t1, const Eigen::Vector3d& t2);
DistanceDerivatives<12> point_triangle_distance(PointTriangleDistanceType type, const Eigen::Vector3d& p,
                                                const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                                const Eigen::Vector3d& t2);

}  // namespace softsim
