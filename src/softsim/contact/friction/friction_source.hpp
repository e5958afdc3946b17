#pragma once
// Where friction's contacts come from: a contact model (the IPC barrier between meshes, an
// analytic obstacle's barrier, penalty contact) whose normal forces friction acts with. A source
// lists its contacts at given positions, each with its stencil, closest-point weights, tangent
// basis, normal force magnitude lambda and friction coefficient mu; lagged friction freezes that
// list at the start of a step. The source reads its contact term's data (the stiffness), so the
// friction term comes after that term in the model.
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
  virtual VertexRows positions(const VecX& x) const = 0;
  virtual int num_dof_vertices() const = 0;
  // The contacts at x with lambda > 0 and mu > 0.
  virtual std::vector<FrictionContact> contacts(const EvalContext& ctx, const VecX& x) const = 0;
};

// The IPC pairs closer than dhat at x (classified into point-point / point-edge /
// point-triangle / edge-edge contacts), lambda = -kappa b'(d) 2 sqrt(d^2) of the contact's barrier
// (edge-edge without the mollifier, as in IPC).
std::unique_ptr<FrictionSource> ipc_friction_source(const IpcContact& contact, const FrictionOptions& options);
// Every vertex within dhat of an analytic obstacle: lambda_i = -w_i b'(d_i) with the obstacle
// barrier's weights w_i = A_i dhat and the book's b, T_i = I - n n^T with n the unit gradient of
// the obstacle's signed distance.
std::unique_ptr<FrictionSource> obstacle_friction_source(const ObstacleBarrier& barrier, int dim,
                                                         std::vector<double> vertex_weights, double dhat,
                                                         double kappa, const FrictionOptions& options);
// The contact points of penalty contact, lambda = -b'(d) of the cubic penalty (Larionov et al.
// 2022, eq. 3), T orthogonal to the penalty's normal.
std::unique_ptr<FrictionSource> penalty_friction_source(const PenaltyContact& contact, const FrictionOptions& options);

}  // namespace softsim
