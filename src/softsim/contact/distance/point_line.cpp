#include "softsim/contact/distance/point_line.hpp"

#include "softsim/contact/distance/cross_product_forms.hpp"
#include "softsim/contact/distance/generic_vector.hpp"

namespace softsim {

using namespace contact_detail;

namespace {

template <class T>
T point_line_2d(const Eigen::Matrix<T, 2, 1>& p, const Eigen::Matrix<T, 2, 1>& e0, const Eigen::Matrix<T, 2, 1>& e1) {
  const Eigen::Matrix<T, 2, 1> u = e0 - p, v = e1 - p, e = e1 - e0;
  const T c = u[0] * v[1] - u[1] * v[0];
  return c * c / dot(e, e);
}

}  // namespace

double point_line_distance_squared(const Eigen::Vector3d& p, const Eigen::Vector3d& e0, const Eigen::Vector3d& e1) {
  return (e0 - p).cross(e1 - p).squaredNorm() / (e1 - e0).squaredNorm();
}

double point_line_distance_squared(const Eigen::Vector2d& p, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1) {
  const Eigen::Vector2d u = e0 - p, v = e1 - p;
  const double c = u.x() * v.y() - u.y() * v.x();
  return c * c / (e1 - e0).squaredNorm();
}

DistanceDerivatives<9> point_line_distance_derivatives(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                                                       const Eigen::Vector3d& e1) {
  // Stencil (p, e0, e1): u = e0 - p, v = e1 - p.
  return pull_back<3, 2>(cross_ratio(e0 - p, e1 - p), {1, 2}, {0, 0});
}

DistanceDerivatives<6> point_line_distance_derivatives(const Eigen::Vector2d& p, const Eigen::Vector2d& e0,
                                                       const Eigen::Vector2d& e1) {
  return to_derivatives(point_line_2d(dual_vector<6, 2>(p, 0), dual_vector<6, 2>(e0, 2), dual_vector<6, 2>(e1, 4)));
}

}  // namespace softsim
