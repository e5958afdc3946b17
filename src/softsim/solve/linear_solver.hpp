#pragma once
// Sparse linear solvers behind one interface. Direct solvers keep their symbolic analysis while
// the matrix pattern is unchanged (the Hessian layout is built once per topology).
#include <memory>
#include <string>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

struct LinearSolveStats {
  int iterations = 0;       // 0 for direct solvers
  double relative_residual = 0.0;
};

class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  virtual std::string name() const = 0;
  // True for the Krylov solvers (their solves are approximate, to the tolerance).
  virtual bool iterative() const { return false; }
  // True when the solver requires a symmetric positive (semi-)definite matrix.
  virtual bool requires_spd() const { return true; }
  // Prepares for solves with A (factorization, or preconditioner set-up). Returns false when A is
  // numerically unsuitable (e.g. not positive definite for Cholesky).
  virtual bool compute(const SparseMat& A) = 0;
  virtual bool solve(const VecX& b, VecX& x, LinearSolveStats* stats = nullptr) = 0;
  // Solves for every column of B (X = A^-1 B). Direct solvers take all the columns in one call
  // (CHOLMOD's supernodal solve is then a dense matrix-matrix product); the default solves them
  // one by one.
  virtual bool solve_many(const MatX& B, MatX& X);
  // Relative tolerance for iterative solvers (ignored by direct ones).
  virtual void set_tolerance(double tol) {}
};

// Names: "dense" (dense Cholesky), "cholmod", "ldlt", "lu", "umfpack", "pcg" (incomplete Cholesky), "pcg_jacobi",
// "bicgstab", and "auto" (dense Cholesky up to kAutoDenseMaxDofs unknowns, then a sparse direct
// Cholesky up to kAutoDirectMaxDofs, then PCG).
std::unique_ptr<LinearSolver> make_linear_solver(const std::string& name, int num_dofs);
const std::vector<std::string>& linear_solver_names();
// The requested solver when it is a direct one for non-symmetric matrices ("lu", "umfpack"),
// else "lu": the residual form's Jacobian is not symmetric.
std::string nonsymmetric_direct_solver(const std::string& requested);

// Above this many unknowns "auto" switches from a direct factorization to PCG: see
// docs/solvers.md for the measurement behind the threshold.
inline constexpr int kAutoDirectMaxDofs = 150000;
// Up to this many unknowns "auto" factorizes densely (the small-scene fast path; measured in
// bench_linear_solvers, docs/solvers.md).
inline constexpr int kAutoDenseMaxDofs = 200;

}  // namespace softsim
