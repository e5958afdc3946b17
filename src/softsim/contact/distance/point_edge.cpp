#include "softsim/contact/distance/point_edge.hpp"

#include "softsim/contact/distance/point_line.hpp"
#include "softsim/contact/distance/point_point.hpp"
#include "softsim/contact/distance/scatter.hpp"

namespace softsim {

using contact_detail::scatter;

namespace {

template <int D>
double value(const Eigen::Matrix<double, D, 1>& p, const Eigen::Matrix<double, D, 1>& e0,
             const Eigen::Matrix<double, D, 1>& e1) {
  double d = 0.0;
  (void)point_edge_distance_type(p, e0, e1, &d);  // the classification's own value
  return d;
}

template <int D>
DistanceDerivatives<3 * D> derivatives(const Eigen::Matrix<double, D, 1>& p, const Eigen::Matrix<double, D, 1>& e0,
                                       const Eigen::Matrix<double, D, 1>& e1) {
  switch (point_edge_distance_type(p, e0, e1)) {
    case PointEdgeDistanceType::P_E0:
      return scatter<3 * D, D, 2>(point_point_distance_derivatives<D>(p, e0), {0, 1});
    case PointEdgeDistanceType::P_E1:
      return scatter<3 * D, D, 2>(point_point_distance_derivatives<D>(p, e1), {0, 2});
    default: return point_line_distance_derivatives(p, e0, e1);
  }
}

}  // namespace

double point_edge_distance_squared(const Eigen::Vector3d& p, const Eigen::Vector3d& e0, const Eigen::Vector3d& e1) {
  return value<3>(p, e0, e1);
}
double point_edge_distance_squared(const Eigen::Vector2d& p, const Eigen::Vector2d& e0, const Eigen::Vector2d& e1) {
  return value<2>(p, e0, e1);
}
DistanceDerivatives<9> point_edge_distance(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                                           const Eigen::Vector3d& e1) {
  return derivatives<3>(p, e0, e1);
}
DistanceDerivatives<6> point_edge_distance(const Eigen::Vector2d& p, const Eigen::Vector2d& e0,
                                           const Eigen::Vector2d& e1) {
  return derivatives<2>(p, e0, e1);
}

}  // namespace softsim
