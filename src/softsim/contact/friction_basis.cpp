#include "softsim/contact/friction_basis.hpp"

#include <Eigen/Geometry>

namespace softsim {

TangentBasis3 point_point_tangent_basis(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1) {
  const Eigen::Vector3d n = p1 - p0;
  const Eigen::Vector3d cx = n.cross(Eigen::Vector3d::UnitX()), cy = n.cross(Eigen::Vector3d::UnitY());
  const Eigen::Vector3d t0 = cx.squaredNorm() > cy.squaredNorm() ? cx : cy;
  TangentBasis3 T;
  T.col(0) = t0.normalized();
  T.col(1) = n.cross(t0).normalized();
  return T;
}

TangentBasis3 point_edge_tangent_basis(const Eigen::Vector3d& p, const Eigen::Vector3d& e0, const Eigen::Vector3d& e1) {
  const Eigen::Vector3d e = e1 - e0;
  TangentBasis3 T;
  T.col(0) = e.normalized();
  T.col(1) = e.cross(p - e0).normalized();
  return T;
}

TangentBasis3 point_triangle_tangent_basis(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                           const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  const Eigen::Vector3d e1 = t1 - t0, n = e1.cross(t2 - t0);
  TangentBasis3 T;
  T.col(0) = e1.normalized();
  T.col(1) = n.cross(e1).normalized();
  return T;
}

TangentBasis3 edge_edge_tangent_basis(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                      const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  const Eigen::Vector3d ea = ea1 - ea0, n = ea.cross(eb1 - eb0);
  TangentBasis3 T;
  T.col(0) = ea.normalized();
  T.col(1) = n.cross(ea).normalized();
  return T;
}

Eigen::Vector2d point_edge_tangent_basis(const Eigen::Vector2d&, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1) {
  return (e1 - e0).normalized();
}

Eigen::Vector2d point_point_tangent_basis(const Eigen::Vector2d& p0, const Eigen::Vector2d& p1) {
  const Eigen::Vector2d n = p1 - p0;
  return Eigen::Vector2d(-n.y(), n.x()).normalized();
}

Eigen::Vector2d point_triangle_closest_point(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                             const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  const Eigen::Vector3d e1 = t1 - t0, e2 = t2 - t0, r = p - t0;
  Eigen::Matrix2d A;
  A << e1.dot(e1), e1.dot(e2), e2.dot(e1), e2.dot(e2);
  return A.inverse() * Eigen::Vector2d(r.dot(e1), r.dot(e2));
}

Eigen::Vector2d edge_edge_closest_point(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                        const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  // Minimise |ea0 + alpha ea - eb0 - beta eb|^2 over (alpha, beta).
  const Eigen::Vector3d ea = ea1 - ea0, eb = eb1 - eb0, w = ea0 - eb0;
  Eigen::Matrix2d A;
  A << ea.dot(ea), -ea.dot(eb), -eb.dot(ea), eb.dot(eb);
  return A.inverse() * Eigen::Vector2d(-w.dot(ea), w.dot(eb));
}

}  // namespace softsim
