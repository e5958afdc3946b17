#include "softsim/solve/linear_solver.hpp"

#include <Eigen/Cholesky>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <algorithm>
#include <stdexcept>

#include "softsim/solve/blas_threads.hpp"

#ifdef SOFTSIM_HAVE_CHOLMOD
#include <Eigen/CholmodSupport>
#endif
#ifdef SOFTSIM_HAVE_UMFPACK
#include <Eigen/UmfPackSupport>
#endif

namespace softsim {

namespace {

// Dense Cholesky of the (small) matrix: below a few hundred unknowns a sparse factorization's
// set-up (ordering, symbolic analysis, supernodes, its BLAS threads) costs more than the O(n^3)
// arithmetic it saves. The dense copy is reused, so a step allocates nothing once sized.
class DenseCholesky : public LinearSolver {
 public:
  std::string name() const override { return "dense"; }
  bool compute(const SparseMat& A) override {
    dense_.setZero(A.rows(), A.cols());
    for (int c = 0; c < A.outerSize(); ++c)
      for (SparseMat::InnerIterator it(A, c); it; ++it)
        if (it.row() >= c) dense_(it.row(), c) = it.value();  // the lower triangle is what LLT reads
    // Unblocked: at these sizes the blocked factorization's matrix-product kernels cost more
    // than they save (Eigen's own LLT blocks from 8 columns on).
    factored_ = Eigen::internal::llt_inplace<double, Eigen::Lower>::unblocked(dense_) < 0;
    return factored_;
  }
  bool solve(const VecX& b, VecX& x, LinearSolveStats* stats = nullptr) override {
    if (!factored_) return false;
    x = b;
    dense_.triangularView<Eigen::Lower>().solveInPlace(x);
    dense_.triangularView<Eigen::Lower>().transpose().solveInPlace(x);
    if (stats) *stats = {};
    return x.allFinite();
  }

 private:
  MatX dense_;
  bool factored_ = false;
};

// Direct solvers: symbolic analysis is redone only when the pattern (size, non-zeros) changes.
template <class Factorization>
class DirectSolver : public LinearSolver {
 public:
  DirectSolver(std::string name, bool spd) : name_(std::move(name)), spd_(spd) {}
  std::string name() const override { return name_; }
  bool requires_spd() const override { return spd_; }
  bool compute(const SparseMat& A) override {
    // Contact changes the pattern between Newton iterations: compare it exactly (O(nnz)).
    const bool same_pattern =
        analyzed_ && A.rows() == rows_ && A.nonZeros() == static_cast<Eigen::Index>(inner_.size()) &&
        std::equal(outer_.begin(), outer_.end(), A.outerIndexPtr()) &&
        std::equal(inner_.begin(), inner_.end(), A.innerIndexPtr());
    if (!same_pattern) {
      factorization_.analyzePattern(A);
      analyzed_ = true;
      rows_ = A.rows();
      outer_.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1);
      inner_.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
    }
    factorization_.factorize(A);
    return factorization_.info() == Eigen::Success;
  }
  bool solve(const VecX& b, VecX& x, LinearSolveStats* stats) override {
    x = factorization_.solve(b);
    if (stats) *stats = {};
    return factorization_.info() == Eigen::Success && x.allFinite();
  }
  bool solve_many(const MatX& B, MatX& X) override {
    X = factorization_.solve(B);
    return factorization_.info() == Eigen::Success && X.allFinite();
  }

 private:
  std::string name_;
  bool spd_;
  Factorization factorization_;
  bool analyzed_ = false;
  Eigen::Index rows_ = 0;
  std::vector<int> outer_, inner_;
};

template <class Iterative>
class IterativeSolver : public LinearSolver {
 public:
  IterativeSolver(std::string name, bool spd) : name_(std::move(name)), spd_(spd) { solver_.setTolerance(1e-8); }
  std::string name() const override { return name_; }
  bool iterative() const override { return true; }
  bool requires_spd() const override { return spd_; }
  void set_tolerance(double tol) override { solver_.setTolerance(tol); }
  bool compute(const SparseMat& A) override {
    solver_.compute(A);
    return solver_.info() == Eigen::Success;
  }
  bool solve(const VecX& b, VecX& x, LinearSolveStats* stats) override {
    x = solver_.solve(b);
    if (stats) {
      stats->iterations = static_cast<int>(solver_.iterations());
      stats->relative_residual = solver_.error();
    }
    return solver_.info() == Eigen::Success && x.allFinite();
  }

 private:
  std::string name_;
  bool spd_;
  Iterative solver_;
};

using Ldlt = Eigen::SimplicialLDLT<SparseMat, Eigen::Lower, Eigen::AMDOrdering<int>>;
using Lu = Eigen::SparseLU<SparseMat, Eigen::COLAMDOrdering<int>>;
using PcgIc = Eigen::ConjugateGradient<SparseMat, Eigen::Lower | Eigen::Upper, Eigen::IncompleteCholesky<double>>;
using PcgJacobi = Eigen::ConjugateGradient<SparseMat, Eigen::Lower | Eigen::Upper, Eigen::DiagonalPreconditioner<double>>;
using Bicgstab = Eigen::BiCGSTAB<SparseMat, Eigen::IncompleteLUT<double>>;

}  // namespace

bool LinearSolver::solve_many(const MatX& B, MatX& X) {
  X.resize(B.rows(), B.cols());
  VecX x;
  for (Eigen::Index j = 0; j < B.cols(); ++j) {
    if (!solve(B.col(j), x)) return false;
    X.col(j) = x;
  }
  return true;
}

const std::vector<std::string>& linear_solver_names() {
  static const std::vector<std::string> names{"auto",       "dense", "cholmod", "ldlt", "lu", "umfpack", "pcg",
                                              "pcg_jacobi", "bicgstab"};
  return names;
}

std::string nonsymmetric_direct_solver(const std::string& requested) {
  return requested == "umfpack" || requested == "lu" ? requested : "lu";
}

std::unique_ptr<LinearSolver> make_linear_solver(const std::string& name, int num_dofs) {
  limit_blas_threads();
  if (name == "auto")
    return make_linear_solver(num_dofs <= kAutoDenseMaxDofs    ? "dense"
                              : num_dofs <= kAutoDirectMaxDofs ? "cholmod"
                                                               : "pcg",
                              num_dofs);
  if (name == "dense") return std::make_unique<DenseCholesky>();
  if (name == "cholmod") {
#ifdef SOFTSIM_HAVE_CHOLMOD
    return std::make_unique<DirectSolver<Eigen::CholmodSupernodalLLT<SparseMat, Eigen::Lower>>>("cholmod", true);
#else
    return std::make_unique<DirectSolver<Ldlt>>("ldlt", true);  // GPL components disabled
#endif
  }
  if (name == "ldlt") return std::make_unique<DirectSolver<Ldlt>>("ldlt", true);
  if (name == "lu") return std::make_unique<DirectSolver<Lu>>("lu", false);
  if (name == "umfpack") {
#ifdef SOFTSIM_HAVE_UMFPACK
    return std::make_unique<DirectSolver<Eigen::UmfPackLU<SparseMat>>>("umfpack", false);
#else
    return std::make_unique<DirectSolver<Lu>>("lu", false);
#endif
  }
  if (name == "pcg") return std::make_unique<IterativeSolver<PcgIc>>("pcg", true);
  if (name == "pcg_jacobi") return std::make_unique<IterativeSolver<PcgJacobi>>("pcg_jacobi", true);
  if (name == "bicgstab") return std::make_unique<IterativeSolver<Bicgstab>>("bicgstab", false);
  throw std::invalid_argument("unknown linear solver '" + name + "'");
}

}  // namespace softsim
