#include "softsim/contact/friction/basis.hpp"

#include "softsim/contact/friction/frame.hpp"

namespace softsim {

// The double versions of the scalar-generic frames (friction/frame.hpp).

TangentBasis3 point_point_tangent_basis(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1) {
  return point_point_basis<double>(p0, p1);
}

TangentBasis3 point_edge_tangent_basis(const Eigen::Vector3d& p, const Eigen::Vector3d& e0, const Eigen::Vector3d& e1) {
  return point_edge_basis<double>(p, e0, e1);
}

TangentBasis3 point_triangle_tangent_basis(const Eigen::Vector3d&, const Eigen::Vector3d& t0,
                                           const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  return plane_basis<double>(t1 - t0, t2 - t0);
}

TangentBasis3 edge_edge_tangent_basis(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                      const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  return plane_basis<double>(ea1 - ea0, eb1 - eb0);
}

Eigen::Vector2d point_edge_tangent_basis(const Eigen::Vector2d&, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1) {
  return point_edge_basis<double>(e0, e1);
}

Eigen::Vector2d point_point_tangent_basis(const Eigen::Vector2d& p0, const Eigen::Vector2d& p1) {
  return point_point_basis<double>(p0, p1);
}

Eigen::Vector2d point_triangle_closest_point(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                             const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  const auto c = point_triangle_coordinates<double>(p, t0, t1, t2);
  return {c[0], c[1]};
}

Eigen::Vector2d edge_edge_closest_point(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                        const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  const auto c = edge_edge_coordinates<double>(ea0, ea1, eb0, eb1);
  return {c[0], c[1]};
}

}  // namespace softsim
