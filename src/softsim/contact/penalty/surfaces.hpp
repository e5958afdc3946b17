#pragma once
// Where penalty contact points are (Larionov et al. 2022, §3.2, with a piecewise-linear
// surface instead of the smooth implicit surface of Larionov et al. 2021): every collision vertex
// against the closed surface of every body it is near. For a vertex p and a body B:
//  - the broad phase gives B's faces (3D) or boundary edges (2D) within B's search radius r_B of p;
//  - the closest of them is B's closest surface primitive (every primitive closer than r_B is a
//    candidate, so the minimum is the true one when it is closer than r_B);
//  - its closest feature (face interior, edge or vertex; distance/classification.hpp) and that feature's
//    pseudo-normal give the signed gap d (penalty/contact_point.hpp);
//  - the point is a contact when d < delta.
// Surfaces: bodies whose surface is closed and consistently oriented (solids; closed shells), and
// static mesh obstacles (open ones too: their back side counts as inside). Other bodies (open
// shells, mass-spring grids) take part with their vertices only.
// Self-contact: a vertex against its own body's surface, but only against the faces (2D: edges)
// it was in front of by more than delta in the initial state (signed distance to the face's
// plane), and that face it now (unit normals n_p . n_f < -1/2, more than 120 degrees apart).
// Every other face of the own body has the vertex behind or in its plane from the start (the
// body's own volume, its own tangent plane), where a signed gap would report a penetration that
// is none. So surfaces that faced each other across a gap at t = 0 (a C shape closing) collide;
// parts that come to face each other only after a large deformation (a beam bent into a ring
// until its ends meet) do not.
// Limits: a vertex deeper inside B than r_B finds no contact (default r_B: half of B's smallest
// rest bounding-box extent, the depth of the deepest point of a box); a vertex pushed past the
// middle of a thin part is closer to the far side and is pushed out there (the classic limit of
// penalty contact with thin features).
#include <vector>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/penalty/contact_point.hpp"

namespace softsim {

class PenaltySurfaces {
 public:
  // mesh must outlive this object; radius[b]: the search radius of body b (CollisionMesh body
  // ids: model bodies, then obstacles); initial: the positions at t = 0 (CollisionMesh::positions).
  PenaltySurfaces(const CollisionMesh& mesh, std::vector<double> radius, VertexRows initial);

  bool is_surface(int body) const { return surface_[static_cast<std::size_t>(body)] != 0; }
  double radius(int body) const { return radius_[static_cast<std::size_t>(body)]; }
  // Contact points with d < delta at V (rows = CollisionMesh::positions), ordered by vertex.
  std::vector<PenaltyContactPoint> find(const VertexRows& V, double delta, BroadPhaseMethod method) const;

 private:
  struct Normals;
  Normals pseudo_normals(const VertexRows& V) const;
  // Signed distance of vertex p to the plane (2D: line) of primitive prim at t = 0.
  double initial_plane_distance(int p, int prim) const;
  const CollisionMesh& mesh_;
  VertexRows initial_;
  std::vector<char> surface_;
  std::vector<double> radius_;
  MatXi face_edges_;  // 3D: undirected edge index of (t0,t1), (t1,t2), (t2,t0) of every face
  int num_face_edges_ = 0;
};

// Every collision vertex with DOFs against every analytic obstacle: the points with signed
// distance d < delta, appended to `points` (obstacle by obstacle, vertices ascending).
void add_obstacle_contact_points(const CollisionMesh& mesh, const VertexRows& V,
                                 const std::vector<AnalyticObstacle>& obstacles, double delta,
                                 std::vector<PenaltyContactPoint>& points);

}  // namespace softsim
