#include "softsim/solve/rank_one_update.hpp"

#include "softsim/solve/solver_timing.hpp"

#include <Eigen/LU>

namespace softsim {

bool solve_with_rank_one_updates(LinearSolver& solver, const std::vector<RankOneHessian>& updates, const VecX& b,
                                 VecX& x, LinearSolveStats* stats) {
  LinearSolveStats one;
  auto solve = [&](const VecX& rhs, VecX& out) {
    const bool ok = solver.solve(rhs, out, &one);
    if (stats) {
      stats->iterations += one.iterations;
      stats->relative_residual = std::max(stats->relative_residual, one.relative_residual);
    }
    return ok && out.allFinite();
  };
  if (!solve(b, x)) return false;
  const int m = static_cast<int>(updates.size());
  if (m == 0) return true;
  MatX Z(b.size(), m);
  for (int k = 0; k < m; ++k) {
    VecX z(b.size());
    if (!solve(updates[k].u, z)) return false;
    Z.col(k) = z;
  }
  // S = I + C U^T Z (m x m), then x -= Z S^{-1} C U^T y.
  MatX S = MatX::Identity(m, m);
  VecX rhs(m);
  for (int k = 0; k < m; ++k) {
    S.row(k) += updates[k].coefficient * (updates[k].u.transpose() * Z);
    rhs[k] = updates[k].coefficient * updates[k].u.dot(x);
  }
  const Eigen::PartialPivLU<MatX> lu(S);
  const VecX w = lu.solve(rhs);
  if (!w.allFinite()) return false;
  x -= Z * w;
  return x.allFinite();
}

bool factor_and_solve(LinearSolver& solver, const SparseMat& A, const std::vector<RankOneHessian>& updates,
                      const VecX& b, VecX& p, NewtonResult& result) {
  const PhaseTimer timer;
  LinearSolveStats stats;
  bool ok = solver.compute(A);
  timer.add_to(result.factorization_ms);
  ok = ok && solve_with_rank_one_updates(solver, updates, b, p, &stats);
  timer.add_to(result.solve_ms);
  result.linear_iterations += stats.iterations;
  return ok;
}

}  // namespace softsim
