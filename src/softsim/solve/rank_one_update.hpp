#pragma once
// Solves (A + sum_k c_k u_k u_k^T) x = b with a solver prepared for the sparse A, without forming
// the dense update (Sherman-Morrison-Woodbury, with U = [u_1 ... u_m], C = diag(c_k)):
//   x = y - Z (I + C U^T Z)^{-1} C U^T y,   y = A^{-1} b,  Z = A^{-1} U,
// m + 1 solves with the one factorization. This is how direct Newton solves apply a volume
// penalty's exact Jacobian (Larionov et al. 2022, §3.4 and Table 2(c), "Exact J") at the cost of one
// extra back-substitution per penalty instead of a dense matrix.
#include <vector>

#include "softsim/model/energy.hpp"
#include "softsim/solve/linear_solver.hpp"
#include "softsim/solve/newton_options.hpp"

namespace softsim {

// stats accumulates the iterations of every solve (iterative solvers).
bool solve_with_rank_one_updates(LinearSolver& solver, const std::vector<RankOneHessian>& updates, const VecX& b,
                                 VecX& x, LinearSolveStats* stats = nullptr);

// A Newton direction by a direct solve: factorizes A and solves (A + the rank-one parts) p = b,
// adding the wall time to result (factorization_ms: the factorization; solve_ms: both) and the
// solver's iterations to its linear count. False when either fails.
bool factor_and_solve(LinearSolver& solver, const SparseMat& A, const std::vector<RankOneHessian>& updates,
                      const VecX& b, VecX& p, NewtonResult& result);

}  // namespace softsim
