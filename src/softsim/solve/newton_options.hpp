#pragma once
// What every Newton variant is told (tolerances, iteration limits) and reports (convergence,
// counts, the wall time of its phases).
#include <algorithm>
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
  // Whether the step p that meets the tolerance is taken before stopping. The companion code of
  // Li & Jiang 2025 (its Newton loop, Algorithm 3.3.1) stops without taking it: false.
  bool take_last_step = true;
  // How ||p|| is measured: the largest entry (0), or, when this is the dimension, the largest
  // sum |p_x| + |p_y| (+ |p_z|) over vertices: the matrix infinity norm of the n x dim step that
  // the companion code of Li & Jiang 2025 takes (numpy's LA.norm(p, inf)).
  int vertex_l1_dim = 0;
  // Sufficient decrease c of E(x + alpha p) <= E(x) + c alpha g.p; 0: any decrease (the companion
  // code of Li & Jiang 2025). Projected Newton only; the residual solvers' merit search uses kMeritArmijo.
  double armijo = 1e-4;
  int max_backtracks = 50;
};

// ||p|| in the convergence test (NewtonOptions::vertex_l1_dim).
inline double newton_step_norm(const VecX& p, int vertex_l1_dim) {
  if (vertex_l1_dim <= 0) return p.lpNorm<Eigen::Infinity>();
  double largest = 0.0;
  for (Eigen::Index i = 0; i + vertex_l1_dim <= p.size(); i += vertex_l1_dim)
    largest = std::max(largest, p.segment(i, vertex_l1_dim).lpNorm<1>());
  return largest;
}

struct NewtonResult {
  bool converged = false;
  int iterations = 0;
  int linear_iterations = 0;
  double scaled_step = 0.0;  // ||p||_inf / step_scale at the last iteration
  double gradient_norm = 0.0;
  double energy = 0.0;
  std::string failure;  // why it did not converge
  // Wall time (ms) split, for benchmarks, after set_phase_timing(true) (solver_timing.hpp; zero
  // otherwise). factorization_ms is the part of solve_ms spent in the linear solver's compute()
  // (numeric factorization, or preconditioner set-up).
  double assembly_ms = 0.0, solve_ms = 0.0, line_search_ms = 0.0, factorization_ms = 0.0;
};

}  // namespace softsim
