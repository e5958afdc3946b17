#pragma once
// An objective to minimise over the stacked DOF vector: an incremental potential, or a static
// equilibrium's total potential. Eliminated DOFs (Dirichlet, slip) are handled through reduce()
// and expand(); step filters (inversion, CCD) through max_step_fraction(). An objective is used
// by one solve at a time: implementations keep scratch storage between calls, const ones too.
#include <functional>
#include <vector>

#include "softsim/core/types.hpp"
#include "softsim/model/energy.hpp"
#include "softsim/solve/newton_options.hpp"

namespace softsim {

class Objective {
 public:
  virtual ~Objective() = default;
  // Returns E(x). When non-null, gradient and Hessian are overwritten (the Hessian keeps the
  // pattern of hessian_pattern()); project_psd asks for per-stencil PSD projection.
  virtual double evaluate(const VecX& x, VecX* gradient, SparseMat* hessian, bool project_psd) = 0;
  virtual const SparseMat& hessian_pattern() const = 0;
  // Step filters: the largest alpha in (0, 1] such that x + alpha p is admissible.
  virtual double max_step_fraction(const VecX& x, const VecX& p) { return 1.0; }
  // A line search's trial point at alpha along p: x + alpha p, unless some coordinates move along
  // a curve that starts along p (straight_trials() false), which the search then filters per trial.
  virtual void trial_point(const VecX& x, const VecX& p, double alpha, VecX& x_trial) { x_trial = x + alpha * p; }
  virtual bool straight_trials() const { return true; }
  // Newton system transforms for eliminated DOFs (see BoundaryConditions).
  virtual void reduce(VecX& gradient, SparseMat* hessian) const {}
  // False when reduce() leaves every Hessian as it is (nothing eliminated at present), so that a
  // caller holding something computed from the Hessian may keep it.
  virtual bool reduce_changes_hessian() const { return true; }
  virtual void expand(VecX& step) const {}
  // The unprojected Hessian at x as an operator, out = H p, built once for the many products at
  // one iterate (empty when not available).
  virtual std::function<void(const VecX& p, VecX& out)> hessian_operator(const VecX& x) { return {}; }
  // Overwrites out with the dense rank-one Hessian parts the assembled Hessian leaves out,
  // reduced like the gradient (empty when there are none).
  virtual void rank_one_hessian(const VecX& x, std::vector<RankOneHessian>& out) { out.clear(); }
  // After each accepted iterate: lets adaptive terms update; true when that changed the objective.
  virtual bool end_iteration(const VecX& x) { return false; }
  // Where Newton would stop without taking its last step (NewtonOptions::take_last_step false):
  // the terms' after-convergence hooks (a penalty-driven motion stiffens while its target is
  // missed); true when they changed the objective, and the iteration goes on along the step it
  // has, as the companion code of Li & Jiang 2025 does.
  virtual bool before_stop(const VecX& x) { return false; }
  // A number lambda >= 0 with H >= lambda I for every Hessian that evaluate(project_psd = true)
  // assembles, reduced (on the DOFs left free), with the rank-one parts that have non-negative
  // coefficients added; 0 claims nothing. Newton then knows ||p||_2 <= ||g||_2 / lambda without
  // solving (NewtonVariant::bounded_step_norm).
  virtual double hessian_lower_bound() const { return 0.0; }
  // ||p|| in Newton's convergence test (an objective over reduced coordinates measures B p).
  virtual double step_norm(const VecX& p, int vertex_l1_dim) const { return newton_step_norm(p, vertex_l1_dim); }
};

}  // namespace softsim
