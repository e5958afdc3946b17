#pragma once
// Which closed-form expression gives the squared distance between two contact primitives
// (IPC, Li et al. 2020, sec. 4.1 and Fig. 5): the closest points lie on a vertex, an edge or the
// interior of each primitive. Classification picks the true minimum: the interior type when the
// unconstrained closest points fall inside both primitives (and the primitives are not
// degenerate/parallel), otherwise the smallest of the boundary sub-problems, which is exact
// because the squared distance is convex over the (convex) pair of primitives.
//
// Naming (IPC toolkit convention): triangle edges E0 = (t0,t1), E1 = (t1,t2), E2 = (t2,t0);
// edge-edge EA0_EB1 means vertex ea0 against vertex eb1, EA_EB0 means edge a against vertex
// eb0, EA_EB means line-line.
#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products

namespace softsim {

enum class PointEdgeDistanceType { P_E0, P_E1, P_E };
enum class PointTriangleDistanceType { P_T0, P_T1, P_T2, P_E0, P_E1, P_E2, P_T };
enum class EdgeEdgeDistanceType { EA0_EB0, EA0_EB1, EA1_EB0, EA1_EB1, EA_EB0, EA_EB1, EA0_EB, EA1_EB, EA_EB };

// Relative threshold on sin^2 of the angle between the edges (|ea x eb|^2 / (|ea|^2 |eb|^2))
// below which edge-edge is treated as parallel and falls back to the point-edge types; the same
// threshold on a triangle's sin^2 of its corner angle marks it degenerate.
inline constexpr double kParallelThreshold = 1e-20;

// Each classification evaluates the squared distance of the type it picks on the way (the
// boundary sub-problems and the interior case are compared by it): when `distance_squared` is
// given, it receives that value, bitwise the one the type's closed form gives, so that a caller
// wanting the distance does not classify and then evaluate again.
PointEdgeDistanceType point_edge_distance_type(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                                               const Eigen::Vector3d& e1, double* distance_squared = nullptr);
PointEdgeDistanceType point_edge_distance_type(const Eigen::Vector2d& p, const Eigen::Vector2d& e0,
                                               const Eigen::Vector2d& e1, double* distance_squared = nullptr);
PointTriangleDistanceType point_triangle_distance_type(const Eigen::Vector3d& p, const Eigen::Vector3d& t0,
                                                       const Eigen::Vector3d& t1, const Eigen::Vector3d& t2,
                                                       double* distance_squared = nullptr);
EdgeEdgeDistanceType edge_edge_distance_type(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                             const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1,
                                             double* distance_squared = nullptr);

const char* to_string(PointEdgeDistanceType t);
const char* to_string(PointTriangleDistanceType t);
const char* to_string(EdgeEdgeDistanceType t);

}  // namespace softsim
