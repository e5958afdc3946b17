#include "softsim/contact/distance/classification.hpp"

#include <limits>

#include "softsim/contact/distance/line_line.hpp"
#include "softsim/contact/distance/point_line.hpp"
#include "softsim/contact/distance/point_plane.hpp"

namespace softsim {

namespace {

// Point-edge: r = e . (p - e0) / |e|^2 (Li & Jiang 2025, §21.2); r <= 0 -> e0, r >= 1 -> e1, else the line.
template <int D>
PointEdgeDistanceType pe_type(const Eigen::Matrix<double, D, 1>& p, const Eigen::Matrix<double, D, 1>& e0,
                              const Eigen::Matrix<double, D, 1>& e1) {
  const Eigen::Matrix<double, D, 1> e = e1 - e0;
  const double ee = e.squaredNorm();
  if (!(ee > 0)) return PointEdgeDistanceType::P_E0;  // degenerate edge: a point
  const double r = e.dot(p - e0) / ee;
  if (r <= 0) return PointEdgeDistanceType::P_E0;
  if (r >= 1) return PointEdgeDistanceType::P_E1;
  return PointEdgeDistanceType::P_E;
}

template <int D>
double pe_value(PointEdgeDistanceType t, const Eigen::Matrix<double, D, 1>& p, const Eigen::Matrix<double, D, 1>& e0,
                const Eigen::Matrix<double, D, 1>& e1) {
  switch (t) {
    case PointEdgeDistanceType::P_E0: return (p - e0).squaredNorm();
    case PointEdgeDistanceType::P_E1: return (p - e1).squaredNorm();
    default: return point_line_distance_squared(p, e0, e1);
  }
}

template <int D>
PointEdgeDistanceType pe_type_and_value(const Eigen::Matrix<double, D, 1>& p, const Eigen::Matrix<double, D, 1>& e0,
                                        const Eigen::Matrix<double, D, 1>& e1, double* distance_squared) {
  const PointEdgeDistanceType t = pe_type<D>(p, e0, e1);
  if (distance_squared) *distance_squared = pe_value<D>(t, p, e0, e1);
  return t;
}

}  // namespace

PointEdgeDistanceType point_edge_distance_type(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                                               const Eigen::Vector3d& e1, double* distance_squared) {
  return pe_type_and_value<3>(p, e0, e1, distance_squared);
}
PointEdgeDistanceType point_edge_distance_type(const Eigen::Vector2d& p, const Eigen::Vector2d& e0,
                                               const Eigen::Vector2d& e1, double* distance_squared) {
  return pe_type_and_value<2>(p, e0, e1, distance_squared);
}

PointTriangleDistanceType point_triangle_distance_type(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                                       const Eigen::Vector3d& t1, const Eigen::Vector3d& t2,
                                                       double* distance_squared) {
  using T = PointTriangleDistanceType;
  // Boundary: the closest of the three point-edge sub-problems.
  const Eigen::Vector3d* v[3] = {&t0, &t1, &t2};
  T best = T::P_T0;
  double best_d = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d &a = *v[k], &b = *v[(k + 1) % 3];
    const PointEdgeDistanceType pe = pe_type<3>(p, a, b);
    const double d = pe_value<3>(pe, p, a, b);
    if (d < best_d) {
      best_d = d;
      if (pe == PointEdgeDistanceType::P_E0) best = T(k);
      else if (pe == PointEdgeDistanceType::P_E1) best = T((k + 1) % 3);
      else best = T(3 + k);
    }
  }
  // Interior: barycentric coordinates of the projection, from cross products (well conditioned).
  const Eigen::Vector3d a = t1 - t0, b = t2 - t0, w = p - t0;
  const Eigen::Vector3d n = a.cross(b);
  const double nn = n.squaredNorm();
  if (nn > kParallelThreshold * a.squaredNorm() * b.squaredNorm()) {
    const double beta1 = w.cross(b).dot(n) / nn;  // coefficient of a
    const double beta2 = a.cross(w).dot(n) / nn;  // coefficient of b
    if (beta1 >= 0 && beta2 >= 0 && beta1 + beta2 <= 1) {
      const double d = point_plane_distance_squared(p, t0, t1, t2);
      if (d <= best_d) {
        best = T::P_T;
        best_d = d;
      }
    }
  }
  if (distance_squared) *distance_squared = best_d;
  return best;
}

EdgeEdgeDistanceType edge_edge_distance_type(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                             const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1,
                                             double* distance_squared) {
  using T = EdgeEdgeDistanceType;
  using PE = PointEdgeDistanceType;
  // Boundary: endpoints of one edge against the other edge.
  T best = T::EA0_EB0;
  double best_d = std::numeric_limits<double>::infinity();
  auto consider = [&](double d, T t) {
    if (d < best_d) {
      best_d = d;
      best = t;
    }
  };
  {
    const PE t = pe_type<3>(ea0, eb0, eb1);
    consider(pe_value<3>(t, ea0, eb0, eb1), t == PE::P_E0 ? T::EA0_EB0 : t == PE::P_E1 ? T::EA0_EB1 : T::EA0_EB);
  }
  {
    const PE t = pe_type<3>(ea1, eb0, eb1);
    consider(pe_value<3>(t, ea1, eb0, eb1), t == PE::P_E0 ? T::EA1_EB0 : t == PE::P_E1 ? T::EA1_EB1 : T::EA1_EB);
  }
  {
    const PE t = pe_type<3>(eb0, ea0, ea1);
    consider(pe_value<3>(t, eb0, ea0, ea1), t == PE::P_E0 ? T::EA0_EB0 : t == PE::P_E1 ? T::EA1_EB0 : T::EA_EB0);
  }
  {
    const PE t = pe_type<3>(eb1, ea0, ea1);
    consider(pe_value<3>(t, eb1, ea0, ea1), t == PE::P_E0 ? T::EA0_EB1 : t == PE::P_E1 ? T::EA1_EB1 : T::EA_EB1);
  }
  // Interior: closest points ea0 + s ea, eb0 + t eb of the two lines, from cross products.
  const Eigen::Vector3d ea = ea1 - ea0, eb = eb1 - eb0, w = eb0 - ea0;
  const Eigen::Vector3d n = ea.cross(eb);
  const double nn = n.squaredNorm();
  if (nn > kParallelThreshold * ea.squaredNorm() * eb.squaredNorm()) {
    const double s = w.cross(eb).dot(n) / nn;
    const double t = w.cross(ea).dot(n) / nn;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
      const double d = line_line_distance_squared(ea0, ea1, eb0, eb1);
      if (d <= best_d) {
        best = T::EA_EB;
        best_d = d;
      }
    }
  }
  if (distance_squared) *distance_squared = best_d;
  return best;
}

const char* to_string(PointEdgeDistanceType t) {
  static const char* names[] = {"P_E0", "P_E1", "P_E"};
  return names[int(t)];
}
const char* to_string(PointTriangleDistanceType t) {
  static const char* names[] = {"P_T0", "P_T1", "P_T2", "P_E0", "P_E1", "P_E2", "P_T"};
  return names[int(t)];
}
const char* to_string(EdgeEdgeDistanceType t) {
  static const char* names[] = {"EA0_EB0", "EA0_EB1", "EA1_EB0", "EA1_EB1", "EA_EB0",
                                "EA_EB1",  "EA0_EB",  "EA1_EB",  "EA_EB"};
  return names[int(t)];
}

}  // namespace softsim
