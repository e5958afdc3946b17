#pragma once
// One contact as friction sees it (Li et al. 2020, sec. 5; Li & Jiang 2025, §9.2): its stencil, the
// closest-point weights w_a giving the relative displacement of the closest points
// u = sum_a w_a (x_a - x^ref_a), the tangent basis T (dim x m), the normal force magnitude lambda
// and the pair's coefficient mu, all taken where the contact was listed (frame.hpp). Lagged
// friction freezes such contacts for a step; its potential per contact (without mu) is
//   D(x) = lambda f0(|T^T u|),                                          (IPC eq. 16)
//   grad_a D = lambda w_a T (f1/y) z,   Hess_ab D = lambda w_a w_b T H_z T^T,  z = T^T u,
//   H_z = (f1/y) I + c z z^T (friction/smoothing.hpp), optionally PSD-projected (as Li & Jiang 2025,
//   Implementation 10.2.2, project the inner m x m block; its eigenvalues are f1/y across z and f1' along z).
#include <array>

#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/friction/frame.hpp"
#include "softsim/contact/friction/smoothing.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/contact/stencil/contact_stencil.hpp"

namespace softsim {

struct FrictionContact {
  ContactStencil stencil;
  std::array<double, 4> weights{0.0, 0.0, 0.0, 0.0};  // u = sum_a weights[a] (x_a - x^ref_a)
  FrictionFrame<double>::Basis T;                    // dim x m tangent basis
  Eigen::Vector2d coords = Eigen::Vector2d::Zero();  // closest-point coordinates (stencil_frame)
  double distance_squared = 0.0;                     // where the contact was listed
  double lambda = 0.0;                               // normal force magnitude
  double mu = 0.0;                                   // friction coefficient of the pair
  // An analytic obstacle's feature against a face or edge (obstacle_barrier.hpp): the weight of
  // the pair's barrier, which its normal force carries.
  double barrier_weight = 1.0;
  // Penalty contact points: the side of the closest feature p is on, and the contact normal
  // (the direction friction falls back to where the feature's own is undefined).
  double side = 1.0;
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1> normal;

  FrictionFrame<double> frame() const;
  void set_frame(const FrictionFrame<double>& f);
};

// The IPC frame of a point-point, point-edge, point-triangle or edge-edge stencil at V (rows =
// vertices; lambda left 0).
FrictionContact friction_contact(const ContactStencil& stencil, const VertexRows& V);

// The candidate pairs as friction contacts at V, each reduced to the features that realise its
// distance (closest_features) first.
std::vector<FrictionContact> classify_friction_contacts(const CollisionMesh& mesh, const VertexRows& V,
                                                        const Candidates& candidates);

// IPC normal force magnitude on a squared distance s: lambda = -db/dd = -(db/ds) 2 sqrt(s)
// (kappa included; the form of Li & Jiang 2025 is differentiated in d directly through the chain rule).
double normal_force_magnitude(BarrierForm form, double s, double dhat, double kappa);

using FrictionStencilVec = Eigen::Matrix<double, 12, 1>;
using FrictionStencilMat = Eigen::Matrix<double, 12, 12>;

// lambda f0(|T^T u|) with u from V - V0 (positions rows), eps = eps_v h. grad / hess (first
// num_vertices * dim entries; vertex-major within the stencil) are overwritten when non-null.
double friction_contact_potential(const FrictionContact& c, const VertexRows& V, const VertexRows& V0,
                                  FrictionSmoothing smoothing, double eps, FrictionStencilVec* grad,
                                  FrictionStencilMat* hess, bool project_psd);

}  // namespace softsim
