#pragma once
// Projected Newton with a filtered backtracking line search (the book, ch. 3 and 8): the
// direction solves H p = -g with H the per-stencil PSD-projected Hessian; the step length starts
// at the filters' bound min(1, alpha_filter) and halves until the Armijo condition holds. Where
// the predicted decrease is below the energy's round-off (near the solution), the Armijo test
// uses the directional derivative instead (Hager & Zhang's approximate Armijo condition), so
// full Newton steps keep converging quadratically down to machine precision.
#include <string>
#include <vector>

#include "softsim/solve/linear_solver.hpp"
#include "softsim/solve/objective.hpp"

namespace softsim {

struct NewtonOptions {
  int max_iterations = 100;
  // Converged when ||p||_inf / step_scale < tolerance (the book's velocity criterion with
  // step_scale = h, tolerance in m/s), or when ||g||_inf < gradient_tolerance.
  double tolerance = 1e-2;
  double step_scale = 1.0;
  double gradient_tolerance = 0.0;
  bool project_psd = true;
  double armijo = 1e-4;  // projected Newton only; the residual solvers' merit search uses kMeritArmijo
  int max_backtracks = 50;
};

struct NewtonResult {
  bool converged = false;
  int iterations = 0;
  int linear_iterations = 0;
  double scaled_step = 0.0;  // ||p||_inf / step_scale at the last iteration
  double gradient_norm = 0.0;
  double energy = 0.0;
  std::string failure;  // why it did not converge
  // Wall time (ms) split, for benchmarks. factorization_ms is the part of solve_ms spent in the
  // linear solver's compute() (numeric factorization, or preconditioner set-up).
  double assembly_ms = 0.0, solve_ms = 0.0, line_search_ms = 0.0, factorization_ms = 0.0;
};

// history (optional) receives ||g(x_k)||_2 of the reduced gradient at every iterate.
NewtonResult minimize(Objective& objective, VecX& x, LinearSolver& solver, const NewtonOptions& options,
                      std::vector<double>* history = nullptr);

}  // namespace softsim
