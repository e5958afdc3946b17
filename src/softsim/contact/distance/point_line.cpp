#include "softsim/contact/distance/point_line.hpp"

#include "softsim/contact/distance/generic_vector.hpp"

namespace softsim {

using namespace contact_detail;

namespace {

template <class T>
T point_line_3d(const Eigen::Matrix<T, 3, 1>& p, const Eigen::Matrix<T, 3, 1>& e0, const Eigen::Matrix<T, 3, 1>& e1) {
  const Eigen::Matrix<T, 3, 1> u = e0 - p, v = e1 - p, e = e1 - e0;
  const Eigen::Matrix<T, 3, 1> c = cross(u, v);
  return dot(c, c) / dot(e, e);
}

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
  return to_derivatives(point_line_3d(dual_vector<9, 3>(p, 0), dual_vector<9, 3>(e0, 3), dual_vector<9, 3>(e1, 6)));
}

DistanceDerivatives<6> point_line_distance_derivatives(const Eigen::Vector2d& p, const Eigen::Vector2d& e0,
                                                       const Eigen::Vector2d& e1) {
  return to_derivatives(point_line_2d(dual_vector<6, 2>(p, 0), dual_vector<6, 2>(e0, 2), dual_vector<6, 2>(e1, 4)));
}

}  // namespace softsim
