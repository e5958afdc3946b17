#pragma once
// The buffers a Newton solve works in. A caller that solves again and again (an implicit stage,
// every step) keeps one, so that a solve whose size and Hessian pattern are those of the last
// allocates nothing: on the case studies of Li & Jiang 2025 (20-120 nodes) allocating them per
// solve was a measurable part of the step (docs/book-cases.md). A solve given none makes its own.
#include <vector>

#include "softsim/core/types.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

struct NewtonWorkspace {
  VecX step, trial;  // the driver's direction p and trial point x + alpha p
  // Projected Newton: the Hessian (on the objective's pattern), the reduced gradient, the
  // gradient before the reduction, the gradient at a trial point, the right side -g of the
  // Newton system, and the dense rank-one parts.
  SparseMat hessian;
  VecX gradient, world_gradient, trial_gradient, right_side;
  std::vector<RankOneHessian> rank_one;
};

}  // namespace softsim
