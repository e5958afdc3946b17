#pragma once
// What every Newton variant is told (tolerances, iteration limits) and reports (convergence,
// counts, the wall time of its phases).
#include <string>

#include "softsim/core/types.hpp"

namespace softsim {

struct NewtonOptions {
  int max_iterations = 100;
  // Converged when ||p||_inf / step_scale < tolerance (the velocity criterion of Li & Jiang 2025,
  // Remark 3.3.1, with step_scale = h, tolerance in m/s), or when ||g||_inf < gradient_tolerance.
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

}  // namespace softsim
