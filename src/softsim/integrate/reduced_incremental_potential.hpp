#pragma once
// The incremental potential over subspace coordinates, evaluated body by body (Li & Jiang 2025,
// ch. 26 and the chapter on ABD; An, Kim & James 2008; Lan et al. 2022, §4). Elasticities counted
// by cubature (a reduced body's fitted elements, or the one element that an affine body's
// elasticity needs: subspace/affine_elasticity.hpp) need positions only at their elements'
// vertices. Those elements make a compact model of their own (local vertex ids, the same
// material, weights and inversion filter); its gradient and Hessian come back through the rows
// of B at those vertices, U_a^T g_a and U_a^T H_a U_a for each body a. Inertia and mass damping
// are quadratics in q with B^T M B formed once, and the constant forces' work is (B^T f) . q.
// Every other term (contact, friction, obstacles, an affine body's orthogonality potential) is
// evaluated in positions x = offset + B q and pulled back entry by entry into the bodies' blocks
// (model/subspace_blocks.hpp), so that what a step costs follows the cubature elements and the
// active contacts, not B^T H B over the whole mesh. Without such terms an evaluation and the
// step filter cost O(T r^2) for T cubature elements and r coordinates, whatever the mesh size;
// with them, when every such term works on a fixed set of vertices (Energy::vertex_support: a
// contact's collision vertices, an orthogonality potential's frame), x is formed there only and
// their gradient and Hessian are cleared and pulled back there only, so a step in contact costs
// what the surface's contact costs, not a pass over the volume (the step hooks get x on the
// support too, and the whole x only when they ask for it: a contact balancing its stiffness as
// contact appears, StepContext::whole_positions). Either way the result is what
// SubspaceObjective gives (positions, then pull-back), to round-off.
#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <memory>
#include <string>
#include <vector>

#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/subspace_objective.hpp"
#include "softsim/model/subspace_blocks.hpp"

namespace softsim {

// Why `model` cannot be evaluated this way (an elasticity that counts every element, a vertex
// outside the bodies in a subspace, a fixed DOF with coordinates of its own, stiffness-
// proportional damping with a term evaluated in positions, ...), or empty when it can.
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
  // Elasticities have neither rank-one parts nor iteration hooks; the terms evaluated in
  // positions may have both.
  void rank_one_hessian(const VecX& q, std::vector<RankOneHessian>& out) override;
  bool end_iteration(const VecX& q) override;
  bool before_stop(const VecX& q) override;

  int num_cubature_vertices() const;
  // Whether some term is evaluated in positions (then a step needs positions: the steppers
  // step such a model in positions, with this objective for its solves).
  bool has_positions_terms() const { return !positions_terms_.empty(); }
  // Whether those terms are evaluated on their support only (see above), and its DOFs.
  bool works_on_support() const { return support_; }
  int num_support_dofs() const { return static_cast<int>(support_dofs_.size()); }
  // How many times x was formed at every vertex (O(n r) each), for the tests.
  long num_whole_positions_formed() const { return whole_positions_formed_; }

  // A stage posed in coordinates, by a stepper whose state is y (integrate/dirk.hpp): the
  // predictor and the damping reference are coordinates, so nothing is taken from positions
  // (no product with B^T, and c0 = 0). The stage's time and weights are the ones last set on
  // the positions objective (IncrementalPotential::set_step, called first). Until that is set
  // again, Newton's convergence test bounds ||B p|| in O(r) (step_norm).
  void set_coordinate_step(const VecX& predictor, const VecX& damping_reference);
  // Stiffness-proportional damping (Rayleigh beta): freezes beta K_r(y_start) = beta B^T K B, K
  // the potential's PSD-projected Hessian at the step's start as rayleigh_damping_matrix takes
  // it, in O(T r^2) over the cubature elements. Called at every step's start of a damped model.
  void set_stiffness_damping_start(const VecX& y_start);
  // out += beta K_r y_dot, the stiffness damping's force with the sign of a gradient.
  void add_stiffness_damping_force(const VecX& y_dot, VecX& out) const { stiffness_damping_.multiply_add(y_dot, 1.0, out); }
  // P(y) = the cubature elasticities - y-dependent work of the constant forces - offset's work,
  // and its gradient (overwritten) when asked: the potential this model's dynamics conserve.
  double potential(const VecX& y, VecX* gradient);
  // B^T M B (block-diagonal: one block per body) and its solve.
  const SparseMat& reduced_mass() const { return reduced_mass_; }
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
  // w P(y) with the gradient (overwritten) and the Hessian's blocks (into hessian_blocks_,
  // cleared first), each when asked.
  double weighted_potential(const VecX& y, double w, VecX* gradient, bool hessian, bool project_psd);
  // x = offset + B q for the terms in positions, kept for the last q: an iteration's evaluation,
  // step filter and hooks share one product with B (O(n r), the largest volume cost of a step in
  // contact).
  const VecX& positions_at(const VecX& q);
  // The same exact on the support only, in a buffer of its own: the other entries are the first
  // q's, which the terms in positions do not read, and stay so (a contact's line-search cache
  // compares whole vectors: x and the step agree off the support at every call). Every entry
  // without a support.
  const VecX& support_positions_at(const VecX& q);
  // What the step hooks get: the support's x when every term's hooks read no more
  // (hooks_on_support_), else the whole x.
  const VecX& hook_positions_at(const VecX& q);
  // The terms in positions' outputs into g_full_, H_full_ and dynamic_, cleared where they write.
  AssemblyOutputs positions_outputs(bool gradient, bool hessian, double weight, bool project_psd);
  // B^T g_full_ added to `gradient`.
  void add_pulled_back_gradient(VecX& gradient);
  // Offset (when asked) + B p at the compact model's DOFs.
  void to_compact(const VecX& p, bool with_offset, VecX& out) const;

  IncrementalPotential& positions_;
  const Model& model_;
  SubspaceBlocks blocks_;
  BlockHessian hessian_blocks_;
  // beta K_r at the step's start (set_stiffness_damping_start), and q - q_ref and its product.
  BlockHessian stiffness_damping_;
  bool stiffness_damping_set_ = false;
  VecX damping_difference_, damping_product_;
  struct Compact;  // the cubature elements' model, its data and layout
  std::unique_ptr<Compact> compact_;  // null without cubature elasticities
  // The compact model's DOFs of one body, contiguous, and the rows of B there within the body's
  // block, dense: a reduced basis's rows are full, and the products with a sparse H_a and with
  // vectors are then dense kernels, without the sparse products' index work and allocations (a
  // fifth of a reduced step, perf). Blocks keep many bodies apart: 800 affine bodies are 800
  // 12 x 12 products, not one 9600 x 9600.
  struct CompactBlock {
    int block = 0, first_dof = 0, num_dofs = 0;
    MatX U;
  };
  std::vector<CompactBlock> compact_blocks_;
  VecX offset_T_;
  std::vector<const Energy*> positions_terms_;  // the model's terms evaluated in positions
  SparseMat reduced_mass_;  // B^T M B
  Eigen::SimplicialLDLT<SparseMat> reduced_mass_factor_;
  // Kept between evaluations: the compact model's positions, gradient, Hessian; the terms in
  // positions' x, gradient, Hessian (the model's layout) and contact entries.
  // The step filter's compact and full-space steps, kept likewise.
  VecX x_T_, g_T_, g_full_, step_T_, step_full_;
  VecX x_all_, x_all_of_;          // positions_at: x and its q (empty: none yet)
  long whole_positions_formed_ = 0;
  VecX x_support_, x_support_of_;  // support_positions_at: x and its q
  // The support's DOFs (ascending), the rows of B and of the offset there; the products with B
  // on the support go through support_values_.
  bool support_ = false;
  bool hooks_on_support_ = false;  // support_, and no term's hooks_read_all_positions()
  std::vector<int> support_dofs_;
  Eigen::SparseMatrix<double, Eigen::RowMajor, int> support_basis_;
  VecX support_offset_, support_values_;
  SparseMat H_T_, H_full_;
  std::vector<Triplet> dynamic_;
  MatX HU_;
  VecX reduced_force_;      // B^T f_ext
  double offset_work_ = 0.0;  // offset . f_ext
  long configuration_seen_ = -1;
  MassQuadratic inertia_, damping_;
  bool coordinate_step_ = false;  // the current stage was posed in coordinates
  // Per column of B: its largest |entry| and its largest sum of |entries| over one vertex's rows.
  VecX column_bound_entry_, column_bound_vertex_;
};

// The objective a stepper steps in coordinates with: `subspace_objective` when it is a
// ReducedIncrementalPotential with no term evaluated in positions, else null (then the model is
// stepped in positions).
inline ReducedIncrementalPotential* coordinates_objective(Objective* subspace_objective) {
  auto* reduced = dynamic_cast<ReducedIncrementalPotential*>(subspace_objective);
  return reduced && !reduced->has_positions_terms() ? reduced : nullptr;
}

}  // namespace softsim
