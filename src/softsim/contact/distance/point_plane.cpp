#include "softsim/contact/distance/point_plane.hpp"

#include "softsim/contact/distance/cross_product_forms.hpp"

namespace softsim {

double point_plane_distance_squared(const Eigen::Vector3d& p, const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                    const Eigen::Vector3d& t2) {
  const Eigen::Vector3d n = (t1 - t0).cross(t2 - t0);
  const double s = n.dot(p - t0);
  return s * s / n.squaredNorm();
}

DistanceDerivatives<12> point_plane_distance_derivatives(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                                         const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  // Stencil (p, t0, t1, t2): u = t1 - t0, v = t2 - t0, w = p - t0.
  return pull_back<4, 3>(triple_product_ratio(t1 - t0, t2 - t0, p - t0), {2, 3, 0}, {1, 1, 1});
}

}  // namespace softsim
