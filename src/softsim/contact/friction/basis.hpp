#pragma once
// Double-precision entry points of friction/frame.hpp (scalar-generic). Tangent bases T (3x2, orthonormal columns spanning the plane orthogonal to the contact
// normal; 2x1 in 2D) and closest-point coordinates of the IPC friction formulation (Li et al.
// 2020, sec. 5 and supplement; the data README of friction/ipc-cube-cube), all evaluated at the
// lagged positions. The friction potential depends on T only through T T^T, so any orthonormal
// basis of the tangent plane gives the same energy; these follow the IPC code's choice.
//  - point-point (p0, p1): normal p1 - p0; T from its cross products with the x or y axis.
//  - point-edge (p, e0, e1): T = [e/|e|, (e x (p - e0))/|..|],  alpha = (p - e0).e / |e|^2.
//  - point-triangle (p, t0, t1, t2): T = [e1/|e1|, ((e1 x e2) x e1)/|..|], e1 = t1 - t0,
//    e2 = t2 - t0; (beta1, beta2) solve the 2x2 normal equations, closest t0 + beta1 e1 + beta2 e2.
//  - edge-edge (ea0, ea1, eb0, eb1): T = [ea/|ea|, ((ea x eb) x ea)/|..|]; (alpha, beta) the
//    line-line closest points ea0 + alpha ea, eb0 + beta eb.
//  - 2D point-edge: T = e/|e| (2x1).
// The coordinates are those of the unconstrained (line / plane) problems, as IPC uses them for
// the distance type already chosen by classification.
#include <Eigen/Core>

#include "softsim/contact/friction/frame.hpp"

namespace softsim {

using TangentBasis3 = Eigen::Matrix<double, 3, 2>;

TangentBasis3 point_point_tangent_basis(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1);
TangentBasis3 point_edge_tangent_basis(const Eigen::Vector3d& p, const Eigen::Vector3d& e0, const Eigen::Vector3d& e1);
TangentBasis3 point_triangle_tangent_basis(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                           const Eigen::Vector3d& t1, const Eigen::Vector3d& t2);
TangentBasis3 edge_edge_tangent_basis(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                      const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1);
Eigen::Vector2d point_edge_tangent_basis(const Eigen::Vector2d& p, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1);
// 2D point-point: the unit vector orthogonal to p1 - p0.
Eigen::Vector2d point_point_tangent_basis(const Eigen::Vector2d& p0, const Eigen::Vector2d& p1);

template <int D>
double point_edge_closest_point(const Eigen::Matrix<double, D, 1>& p, const Eigen::Matrix<double, D, 1>& e0,
                                const Eigen::Matrix<double, D, 1>& e1) {
  return point_edge_coordinate<double, D>(p, e0, e1);
}
Eigen::Vector2d point_triangle_closest_point(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                             const Eigen::Vector3d& t1, const Eigen::Vector3d& t2);
Eigen::Vector2d edge_edge_closest_point(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                        const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1);

}  // namespace softsim
