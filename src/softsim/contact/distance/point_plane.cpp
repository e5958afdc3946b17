#include "softsim/contact/distance/point_plane.hpp"

#include "softsim/contact/distance/generic_vector.hpp"

namespace softsim {

using namespace contact_detail;

double point_plane_distance_squared(const Eigen::Vector3d& p, const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                    const Eigen::Vector3d& t2) {
  const Eigen::Vector3d n = (t1 - t0).cross(t2 - t0);
  const double s = n.dot(p - t0);
  return s * s / n.squaredNorm();
}

DistanceDerivatives<12> point_plane_distance_derivatives(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                                         const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  using D = Dual2<12>;
  const auto P = dual_vector<12, 3>(p, 0), T0 = dual_vector<12, 3>(t0, 3), T1 = dual_vector<12, 3>(t1, 6),
             T2 = dual_vector<12, 3>(t2, 9);
  const Eigen::Matrix<D, 3, 1> a = T1 - T0, b = T2 - T0, w = P - T0;
  const Eigen::Matrix<D, 3, 1> n = cross(a, b);
  const D s = dot(n, w);
  const D d = s * s / dot(n, n);
  return to_derivatives(d);
}

}  // namespace softsim
