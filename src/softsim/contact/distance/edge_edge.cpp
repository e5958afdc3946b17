#include "softsim/contact/distance/edge_edge.hpp"

#include "softsim/contact/distance/line_line.hpp"
#include "softsim/contact/distance/point_line.hpp"
#include "softsim/contact/distance/point_point.hpp"
#include "softsim/contact/distance/scatter.hpp"

namespace softsim {

using contact_detail::scatter;
using EE = EdgeEdgeDistanceType;

double edge_edge_distance_squared(EE type, const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                  const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  switch (type) {
    case EE::EA0_EB0: return (ea0 - eb0).squaredNorm();
    case EE::EA0_EB1: return (ea0 - eb1).squaredNorm();
    case EE::EA1_EB0: return (ea1 - eb0).squaredNorm();
    case EE::EA1_EB1: return (ea1 - eb1).squaredNorm();
    case EE::EA_EB0: return point_line_distance_squared(eb0, ea0, ea1);
    case EE::EA_EB1: return point_line_distance_squared(eb1, ea0, ea1);
    case EE::EA0_EB: return point_line_distance_squared(ea0, eb0, eb1);
    case EE::EA1_EB: return point_line_distance_squared(ea1, eb0, eb1);
    case EE::EA_EB: return line_line_distance_squared(ea0, ea1, eb0, eb1);
  }
  return 0;
}

double edge_edge_distance_squared(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1, const Eigen::Vector3d& eb0,
                                  const Eigen::Vector3d& eb1) {
  double d = 0.0;
  (void)edge_edge_distance_type(ea0, ea1, eb0, eb1, &d);  // the classification's own value: one pass
  return d;
}

DistanceDerivatives<12> edge_edge_distance(EE type, const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                           const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  switch (type) {
    case EE::EA0_EB0: return scatter<12, 3, 2>(point_point_distance_derivatives<3>(ea0, eb0), {0, 2});
    case EE::EA0_EB1: return scatter<12, 3, 2>(point_point_distance_derivatives<3>(ea0, eb1), {0, 3});
    case EE::EA1_EB0: return scatter<12, 3, 2>(point_point_distance_derivatives<3>(ea1, eb0), {1, 2});
    case EE::EA1_EB1: return scatter<12, 3, 2>(point_point_distance_derivatives<3>(ea1, eb1), {1, 3});
    case EE::EA_EB0: return scatter<12, 3, 3>(point_line_distance_derivatives(eb0, ea0, ea1), {2, 0, 1});
    case EE::EA_EB1: return scatter<12, 3, 3>(point_line_distance_derivatives(eb1, ea0, ea1), {3, 0, 1});
    case EE::EA0_EB: return scatter<12, 3, 3>(point_line_distance_derivatives(ea0, eb0, eb1), {0, 2, 3});
    case EE::EA1_EB: return scatter<12, 3, 3>(point_line_distance_derivatives(ea1, eb0, eb1), {1, 2, 3});
    case EE::EA_EB: return line_line_distance_derivatives(ea0, ea1, eb0, eb1);
  }
  return {};
}

DistanceDerivatives<12> edge_edge_distance(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                           const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  return edge_edge_distance(edge_edge_distance_type(ea0, ea1, eb0, eb1), ea0, ea1, eb0, eb1);
}

}  // namespace softsim
