#include "softsim/solve/linear_solver.hpp"

#include <Eigen/Cholesky>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

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
// set-up (ordering, symbolic analysis, supernodes, its BLAS threads) costs more than the
// arithmetic it saves. The factorization stays inside the matrix's envelope: row i of L is zero
// before the first column f_i where row i of A has an entry, as every fill-in is (George & Liu
// 1981, ch. 4), so a banded matrix (a grid's springs and elements) costs n b^2 / 2 instead of
// n^3 / 6. Rows are stored contiguously (row-major): every inner product runs over contiguous
// memory. The storage is reused, so a step allocates nothing once sized.
class DenseCholesky : public LinearSolver {
 public:
  std::string name() const override { return "dense"; }
  bool compute(const SparseMat& matrix) override {
    // One value per stored entry: an uncompressed matrix is compressed into a copy first.
    const SparseMat* compressed = &matrix;
    if (!matrix.isCompressed()) {
      copy_ = matrix;
      copy_.makeCompressed();
      compressed = &copy_;
    }
    const SparseMat& A = *compressed;
    const Eigen::Index n = A.rows();
    if (!same_pattern(A)) analyze(A);
    for (Eigen::Index i = 0; i < n; ++i) L_.row(i).segment(first(i), i - first(i) + 1).setZero();
    double* L = L_.data();
    const double* values = A.valuePtr();
    for (std::size_t k = 0; k < position_.size(); ++k)
      if (position_[k] >= 0) L[position_[k]] = values[k];
    factored_ = false;
    // Right-looking: column k is scaled, then the rows it reaches take its rank-one update, one
    // contiguous axpy per row (independent rows: no chain of divisions and short dot products).
    for (Eigen::Index k = 0; k < n; ++k) {
      const double d = L_(k, k);
      if (!(d > 0.0)) return false;
      const double lkk = std::sqrt(d), inverse = 1.0 / lkk;
      L_(k, k) = lkk;
      const Eigen::Index end = std::max(k, last_[static_cast<std::size_t>(k)]) + 1;
      for (Eigen::Index i = k + 1; i < end; ++i)
        column_[i] = first(i) <= k ? (L_(i, k) *= inverse) : 0.0;
      for (Eigen::Index i = k + 1; i < end; ++i) {
        const double c = column_[i];
        if (c == 0.0) continue;
        double* row = L_.row(i).data();
        const double* col = column_.data();
        for (Eigen::Index j = k + 1; j <= i; ++j) row[j] -= c * col[j];
      }
    }
    factored_ = true;
    return true;
  }
  bool solve(const VecX& b, VecX& x, LinearSolveStats* stats = nullptr) override {
    if (!factored_) return false;
    x = b;
    const Eigen::Index n = L_.rows();
    for (Eigen::Index i = 0; i < n; ++i) {  // L y = b
      const Eigen::Index fi = first(i);
      x[i] = (x[i] - L_.row(i).segment(fi, i - fi).dot(x.segment(fi, i - fi))) / L_(i, i);
    }
    for (Eigen::Index i = n - 1; i >= 0; --i) {  // L^T x = y, by rows of L
      const Eigen::Index fi = first(i);
      x[i] /= L_(i, i);
      x.segment(fi, i - fi) -= x[i] * L_.row(i).segment(fi, i - fi).transpose();
    }
    if (stats) *stats = {};
    return x.allFinite();
  }

 private:
  // The envelope, and where each stored value of A goes in L, depend on the pattern only: kept
  // while it is unchanged (compared exactly, O(nnz)), as the sparse direct solvers keep theirs.
  // A is compressed.
  bool same_pattern(const SparseMat& A) const {
    return L_.rows() == A.rows() && !outer_.empty() &&
           static_cast<std::size_t>(A.nonZeros()) == inner_.size() &&
           std::equal(outer_.begin(), outer_.end(), A.outerIndexPtr()) &&
           std::equal(inner_.begin(), inner_.end(), A.innerIndexPtr());
  }
  void analyze(const SparseMat& A) {
    const Eigen::Index n = A.rows();
    first_.resize(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) first_[static_cast<std::size_t>(i)] = i;
    position_.assign(static_cast<std::size_t>(A.nonZeros()), -1);
    for (Eigen::Index c = 0; c < A.outerSize(); ++c)
      for (SparseMat::InnerIterator it(A, c); it; ++it)
        if (it.row() > c) first_[static_cast<std::size_t>(it.row())] = std::min(first_[static_cast<std::size_t>(it.row())], c);
    // The last row whose envelope reaches column k (rows below it have L(i, k) = 0).
    last_.assign(static_cast<std::size_t>(n), 0);
    for (Eigen::Index i = 0; i < n; ++i) last_[static_cast<std::size_t>(first(i))] = i;
    for (Eigen::Index k = 1; k < n; ++k)
      last_[static_cast<std::size_t>(k)] = std::max(last_[static_cast<std::size_t>(k)], last_[static_cast<std::size_t>(k - 1)]);
    L_.resize(n, n);
    column_.resize(n);
    for (Eigen::Index c = 0; c < A.outerSize(); ++c)
      for (Eigen::Index k = A.outerIndexPtr()[c]; k < A.outerIndexPtr()[c + 1]; ++k) {
        const Eigen::Index r = A.innerIndexPtr()[k];
        if (r >= c) position_[static_cast<std::size_t>(k)] = r * n + c;  // the lower triangle is what is read
      }
    outer_.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1);
    inner_.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
  }
  Eigen::Index first(Eigen::Index i) const { return first_[static_cast<std::size_t>(i)]; }
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> L_;
  std::vector<Eigen::Index> first_;  // per row: its envelope's first column
  std::vector<Eigen::Index> last_;   // per column: the last row whose envelope reaches it
  VecX column_;                      // the column being eliminated
  std::vector<Eigen::Index> position_;  // per stored value of A: its offset in L, -1 above the diagonal
  std::vector<int> outer_, inner_;    // the pattern analysed
  SparseMat copy_;                    // an uncompressed input, compressed
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
