#pragma once
// A contact stencil: the few vertices one contact acts on, named by the features they form (the
// stencil of ipc-toolkit's CollisionStencil). It owns what every contact model needs of them:
// their ids, gathering their positions, the squared distance between the features with exact
// derivatives (IPC, Li et al. 2020, sec. 4.1), and continuous collision detection along a
// linear motion (additive CCD). The IPC barrier, both friction models and penalty contact keep
// their contacts as stencils; constraint contact is to build its constraint rows on them.
//   point_triangle: p, t0, t1, t2    edge_edge: ea0, ea1, eb0, eb1    point_edge: p, e0, e1
//   point_point: p, q                point_obstacle: p (and the analytic obstacle's index), or
//                                    p, pose for a moving obstacle
// The distance of a stencil is that between its primitives (a point and a triangle, two
// segments, a point and a segment): classified over the closest features, so an IPC candidate
// pair is a stencil as it stands. A stencil of compact kind (point_point, point_edge) is what a
// classified pair reduces to.
#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/ccd/additive_ccd.hpp"
#include "softsim/contact/distance/derivatives.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/core/enum_names.hpp"

namespace softsim {

enum class StencilKind : std::uint8_t { point_point, point_edge, point_triangle, edge_edge, point_obstacle };
template <>
struct EnumNames<StencilKind> {
  using K = StencilKind;
  static constexpr std::pair<K, const char*> table[] = {{K::point_point, "point_point"},
                                                        {K::point_edge, "point_edge"},
                                                        {K::point_triangle, "point_triangle"},
                                                        {K::edge_edge, "edge_edge"},
                                                        {K::point_obstacle, "point_obstacle"}};
};

struct ContactStencil {
  StencilKind kind = StencilKind::point_point;
  int num_vertices = 0;
  std::array<int, 4> ids{-1, -1, -1, -1};  // global vertex ids (CollisionMesh::positions rows)
  int obstacle = -1;                       // point_obstacle: index of the analytic obstacle

  static ContactStencil point_point(int p, int q) { return {StencilKind::point_point, 2, {p, q, -1, -1}}; }
  static ContactStencil point_edge(int p, int e0, int e1) { return {StencilKind::point_edge, 3, {p, e0, e1, -1}}; }
  static ContactStencil point_triangle(int p, int t0, int t1, int t2) {
    return {StencilKind::point_triangle, 4, {p, t0, t1, t2}};
  }
  static ContactStencil edge_edge(int ea0, int ea1, int eb0, int eb1) {
    return {StencilKind::edge_edge, 4, {ea0, ea1, eb0, eb1}};
  }
  static ContactStencil point_obstacle(int p, int obstacle) {
    return {StencilKind::point_obstacle, 1, {p, -1, -1, -1}, obstacle};
  }
};

// The broad phase's candidate pairs as stencils (point-triangle and edge-edge in 3D, point-edge
// in 2D), in the candidate lists' order.
std::vector<ContactStencil> candidate_stencils(const CollisionMesh& mesh, const Candidates& candidates);
// The same into `out` (cleared first; its capacity is reused).
void candidate_stencils(const CollisionMesh& mesh, const Candidates& candidates, std::vector<ContactStencil>& out);
// The stencil of one candidate pair (indices as in Candidates).
ContactStencil candidate_stencil(const CollisionMesh& mesh, PairKind kind, int i, int j);

// Position of the stencil's vertex a (rows of V: CollisionMesh::positions).
template <int D>
Eigen::Matrix<double, D, 1> stencil_vertex(const ContactStencil& s, const VertexRows& V, int a) {
  return V.row(s.ids[a]).transpose();
}

// The stencil reduced to the features that realise its distance at V (distance/classification.hpp):
// a point-triangle pair whose closest point lies on an edge is a point-edge stencil, two
// segments closest at an end point a point-edge or point-point one. Compact kinds come back as
// they are.
ContactStencil closest_features(const ContactStencil& s, const VertexRows& V);

// Squared distance between the stencil's features at V, and with its gradient and Hessian over
// the stencil's coordinates (vertex-major; entries past num_vertices * dim are zero). Not for
// point_obstacle stencils (an obstacle's distance is its own).
double distance_squared(const ContactStencil& s, const VertexRows& V);
// The stencil's squared distance at V when it is below `below`; +infinity when a cheap
// separation bound (distance/separation_bound.hpp) proves it is not, which most broad-phase
// candidates are. `bound_applies`: separation_bound_applies for V's coordinates and `below`
// (false: always the exact distance).
double distance_squared_if_below(const ContactStencil& s, const VertexRows& V, double below, bool bound_applies);
DistanceDerivatives<12> distance_squared_derivatives(const ContactStencil& s, const VertexRows& V);

// Additive CCD of the stencil's features moving linearly from V0 to V1.
CcdResult time_of_impact(const ContactStencil& s, const VertexRows& V0, const VertexRows& V1,
                         const AccdOptions& options);

}  // namespace softsim
