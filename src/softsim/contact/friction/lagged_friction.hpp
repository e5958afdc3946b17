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
#include <array>
#include <cmath>
#include <functional>
#include <vector>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/contact/friction/friction_contact.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class IpcContact;

struct FrictionOptions {
  double mu = 0.0;      // the scene's coefficient, for pairs the table does not name
  double eps_v = 1e-3;  // m/s
  FrictionSmoothing smoothing = FrictionSmoothing::c1;
  int iterations = 1;
  // Per body pair (contact.friction.pairs): the group of every vertex id the contact terms use
  // (bodies, then static mesh obstacles, then analytic obstacles) and a symmetric table of
  // coefficients between groups (NaN: use mu). Empty: mu everywhere.
  std::vector<int> vertex_group;
  MatX pair_mu;
  int obstacle_group = -1;  // analytic-obstacle terms: the obstacle's group
  // Penalty contact: the group of each analytic obstacle, in the order the penalty term lists them.
  std::vector<int> analytic_obstacle_groups;
  double mu_between_groups(int a, int b) const {
    if (pair_mu.size() == 0 || a < 0 || b < 0) return mu;
    const double m = pair_mu(a, b);
    return std::isnan(m) ? mu : m;
  }
  int group_of(int vertex) const {
    return vertex >= 0 && vertex < static_cast<int>(vertex_group.size()) ? vertex_group[vertex] : -1;
  }
  // The coefficient between the sides of a contact, given one vertex of each.
  double mu_between_vertices(int a, int b) const { return mu_between_groups(group_of(a), group_of(b)); }
  // The coefficient of a contact: between the bodies of its first and last vertex, or, for a
  // one-vertex contact, between the vertex's body and analytic obstacle `obstacle`.
  double mu_of_contact(int num_vertices, const std::array<int, 4>& ids, int obstacle) const {
    if (num_vertices > 1) return mu_between_vertices(ids[0], ids[num_vertices - 1]);
    const int group = obstacle >= 0 && obstacle < static_cast<int>(analytic_obstacle_groups.size())
                          ? analytic_obstacle_groups[obstacle]
                          : -1;
    return mu_between_groups(group_of(ids[0]), group);
  }
  // Anyone with friction at all (the terms are only added then).
  bool any() const { return mu > 0.0 || (pair_mu.size() > 0 && (pair_mu.array() > 0.0).any()); }
};

// sum_k mu_k lambda_k f0(|T_k^T u_k|) (mu_k = contacts[k].mu) with derivatives (weight, projection and outputs as in
// Energy::evaluate; Hessian entries go to out.dynamic_hessian). V, V0: current and step-start
// positions (rows = vertices); vertices with id >= num_dof_vertices have no DOFs.
double assemble_friction(const std::vector<FrictionContact>& contacts, const VertexRows& V, const VertexRows& V0,
                         FrictionSmoothing smoothing, double eps, int num_dof_vertices, const AssemblyOutputs& out);

// The candidate pairs as friction contacts at positions V (classified and reduced to the
// point-point / point-edge / point-triangle / edge-edge contact realising the distance;
// lambda left 0).
std::vector<FrictionContact> classify_friction_contacts(const CollisionMesh& mesh, const VertexRows& V,
                                                        const Candidates& candidates);

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
  void set_stage_velocity(const VecX& reference, double scale) override;
  bool stiffen_if_unmet(const VecX& x) override;

  const std::vector<FrictionContact>& contacts() const { return contacts_; }
  double eps() const { return eps_; }

 private:
  void freeze(const VecX& x);
  const CollisionMesh* mesh_;
  ContactSource source_;
  FrictionOptions options_;
  double h_ = 0.0;
  int fixed_point_iteration_ = 0;
  VecX x_start_;
  // u is measured from the stage's reference positions with eps = eps_v / scale (seed 003 eq.
  // 25-27: friction of the stage velocity v = scale (x - reference)); BE: x^n and eps_v h.
  VertexRows reference_positions_;
  double eps_ = 0.0;
  std::vector<FrictionContact> contacts_;
};

}  // namespace softsim
