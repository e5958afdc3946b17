#pragma once
// The incremental potential over subspace coordinates, evaluated without leaving them (Li & Jiang
// 2025, ch. 26; An, Kim & James 2008). When a model's only energies are elasticities counted by
// cubature, E(q) needs positions only at the cubature elements' vertices. Those elements make a
// compact model of their own (local vertex ids, the same material, weights and inversion
// filter); its gradient and Hessian come back through the rows of B at those vertices,
// U_T^T g_T and U_T^T H_T U_T. Inertia and mass damping are quadratics in q with B^T M B formed
// once, and the constant forces' work is (B^T f) . q. An evaluation and the step filter then
// cost O(T r^2) for T cubature elements and r coordinates, whatever the mesh size, and give what
// SubspaceObjective gives (positions, then pull-back) to round-off.
#include <Eigen/Dense>
#include <memory>
#include <string>

#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/subspace_objective.hpp"

namespace softsim {

// Why `model` cannot be evaluated in its coordinates alone (a term other than a cubature
// elasticity, a fixed DOF with coordinates of its own, stiffness-proportional damping, ...), or
// empty when it can.
std::string reduced_evaluation_obstacle(const Model& model);

class ReducedIncrementalPotential : public SubspaceObjective {
 public:
  // `model` must qualify (reduced_evaluation_obstacle empty); throws std::invalid_argument if not.
  ReducedIncrementalPotential(IncrementalPotential& positions_objective, const Model& model);
  ~ReducedIncrementalPotential() override;

  double evaluate(const VecX& q, VecX* gradient, SparseMat* hessian, bool project_psd) override;
  double max_step_fraction(const VecX& q, const VecX& p) override;
  // Every fixed DOF has a zero row of B and no term holds DOFs: nothing to eliminate.
  void reduce(VecX& gradient, SparseMat* hessian) const override {}
  bool reduce_changes_hessian() const override { return false; }
  void expand(VecX& step) const override {}
  std::function<void(const VecX& p, VecX& out)> hessian_operator(const VecX& q) override { return {}; }
  void rank_one_hessian(const VecX& q, std::vector<RankOneHessian>& out) override { out.clear(); }
  // Elasticities have no iteration hooks.
  bool end_iteration(const VecX& q) override { return false; }
  bool before_stop(const VecX& q) override { return false; }

  int num_cubature_vertices() const;

  // A stage posed in coordinates, by a stepper whose state is y (integrate/dirk.hpp): the
  // predictor and the damping reference are coordinates, so nothing is taken from positions
  // (no product with B^T, and c0 = 0). The stage's time and weights are the ones last set on
  // the positions objective (IncrementalPotential::set_step, called first). Until that is set
  // again, Newton's convergence test bounds ||B p|| in O(r) (step_norm).
  void set_coordinate_step(const VecX& predictor, const VecX& damping_reference);
  // P(y) = the cubature elasticities - y-dependent work of the constant forces - offset's work,
  // and its gradient (overwritten) when asked: the potential this model's dynamics conserve.
  double potential(const VecX& y, VecX* gradient);
  // B^T M B and its solve.
  const MatX& reduced_mass() const { return reduced_mass_; }
  VecX solve_reduced_mass(const VecX& b) const { return reduced_mass_factor_.solve(b); }
  // ||B p|| as the convergence test measures it (NewtonOptions::vertex_l1_dim), exactly (in
  // positions) after a stage posed in positions; after a stage posed in coordinates, the bound
  // sum_c beta_c |p_c| with beta_c the largest norm of column c on one entry (or one vertex),
  // which is never below the exact norm (the triangle inequality), so the test is never looser.
  double step_norm(const VecX& p, int vertex_l1_dim) const override;

 private:
  // 1/2 (x - z)^T M (x - z) over x = offset + B q, for a z that may leave the range of B:
  // 1/2 d^T M_r d + c0 with d = q - q_z, q_z the M-orthogonal projection's coordinates
  // (M_r q_z = B^T M u, u = z - offset), so that the residual s = u - B q_z is M-orthogonal to the
  // range and leaves only the constant c0 = 1/2 s^T M s = 1/2 (u^T M u - q_z^T M_r q_z). One
  // product with B^T per stage, none with B.
  struct MassQuadratic {
    VecX q_z;
    double c0 = 0.0;
  };
  MassQuadratic mass_quadratic(const VecX& z) const;
  void refresh_step();
  // w P(y) with the gradient (overwritten) and the compact model's Hessian (its layout's
  // pattern), each when asked.
  double weighted_potential(const VecX& y, double w, VecX* gradient, SparseMat* compact_hessian, bool project_psd);
  VecX cubature_positions(const VecX& q) const { return offset_T_ + U_T_ * q; }

  IncrementalPotential& positions_;
  const Model& model_;
  struct Compact;  // the cubature elements' model, its data and layout
  std::unique_ptr<Compact> compact_;
  // Rows of B at the compact model's DOFs, dense: a reduced basis's rows are full, and the
  // products with a sparse H_T and with vectors are then dense kernels, without the sparse
  // products' index work and allocations (a fifth of a reduced step, perf).
  MatX U_T_;
  VecX offset_T_;
  MatX reduced_mass_;  // B^T M B
  Eigen::LDLT<MatX> reduced_mass_factor_;
  VecX reduced_force_;      // B^T f_ext
  double offset_work_ = 0.0;  // offset . f_ext
  long configuration_seen_ = -1;
  MassQuadratic inertia_, damping_;
  bool coordinate_step_ = false;  // the current stage was posed in coordinates
  // Per column of B: its largest |entry| and its largest sum of |entries| over one vertex's rows.
  VecX column_bound_entry_, column_bound_vertex_;
};

}  // namespace softsim
