#include "softsim/contact/distance/line_line.hpp"

#include "softsim/contact/distance/generic_vector.hpp"

namespace softsim {

using namespace contact_detail;

double line_line_distance_squared(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                                  const Eigen::Vector3d& eb1) {
  const Eigen::Vector3d n = (ea1 - ea0).cross(eb1 - eb0);
  const double s = n.dot(eb0 - ea0);
  return s * s / n.squaredNorm();
}

DistanceDerivatives<12> line_line_distance_derivatives(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                                       const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  using D = Dual2<12>;
  const auto A0 = dual_vector<12, 3>(ea0, 0), A1 = dual_vector<12, 3>(ea1, 3), B0 = dual_vector<12, 3>(eb0, 6),
             B1 = dual_vector<12, 3>(eb1, 9);
  const Eigen::Matrix<D, 3, 1> ea = A1 - A0, eb = B1 - B0, w = B0 - A0;
  const Eigen::Matrix<D, 3, 1> n = cross(ea, eb);
  const D s = dot(n, w);
  const D d = s * s / dot(n, n);
  return to_derivatives(d);
}

}  // namespace softsim
