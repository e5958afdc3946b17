#pragma once
// Where friction's contacts come from: a contact model (the IPC barrier between meshes, an
// analytic obstacle's barrier, penalty contact) whose normal forces friction acts with. A source
// lists its contacts at given positions, each with its stencil, closest-point weights, tangent
// basis, normal force magnitude lambda and friction coefficient mu; and it gives a contact's
// frame as a function of the stencil's positions on any scalar, so that fully implicit friction
// can differentiate it (forward mode). Lagged friction freezes the list at the start of a step;
// implicit friction lists the contacts at every evaluation. The source reads its contact term's
// data (the stiffness), so the friction term comes after that term in the model.
#include <memory>
#include <vector>

#include "softsim/contact/friction/friction_contact.hpp"
#include "softsim/contact/friction/friction_options.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class IpcContact;
class ObstacleBarrier;
class PenaltyContact;

class FrictionSource {
 public:
  virtual ~FrictionSource() = default;
  // The contact term whose data (stiffness) the contacts depend on.
  virtual const Energy& contact_term() const = 0;
  // Positions of every vertex the contacts refer to (rows): the model's vertices, then any static
  // obstacle vertices, which carry no DOFs (ids >= num_dof_vertices()).
  // Into `out`, whose storage is reused.
  virtual void positions(const VecX& x, VertexRows& out) const = 0;
  virtual int num_dof_vertices() const = 0;
  // The contacts at x with lambda > 0 and mu > 0, their frames taken at x.
  virtual std::vector<FrictionContact> contacts(const EvalContext& ctx, const VecX& x) const = 0;
  // The frame of contact c (from contacts()) at its stencil's positions xs
  // (num_vertices * dim values), on doubles or on Dual numbers.
  virtual FrictionFrame<double> frame(const EvalContext& ctx, const FrictionContact& c, const double* xs) const = 0;
  virtual FrictionFrame<Dual> frame(const EvalContext& ctx, const FrictionContact& c, const Dual* xs) const = 0;
};

// The IPC pairs closer than dhat (+ thickness) at x, each reduced to the features that realise its
// distance; lambda = -db/dd = -2 sqrt(s) kappa b'(s) of the contact's barrier on the squared
// distance s of the closest points (edge-edge without the mollifier, as in IPC).
std::unique_ptr<FrictionSource> ipc_friction_source(const IpcContact& contact, const FrictionOptions& options);
// Every vertex within dhat of an analytic obstacle: lambda_i = -w_i b'(d_i) with the obstacle
// barrier's weights w_i = A_i dhat and the b of Li & Jiang 2025 (eq. 7.2.3), T_i = I - n n^T
// with n the unit gradient of the obstacle's signed distance.
std::unique_ptr<FrictionSource> obstacle_friction_source(const ObstacleBarrier& barrier, int dim,
                                                         std::vector<double> vertex_weights, double dhat,
                                                         double kappa, const FrictionOptions& options);
// The contact points of penalty contact, lambda = -b'(d(x)) of the cubic penalty on the signed
// gap (Larionov et al. 2022, eq. 3), B = I - n n^T with n the normal of the closest feature (the
// face normal; the direction from the closest point for edges and vertices; the obstacle's
// gradient), weights of the closest point on the feature.
std::unique_ptr<FrictionSource> penalty_friction_source(const PenaltyContact& contact, const FrictionOptions& options);

}  // namespace softsim
