#pragma once
// The buffers a Newton solve works in. A caller that solves again and again (an implicit stage,
// every step) keeps one, so that a solve whose size and Hessian pattern are those of the last
// allocates nothing: on the case studies of Li & Jiang 2025 (20-120 nodes) allocating them per
// solve was a measurable part of the step (docs/book-cases.md). A solve given none makes its own.
#include <vector>

#include "softsim/core/types.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class LinearSolver;  // solve/linear_solver.hpp

struct NewtonWorkspace {
  VecX step, trial;  // the driver's direction p and trial point x + alpha p
  // Projected Newton: the Hessian (on the objective's pattern), the reduced gradient, the
  // gradient before the reduction, the gradient at a trial point, the right side -g of the
  // Newton system, and the dense rank-one parts.
  SparseMat hessian;
  VecX gradient, world_gradient, trial_gradient, right_side;
  std::vector<RankOneHessian> rank_one;
  // The refined bound on a step (ProjectedNewton::bounded_step_norm): the solver whose
  // factorization of this workspace's Hessian (of this size) succeeded last, a trial step and its
  // residual; refine_credit is positive while refinements have recently decided, and
  // refine_skipped counts the chances passed up while it is not.
  const LinearSolver* factored_by = nullptr;
  Eigen::Index factored_size = 0;
  VecX bound_step, bound_residual;
  int refine_credit = 4, refine_skipped = 0;
};

}  // namespace softsim
