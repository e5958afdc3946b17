#pragma once
// A drawable outline of an analytic obstacle at its rest pose, for output frames and viewers
// (the contact uses the exact signed distance, never this): 3D triangles, 2D segments.
//   plane:  a square (3D, two triangles) or a segment (2D) of side `extent`, centred at the
//           projection of `centre` onto the plane (the bodies' middle: a plane is infinite)
//   sphere: a latitude-longitude triangulation (3D) or a polygon (2D)
//   box:    its 12 triangles (3D) or 4 edges (2D)
#include "softsim/contact/geometry/analytic_obstacle.hpp"
#include "softsim/mesh/mesh.hpp"

namespace softsim {

Mesh obstacle_outline(const AnalyticObstacle& obstacle, int dim, const VecX& centre, double extent);

}  // namespace softsim
