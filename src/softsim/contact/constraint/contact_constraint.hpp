#pragma once
// One contact of constraint contact (Zeng & Courtecuisse 2023, eqs. 6-10): a surface vertex p
// and the closest point c of another surface's feature (a face, an edge or a vertex) or of an
// analytic obstacle, with the relative position r = p - c, a unit normal n (outward from the
// surface) and two tangents: one 3-row constraint block with rows (n, t1, t2) = C.
//   c = sum_a w_a x_a over the feature's vertices, the barycentric weights w_a fixed for the step
//   when the contact is found, so r = sum_a weight[a] x_a with weight = (1, -w_1, ...) is linear
//   in the positions and its Jacobian is the constant mapping J_g of the paper (eq. 26);
//   obstacle: c = p - phi(p) grad phi(p) on the obstacle's surface (phi its signed distance),
//   r = p - c; a moving obstacle (stencil (p, pose)) carries c with its pose: r = p - x_pose -
//   (c - x_pose) with the offset fixed when found, weight = (1, -1), phi taken at the rest pose.
// Gaps: the normal gap is the signed distance, delta_n = n . r (face: distance to its plane;
// edge, vertex: s |p - c| with the side s found with the contact; obstacle: phi(p)); the
// tangential gap is the relative tangential displacement over the step, delta_t = T^T (r - r_0)
// with r_0 the relative position at the step start (SOFA's convention, Zeng & Courtecuisse 2023
// eq. 10).
// Only 3D: in 2D a block would have one tangent row (not supported; scene rules say so).
#include <array>
#include <optional>
#include <vector>

#include "softsim/contact/geometry/analytic_obstacle.hpp"
#include "softsim/contact/penalty/contact_point.hpp"

namespace softsim {

struct ContactConstraint {
  ContactStencil stencil;                     // p first, then the feature's vertices (or the obstacle)
  std::array<double, 4> weight{1.0, 0.0, 0.0, 0.0};  // r = sum_a weight[a] x_a (obstacle: minus anchor)
  Vec3 anchor = Vec3::Zero();                 // obstacle: its closest point when found (moving: minus the pose)
  double side = 1.0;                          // edge and vertex features: s
  double mu = 0.0;                            // Coulomb coefficient of the pair
};

// The contact from a closest-feature point found at V (rows: CollisionMesh::positions, 3D);
// nullopt when the normal is undefined there (p on the feature's edge or vertex itself).
std::optional<ContactConstraint> make_contact_constraint(const PenaltyContactPoint& point, const VertexRows& V,
                                                         const std::vector<AnalyticObstacle>& obstacles, double mu);

// r at V.
Vec3 relative_position(const ContactConstraint& c, const VertexRows& V);

struct ContactGeometry {
  Vec3 normal = Vec3::UnitZ();
  double gap = 0.0;
  bool valid = false;  // false: the normal is undefined at V (r = 0 at an edge or vertex feature)
};
// The unit normal and the normal gap at V.
ContactGeometry contact_geometry(const ContactConstraint& c, const VertexRows& V,
                                 const std::vector<AnalyticObstacle>& obstacles);

// The frame C = [n; t1; t2] (rows). Without a previous first tangent, t1 is the unit vector of
// the coordinate axis least aligned with n made orthogonal to n; with one, that tangent projected
// onto the new tangent plane (tangents stay continuous as n turns), falling back to the axis rule
// when it is nearly parallel to n.
Mat3 contact_frame(const Vec3& normal, const Vec3* previous_tangent = nullptr);

}  // namespace softsim
