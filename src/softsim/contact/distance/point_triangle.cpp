#include "softsim/contact/distance/point_triangle.hpp"

#include "softsim/contact/distance/point_line.hpp"
#include "softsim/contact/distance/point_plane.hpp"
#include "softsim/contact/distance/point_point.hpp"
#include "softsim/contact/distance/scatter.hpp"

namespace softsim {

using contact_detail::scatter;
using PT = PointTriangleDistanceType;

double point_triangle_distance_squared(PT type, const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                       const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  switch (type) {
    case PT::P_T0: return (p - t0).squaredNorm();
    case PT::P_T1: return (p - t1).squaredNorm();
    case PT::P_T2: return (p - t2).squaredNorm();
    case PT::P_E0: return point_line_distance_squared(p, t0, t1);
    case PT::P_E1: return point_line_distance_squared(p, t1, t2);
    case PT::P_E2: return point_line_distance_squared(p, t2, t0);
    case PT::P_T: return point_plane_distance_squared(p, t0, t1, t2);
  }
  return 0;
}

double point_triangle_distance_squared(const Eigen::Vector3d& p, const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                       const Eigen::Vector3d& t2) {
  double d = 0.0;
  (void)point_triangle_distance_type(p, t0, t1, t2, &d);  // the classification's own value: one pass
  return d;
}

DistanceDerivatives<12> point_triangle_distance(PT type, const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                                const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  switch (type) {
    case PT::P_T0: return scatter<12, 3, 2>(point_point_distance_derivatives<3>(p, t0), {0, 1});
    case PT::P_T1: return scatter<12, 3, 2>(point_point_distance_derivatives<3>(p, t1), {0, 2});
    case PT::P_T2: return scatter<12, 3, 2>(point_point_distance_derivatives<3>(p, t2), {0, 3});
    case PT::P_E0: return scatter<12, 3, 3>(point_line_distance_derivatives(p, t0, t1), {0, 1, 2});
    case PT::P_E1: return scatter<12, 3, 3>(point_line_distance_derivatives(p, t1, t2), {0, 2, 3});
    case PT::P_E2: return scatter<12, 3, 3>(point_line_distance_derivatives(p, t2, t0), {0, 3, 1});
    case PT::P_T: return point_plane_distance_derivatives(p, t0, t1, t2);
  }
  return {};
}

DistanceDerivatives<12> point_triangle_distance(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                                const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  return point_triangle_distance(point_triangle_distance_type(p, t0, t1, t2), p, t0, t1, t2);
}

}  // namespace softsim
