#pragma once
// Analytic obstacles (Li & Jiang 2025, §7.1): a half-space, a sphere or an axis-aligned box, and the
// signed distance of a point to each, positive outside. The distance is a template on the
// scalar type: double for values, Jet<N> (core/jet.hpp) for exact gradients and Hessians, Dual
// (core/dual.hpp) for directional derivatives (forward mode, matrix-free products).
//   plane:  d = n . (x - p)
//   sphere: d = |x - c| - r
//   box:    outside, the distance to the nearest point of the box, |max(q, 0)| with
//           q_k = |x_k - c_k| - e_k per axis; inside, the largest q_k (minus the depth to the
//           nearest face). Branches are taken on the values (piecewise smooth).
#include <Eigen/Core>
#include <cmath>
#include <string>

#include "softsim/core/dual.hpp"
#include "softsim/core/jet.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

struct AnalyticObstacle {
  enum class Shape { Plane, Sphere, Box } shape = Shape::Plane;
  VecX point;   // plane: a point on it; sphere / box: the centre
  VecX normal;  // plane: unit normal towards the bodies
  double radius = 0.0;  // sphere
  VecX half_extents;    // box
  // A moving obstacle (penalty and constraint contact; the barrier keeps its own): the model
  // vertex whose position is the obstacle's current `point`, so the obstacle is translated by
  // x_pose - point and a vertex p sees it at the rest pose from p - x_pose + point. -1: static.
  // Contacts with it are two-vertex point_obstacle stencils (p, pose).
  int pose_vertex = -1;
};

// An obstacle as a scene names it (outputs, messages).
struct NamedObstacle {
  std::string name;
  AnalyticObstacle shape;
};

// p seen from the obstacle's rest pose: p - (x_pose - point) for a moving obstacle (pose the
// pose vertex's position), p itself for a static one (pose unused).
template <class T, int D>
Eigen::Matrix<T, D, 1> relative_to_rest_pose(const AnalyticObstacle& o, const Eigen::Matrix<T, D, 1>& p,
                                             const Eigen::Matrix<T, D, 1>& pose) {
  if (o.pose_vertex < 0) return p;
  Eigen::Matrix<T, D, 1> r = p - pose;
  for (int k = 0; k < D; ++k) r[k] = r[k] + o.point[k];
  return r;
}

template <class T, int D>
T analytic_signed_distance(const AnalyticObstacle& o, const Eigen::Matrix<T, D, 1>& x) {
  using std::sqrt;
  switch (o.shape) {
    case AnalyticObstacle::Shape::Plane: {
      T d = (x[0] - o.point[0]) * o.normal[0];
      for (int k = 1; k < D; ++k) d = d + (x[k] - o.point[k]) * o.normal[k];
      return d;
    }
    case AnalyticObstacle::Shape::Sphere: {
      T r2 = (x[0] - o.point[0]) * (x[0] - o.point[0]);
      for (int k = 1; k < D; ++k) r2 = r2 + (x[k] - o.point[k]) * (x[k] - o.point[k]);
      return sqrt(r2) - o.radius;
    }
    case AnalyticObstacle::Shape::Box: {
      Eigen::Matrix<T, D, 1> q;
      for (int k = 0; k < D; ++k) {
        const T rel = x[k] - o.point[k];
        q[k] = (value_of(rel) < 0.0 ? -rel : rel) - o.half_extents[k];
      }
      T outside2(0.0);
      bool outside = false;
      for (int k = 0; k < D; ++k)
        if (value_of(q[k]) > 0.0) {
          outside2 = outside2 + q[k] * q[k];
          outside = true;
        }
      if (outside) return sqrt(outside2);
      int k_max = 0;
      for (int k = 1; k < D; ++k)
        if (value_of(q[k]) > value_of(q[k_max])) k_max = k;
      return q[k_max];
    }
  }
  return T(0.0);
}

}  // namespace softsim
