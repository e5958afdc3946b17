#pragma once
// An objective over reduced coordinates y, E(y) = F(offset + B y), for a model whose bodies live
// in a subspace (model/subspace_map.hpp): the positions' objective F (the incremental potential)
// is evaluated at x = offset + B y and pulled back, g_y = B^T g_x, H_y = B^T H_x B (Li & Jiang 2025,
// ch. on ABD: "after DBC elimination"). Dirichlet and slip eliminations are applied in positions
// before the pull-back, so a vertex outside any subspace is constrained as before, and a body in
// one may only be prescribed as a whole (scene_rules.cpp). Step filters see the step B p: positions
// are linear in y, so CCD and the inversion filter apply unchanged (Lan et al. 2022, §4).
#include <memory>
#include <vector>

#include "softsim/model/subspace_map.hpp"
#include "softsim/model/subspace_pull_back.hpp"
#include "softsim/solve/linear_solver.hpp"
#include "softsim/solve/newton_workspace.hpp"
#include "softsim/solve/objective.hpp"

namespace softsim {

class SubspaceObjective : public Objective {
 public:
  SubspaceObjective(Objective& positions_objective, const SubspaceMap& map);

  double evaluate(const VecX& y, VecX* gradient, SparseMat* hessian, bool project_psd) override;
  const SparseMat& hessian_pattern() const override { return pattern_; }
  double max_step_fraction(const VecX& y, const VecX& p) override;
  // A body of the map's turning_frames turns: its A moves along exp(alpha W) (I + alpha S) A with
  // W, S the skew and symmetric parts of dA A^-1, which starts along p and keeps A A^T's
  // deviation from I where a straight step adds O(alpha^2 |dA|^2) to it. A stiff orthogonality
  // potential makes the straight line a steep valley's chord: its line searches took a few
  // percent of a rotation per Newton iteration, and where kappa reached 1e12 the solve stopped
  // (steps below the tolerance) with the spin nearly lost.
  void trial_point(const VecX& y, const VecX& p, double alpha, VecX& y_trial) override;
  bool straight_trials() const override { return map_.turning_frames.empty(); }
  void reduce(VecX& gradient, SparseMat* hessian) const override;
  bool reduce_changes_hessian() const override { return full_.reduce_changes_hessian(); }
  void expand(VecX& step) const override;
  std::function<void(const VecX& p, VecX& out)> hessian_operator(const VecX& y) override;
  void rank_one_hessian(const VecX& y, std::vector<RankOneHessian>& out) override;
  bool end_iteration(const VecX& y) override { return full_.end_iteration(map_.positions(y)); }
  bool before_stop(const VecX& y) override { return full_.before_stop(map_.positions(y)); }
  // Newton's convergence test measures the step in positions, ||B p||.
  double step_norm(const VecX& p, int vertex_l1_dim) const override;
  const SubspaceMap& map() const { return map_; }

 private:
  Objective& full_;
  const SubspaceMap& map_;
  SparseMat pattern_;
  // The last evaluation in positions, which reduce() eliminates and pulls back.
  VecX gradient_x_;
  SparseMat hessian_x_;
  bool has_hessian_ = false;
  // reduce() eliminates in positions and pulls back again; when the elimination changes nothing
  // (no fixed or held DOF, or none of the Hessian's values) the pull-back evaluate() computed is
  // reused: the product B^T H B was the largest cost of an affine body's step (perf, the book's
  // affine square drop).
  mutable SparseMat reduced_x_;  // scratch: hessian_x_ after the elimination
  SparseMat pulled_back_;   // B^T hessian_x_ B, as evaluate() returned it
  mutable SubspacePullBack pull_back_;  // B^T H B with H's pattern analysed once
};

class IncrementalPotential;
class Model;

// The objective over the model's subspace coordinates, or null when every vertex has its own
// DOFs: evaluated without leaving the coordinates where the model allows it (cubature
// elasticities only: reduced_incremental_potential.hpp), in positions and pulled back otherwise.
std::unique_ptr<SubspaceObjective> make_subspace_objective(IncrementalPotential& positions_objective,
                                                           const Model& model);
// The number of unknowns a solve has.
inline int num_unknowns(const SubspaceMap& map, int num_dofs) {
  return map.empty() ? num_dofs : map.num_coordinates();
}

// Projected Newton from positions x (updated in place): over the coordinates of `subspace` when
// it is set (x taken to them and back), over x itself otherwise. The one solve of the implicit
// stages and of the static stepper; workspace (optional): the solver's buffers, kept by the caller.
NewtonResult projected_newton_on_positions(Objective& positions_objective, SubspaceObjective* subspace, VecX& x,
                                           LinearSolver& solver, const NewtonOptions& options,
                                           std::vector<double>* history = nullptr,
                                           NewtonWorkspace* workspace = nullptr);

}  // namespace softsim
