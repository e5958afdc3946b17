#pragma once
// What of an analytic obstacle a body's faces and edges can run into between their vertices.
// The distance from a body vertex to the obstacle (analytic_obstacle.hpp) keeps every vertex out,
// but a face or an edge between vertices can still pass through a convex obstacle that has
// corners or curvature: the closest points of a face to a sphere or to a box's edge lie inside
// the face. The distance between a face and a convex obstacle is that of their closest
// features (IPC, Li et al. 2020, sec. 4.1, applied to the obstacle as a mesh):
//   sphere: its centre against the body's faces (3D), edges (2D, and 3D edges of no face),
//           less the radius: a point primitive with a minimum separation r;
//   box:    its corners against the body's faces (edges in 2D), its edges against the body's
//           edges (3D); the body's vertices against its faces are the vertex distance;
//   plane:  nothing (a face lies between its vertices, all of which the vertex distance keeps
//           on the plane's side).
#include <vector>

#include "softsim/contact/geometry/analytic_obstacle.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

struct ObstacleFeatures {
  MatX points;          // rows: the feature points at the obstacle's rest pose (dim columns)
  MatXi edges;          // rows: pairs of rows of `points` (3D box edges)
  double separation = 0.0;  // the distance below which a body primitive touches a point (sphere: r)
  bool empty() const { return points.rows() == 0; }
};

ObstacleFeatures obstacle_features(const AnalyticObstacle& obstacle, int dim);

// Per row of `edges`: whether it is a side of one of `faces` (either direction). An edge of no
// face (a rod, a spring, a 2D boundary) meets the obstacle's points itself; a face's edges do so
// through the face.
std::vector<char> edges_of_faces(const MatXi& faces, const MatXi& edges);

}  // namespace softsim
