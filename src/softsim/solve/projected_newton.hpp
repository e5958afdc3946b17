#pragma once
// Projected Newton with a filtered backtracking line search (Li & Jiang 2025, Alg. 3.3.1 and 8.2.1): the
// direction solves H p = -g with H the per-stencil PSD-projected Hessian; the step length starts
// at the filters' bound min(1, alpha_filter) and halves until the Armijo condition holds. Where
// the predicted decrease is below the energy's round-off (near the solution), the Armijo test
// uses the directional derivative instead (Hager & Zhang's approximate Armijo condition), so
// full Newton steps keep converging quadratically down to machine precision.
#include <string>
#include <vector>

#include "softsim/solve/linear_solver.hpp"
#include "softsim/solve/newton_options.hpp"
#include "softsim/solve/newton_workspace.hpp"
#include "softsim/solve/objective.hpp"

namespace softsim {

// history (optional) receives ||g(x_k)||_2 of the reduced gradient at every iterate; workspace
// (optional) the buffers to work in, kept by a caller that solves repeatedly.
NewtonResult projected_newton(Objective& objective, VecX& x, LinearSolver& solver, const NewtonOptions& options,
                              std::vector<double>* history = nullptr, NewtonWorkspace* workspace = nullptr);

}  // namespace softsim
