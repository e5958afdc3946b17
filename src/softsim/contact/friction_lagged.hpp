#pragma once
// Lagged (semi-implicit) IPC friction between and within bodies (Li et al. 2020, sec. 5; the
// book §9-10, digest §7): at the start of a step, every contact pair closer than dhat (the
// pairs of the IpcContact term, classified into point-point / point-edge / point-triangle /
// edge-edge contacts) is frozen with its normal force magnitude lambda_k = -kappa b'(d_k)
// 2 sqrt(d_k) (d_k the squared distance at x^n; the IpcContact's barrier form, dhat and
// current kappa; edge-edge without the mollifier, as in IPC), its tangent basis T_k and its
// closest-point coordinates. The potential of the step is
//   D(x) = sum_k mu lambda_k f0(|T_k^T u_k|),   u_k = relative displacement of the closest
//   points under x - x^n,   eps = eps_v h                                 (IPC eq. 16),
// which enters the incremental potential like every other potential (times the stage weight);
// the kappa of IpcContact is already in those units, so D's gradient is the friction force
// mu lambda f1 (a force, not an impulse). Hessian: dynamic triplets, the inner m x m block
// PSD-projected when projection is requested.
// iterations > 1: fixed-point updates (the book: "fully implicit" by lagging): after a converged
// solve, lambda, T and the coordinates are re-frozen at the solution (u still from x^n) and the
// step is solved again, through Energy::stiffen_if_unmet, iterations - 1 times.
// The same term freezes penalty contact points instead (PenaltyContact::friction_contacts:
// lambda = -b'(d), seed 003 eq. 3) when built from a contact source.
#include <functional>
#include <vector>

#include "softsim/contact/collision_mesh.hpp"
#include "softsim/contact/friction_contact.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class IpcContact;

struct FrictionOptions {
  double mu = 0.0;
  double eps_v = 1e-3;  // m/s
  FrictionSmoothing smoothing = FrictionSmoothing::c1;
  int iterations = 1;
};

// sum_k mu lambda_k f0(|T_k^T u_k|) with derivatives (weight, projection and outputs as in
// Energy::evaluate; Hessian entries go to out.dynamic_hessian). V, V0: current and step-start
// positions (rows = vertices); vertices with id >= num_dof_vertices have no DOFs.
double assemble_friction(const std::vector<FrictionContact>& contacts, const VertexRows& V, const VertexRows& V0,
                         double mu, FrictionSmoothing smoothing, double eps, int num_dof_vertices,
                         const AssemblyOutputs& out);

// The IPC pairs closer than dhat at x as friction contacts with their normal forces (above).
std::vector<FrictionContact> ipc_friction_contacts(const IpcContact& contact, const VecX& x);

class LaggedFriction : public Energy {
 public:
  // The contacts to freeze at x, with their normal forces lambda.
  using ContactSource = std::function<std::vector<FrictionContact>(const VecX& x)>;
  // contact must outlive this term and be begun (begin_step) before it each step.
  LaggedFriction(const IpcContact* contact, const FrictionOptions& options);
  // Any other source of contacts over the vertices of `mesh` (e.g. penalty contact points); mesh
  // and whatever source refers to must outlive this term.
  LaggedFriction(const CollisionMesh* mesh, ContactSource source, const FrictionOptions& options);

  std::string name() const override { return "lagged_friction"; }
  double evaluate(const VecX& x, const AssemblyOutputs& out) const override;
  void set_time_step(double t, double h) override { h_ = h; }
  void begin_step(const VecX& x_start) override;
  bool stiffen_if_unmet(const VecX& x) override;

  const std::vector<FrictionContact>& contacts() const { return contacts_; }
  double eps() const { return options_.eps_v * h_; }

 private:
  void freeze(const VecX& x);
  const CollisionMesh* mesh_;
  ContactSource source_;
  FrictionOptions options_;
  double h_ = 0.0;
  int fixed_point_iteration_ = 0;
  VecX x_start_;
  VertexRows start_positions_;  // mesh.positions(x_start_)
  std::vector<FrictionContact> contacts_;
};

}  // namespace softsim
