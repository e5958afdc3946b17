#pragma once
// One frozen friction contact of lagged IPC friction (Li et al. 2020, sec. 5; the book §9,
// digest §7): the stencil's vertices, the weights giving the relative tangential displacement
// of the closest points u = sum_a w_a (x_a - x^n_a), the tangent basis T (dim x m) and the
// lagged normal force magnitude lambda. Its potential (without mu) is
//   D(x) = lambda f0(|T^T u|),                                          (IPC eq. 16)
//   grad_a D = lambda w_a T (f1/y) z,   Hess_ab D = lambda w_a w_b T H_z T^T,  z = T^T u,
//   H_z = (f1/y) I + c z z^T (friction/smoothing.hpp), optionally PSD-projected (the book: the
//   inner m x m block; its eigenvalues are f1/y across z and f1' along z).
// Builders take the lagged positions (rows = vertices, global ids) and the primitive's vertex
// ids; the *_for_* variants first classify the pair (distance/classification.hpp) and reduce it to the
// point-point / point-edge / point-triangle / edge-edge contact that realises the distance.
#include <array>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/core/types.hpp"
#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/friction/smoothing.hpp"

namespace softsim {

enum class FrictionContactKind { point_point, point_edge, point_triangle, edge_edge, point_plane };

struct FrictionContact {
  FrictionContactKind kind = FrictionContactKind::point_point;
  int num_vertices = 0;
  std::array<int, 4> ids{-1, -1, -1, -1};          // global vertex ids
  std::array<double, 4> weights{0.0, 0.0, 0.0, 0.0};  // u = sum_a weights[a] (x_a - x^n_a)
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 3, 3> T;  // dim x m tangent basis
  Eigen::Vector2d coords = Eigen::Vector2d::Zero();  // closest-point coordinates (README order)
  double distance_squared = 0.0;                   // at the lagged positions
  double lambda = 0.0;                             // normal force magnitude
  double mu = 0.0;                                 // friction coefficient of the pair
  int obstacle = -1;                               // one-vertex contacts: the analytic obstacle's index
};

FrictionContact point_point_friction_contact(const VertexRows& V, int p0, int p1);
FrictionContact point_edge_friction_contact(const VertexRows& V, int p, int e0, int e1);
FrictionContact point_triangle_friction_contact(const VertexRows& V, int p, int t0, int t1, int t2);
FrictionContact edge_edge_friction_contact(const VertexRows& V, int ea0, int ea1, int eb0, int eb1);

FrictionContact friction_contact_for_point_edge(const VertexRows& V, int p, int e0, int e1);
FrictionContact friction_contact_for_point_triangle(const VertexRows& V, int p, int t0, int t1, int t2);
FrictionContact friction_contact_for_edge_edge(const VertexRows& V, int ea0, int ea1, int eb0, int eb1);

// The candidate pairs as friction contacts at positions V (classified and reduced to the
// point-point / point-edge / point-triangle / edge-edge contact realising the distance;
// lambda left 0).
std::vector<FrictionContact> classify_friction_contacts(const CollisionMesh& mesh, const VertexRows& V,
                                                        const Candidates& candidates);

// IPC normal force magnitude on a squared distance s: lambda = -db/dd = -(db/ds) 2 sqrt(s)
// (kappa included; the book's form is differentiated in d directly through the chain rule).
double normal_force_magnitude(BarrierForm form, double s, double dhat, double kappa);

using FrictionStencilVec = Eigen::Matrix<double, 12, 1>;
using FrictionStencilMat = Eigen::Matrix<double, 12, 12>;

// lambda f0(|T^T u|) with u from V - V0 (positions rows), eps = eps_v h. grad / hess (first
// num_vertices * dim entries; vertex-major within the stencil) are overwritten when non-null.
double friction_contact_potential(const FrictionContact& c, const VertexRows& V, const VertexRows& V0,
                                  FrictionSmoothing smoothing, double eps, FrictionStencilVec* grad,
                                  FrictionStencilMat* hess, bool project_psd);

}  // namespace softsim
