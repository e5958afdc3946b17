#include "softsim/contact/distance/line_line.hpp"

#include "softsim/contact/distance/cross_product_forms.hpp"

namespace softsim {

double line_line_distance_squared(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                                  const Eigen::Vector3d& eb1) {
  const Eigen::Vector3d n = (ea1 - ea0).cross(eb1 - eb0);
  const double s = n.dot(eb0 - ea0);
  return s * s / n.squaredNorm();
}

DistanceDerivatives<12> line_line_distance_derivatives(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                                       const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  // Stencil (ea0, ea1, eb0, eb1): u = ea1 - ea0, v = eb1 - eb0, w = eb0 - ea0.
  return pull_back<4, 3>(triple_product_ratio(ea1 - ea0, eb1 - eb0, eb0 - ea0), {1, 3, 2}, {0, 2, 0});
}

}  // namespace softsim
