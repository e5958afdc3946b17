#pragma once
// One contact point of penalty contact (Larionov et al. 2022, §3.2): a surface vertex p and the closest
// feature of another body's closed surface (a face, an edge or a vertex), or an analytic
// obstacle, with the signed gap d (negative when p is inside). The gap is a template on the
// scalar type, so the same code gives values (double), exact gradients and Hessians (Jet<N>,
// core/jet.hpp) and directional derivatives (Dual, core/dual.hpp), e.g. for an implicit
// friction that needs lambda(q) = -b'(d(q)) and its derivatives.
//   face (3D, a point_triangle stencil):   d = n . (p - t0) / |n|, n = (t1 - t0) x (t2 - t0), the outward normal; smooth
//                through d = 0
//   edge (2D):   d = (p - e0) . (e.y, -e.x) / |e|, e = e1 - e0 (counter-clockwise boundary:
//                outward is to the right)
//   edge (3D):   d = s |p - c|, c the closest point of the line (e0, e1)
//   vertex:      d = s |p - v|
//   obstacle:    the obstacle's signed distance (analytic_obstacle.hpp); a moving obstacle's stencil
//                is (p, pose) and the distance is that of p - x_pose + point
// The side s = +-1 is fixed when the point is found: the sign of (p - c) . n_pseudo with the edge's
// or the vertex's pseudo-normal (Baerentzen & Aanaes 2005: the sum of the two faces' normals at
// an edge, the angle-weighted sum of the faces' normals at a vertex; in 2D the sum of the two
// edges' normals), which gives the correct side for every point whose closest surface point lies
// on that feature of a closed, consistently oriented surface.
#include <array>

#include "softsim/contact/geometry/analytic_obstacle.hpp"
#include "softsim/contact/stencil/contact_stencil.hpp"
#include "softsim/contact/distance/generic_vector.hpp"

namespace softsim {

struct PenaltyContactPoint {
  // p and the closest feature: point_triangle (a face), point_edge (an edge), point_point (a
  // vertex) or point_obstacle; ids[0] = p.
  ContactStencil stencil;
  double side = 1.0;                     // s for 3D edges and vertices
  double d = 0.0;                        // signed gap at the positions it was found at
  // Filled by PenaltyContact::contacts(): lambda = -b'(d) >= 0 and the unit contact normal
  // grad_p d (pointing from the surface towards p).
  double lambda = 0.0;
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1> normal;
  // An analytic obstacle's feature against a face or an edge (penalty/obstacle_feature_points.hpp):
  // the obstacle's index, -1 for every other point. Its gap is the distance between the stencil's
  // features less `separation` (the sphere's radius), not penalty_signed_distance's.
  int feature_of_obstacle = -1;
  double separation = 0.0;
};

// d of contact c with x[a] the position of c.stencil.ids[a], a < c.stencil.num_vertices.
template <class T, int D>
T penalty_signed_distance(const PenaltyContactPoint& c, const Eigen::Matrix<T, D, 1>* x,
                          const std::vector<AnalyticObstacle>& obstacles) {
  using std::sqrt;
  using contact_detail::dot;
  using V = Eigen::Matrix<T, D, 1>;
  switch (c.stencil.kind) {
    case StencilKind::point_triangle:
      if constexpr (D == 3) {
        const V n = contact_detail::cross(V(x[2] - x[1]), V(x[3] - x[1]));
        return dot(n, V(x[0] - x[1])) / sqrt(dot(n, n));
      }
      break;
    case StencilKind::point_edge: {
      const V e = x[2] - x[1];
      if constexpr (D == 2) {
        const V w = x[0] - x[1];
        return (w[0] * e[1] - w[1] * e[0]) / sqrt(dot(e, e));
      } else {
        const V cr = contact_detail::cross(V(x[1] - x[0]), V(x[2] - x[0]));
        return c.side * sqrt(dot(cr, cr) / dot(e, e));
      }
    }
    case StencilKind::point_point: {
      const V w = x[0] - x[1];
      return c.side * sqrt(dot(w, w));
    }
    case StencilKind::point_obstacle: {
      // A moving obstacle's stencil is (p, pose): the distance is taken at the rest pose.
      const AnalyticObstacle& o = obstacles[static_cast<std::size_t>(c.stencil.obstacle)];
      if (c.stencil.num_vertices == 1) return analytic_signed_distance<T, D>(o, x[0]);
      return analytic_signed_distance<T, D>(o, relative_to_rest_pose<T, D>(o, x[0], x[1]));
    }
    case StencilKind::edge_edge: break;
  }
  return T(0.0);
}

}  // namespace softsim
