#include "softsim/solve/linear_solver.hpp"

#include <Eigen/Cholesky>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "softsim/core/sparsity_pattern.hpp"
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
// n^3 / 6. The envelope is stored packed, row after row (row i holds columns f_i..i): every
// inner product runs over contiguous memory, clearing it is one fill, and nothing outside it is
// touched. The storage is reused, so a step allocates nothing once sized.
// It is the square-root-free form A = L D L^T (L unit lower triangular): on these small
// matrices each column's square root sat on the chain of dependent operations that runs
// through the whole factorization (10% of it, perf on the book's mass-spring square).
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
    if (!pattern_.matches(A)) analyze(A);
    std::fill(envelope_.begin(), envelope_.end(), 0.0);
    double* L = envelope_.data();
    const double* values = A.valuePtr();
    // The lower triangle's entries only, from a list made once per pattern: no branch per entry
    // (a test for the upper half was a quarter of the factorization).
    const std::size_t lower = lower_source_.size();
    for (std::size_t k = 0; k < lower; ++k) L[lower_target_[k]] = values[lower_source_[k]];
    factored_ = false;
    // The band rows [0, m), right-looking, two columns at a time: columns k and k+1 are
    // eliminated (k+1 after its update by k), then every row they reach takes their rank-two
    // update in one contiguous pass (half the loads and stores of one column at a time;
    // independent rows, no chain of divisions). u holds a column before its division by the
    // pivot, l after it: A(i, j) -= l_k(i) u_k(j) + l_{k+1}(i) u_{k+1}(j).
    const Eigen::Index m = band_rows_;
    double* __restrict u0 = column_.data();
    double* __restrict u1 = second_column_.data();
    double* __restrict l0 = scaled_column_.data();
    double* __restrict l1 = second_scaled_column_.data();
    for (Eigen::Index k = 0; k < m; k += 2) {
      const Eigen::Index end0 = last_[static_cast<std::size_t>(k)] + 1;
      if (!eliminate_column(L, k, end0, u0, l0, nullptr, nullptr)) return false;
      if (k + 1 == m) break;  // the band's last column: no band row below it to update
      const Eigen::Index end1 = last_[static_cast<std::size_t>(k + 1)] + 1;  // >= end0
      for (Eigen::Index i = end0; i < end1; ++i) u0[i] = l0[i] = 0.0;
      if (!eliminate_column(L, k + 1, end1, u1, l1, u0, l0)) return false;
      for (Eigen::Index i = k + 2; i < end1; ++i) {
        const double a = l0[i], b = l1[i];
        if (a == 0.0 && b == 0.0) continue;
        double* __restrict target = L + row_base_[static_cast<std::size_t>(i)];
        for (Eigen::Index j = k + 2; j <= i; ++j) target[j] -= a * u0[j] + b * u1[j];
      }
    }
    // The border rows [m, n), one after the other from the rows above them (up-looking):
    // L(i, j) D_j = A(i, j) - sum_k L(i, k) D_k L(j, k), with w_k = L(i, k) D_k kept.
    double* __restrict w = column_.data();
    for (Eigen::Index i = m; i < n; ++i) {
      const std::size_t r = static_cast<std::size_t>(i);
      double* row_i = L + row_base_[r];
      const Eigen::Index first = first_[r];
      for (Eigen::Index j = first; j < i; ++j) {
        const std::size_t c = static_cast<std::size_t>(j);
        w[j] = row_i[j] - dot(w, L + row_base_[c], std::max(first, first_[c]), j);
        row_i[j] = w[j] * inverse_diagonal_[c];
      }
      const double d = row_i[i] - dot(w, row_i, first, i);
      if (!(d > 0.0)) return false;
      row_i[i] = d;
      inverse_diagonal_[r] = 1.0 / d;
    }
    factored_ = true;
    return true;
  }
  bool solve(const VecX& b, VecX& x, LinearSolveStats* stats = nullptr) override {
    if (!factored_) return false;
    x = b;
    const Eigen::Index n = static_cast<Eigen::Index>(first_.size());
    const double* L = envelope_.data();
    double* y = x.data();
    // L y = b, L unit lower triangular. One running sum per row (four partial sums, as the
    // border rows take, measured no faster here once the factorization had changed).
    for (Eigen::Index i = 0; i < n; ++i) {
      const std::size_t r = static_cast<std::size_t>(i);
      const double* row = L + row_base_[r];
      double sum = y[i];
      for (Eigen::Index j = first_[r]; j < i; ++j) sum -= row[j] * y[j];
      y[i] = sum;
    }
    for (Eigen::Index i = 0; i < n; ++i) y[i] *= inverse_diagonal_[static_cast<std::size_t>(i)];  // D z = y
    for (Eigen::Index i = n - 1; i >= 0; --i) {  // L^T x = z, by rows of L
      const std::size_t r = static_cast<std::size_t>(i);
      const double* row = L + row_base_[r];
      const double xi = y[i];
      for (Eigen::Index j = first_[r]; j < i; ++j) y[j] -= xi * row[j];
    }
    if (stats) *stats = {};
    return x.allFinite();
  }

 private:
  // sum_{j in [begin, end)} a[j] b[j] with four partial sums: one sum is a chain of dependent
  // additions, which the compiler may not reorder (the border rows' cost).
  static double dot(const double* __restrict a, const double* __restrict b, Eigen::Index begin, Eigen::Index end) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    Eigen::Index j = begin;
    for (; j + 4 <= end; j += 4) {
      s0 += a[j] * b[j];
      s1 += a[j + 1] * b[j + 1];
      s2 += a[j + 2] * b[j + 2];
      s3 += a[j + 3] * b[j + 3];
    }
    for (; j < end; ++j) s0 += a[j] * b[j];
    return (s0 + s1) + (s2 + s3);
  }
  // Eliminates column q: first the update by the column eliminated just before it (when
  // `previous_u` and `previous_l` are given: A(i, q) -= previous_l[i] previous_u[q]), then the
  // division by the pivot d_q = A(q, q), which is kept as D's entry. The column before the
  // division goes to `u` and after it to `l` (rows q+1 .. end-1, zero where a row's envelope does
  // not reach q); L(i, q) is l. False if the pivot is not positive.
  bool eliminate_column(double* L, Eigen::Index q, Eigen::Index end, double* u, double* l, const double* previous_u,
                        const double* previous_l) {
    double* row_q = L + row_base_[static_cast<std::size_t>(q)];
    const double previous_uq = previous_u ? previous_u[q] : 0.0;
    const double d = row_q[q] - (previous_u ? previous_l[q] * previous_uq : 0.0);
    if (!(d > 0.0)) return false;
    const double inverse = 1.0 / d;
    row_q[q] = d;
    inverse_diagonal_[static_cast<std::size_t>(q)] = inverse;
    for (Eigen::Index i = q + 1; i < end; ++i) {
      const std::size_t r = static_cast<std::size_t>(i);
      if (first_[r] > q) {
        u[i] = l[i] = 0.0;
        continue;
      }
      double& entry = L[row_base_[r] + q];
      if (previous_u) entry -= previous_l[i] * previous_uq;
      u[i] = entry;
      l[i] = (entry *= inverse);
    }
    return true;
  }
  // The envelope, and where each stored value of A goes in it, depend on the pattern only: kept
  // while it is unchanged, as the sparse direct solvers keep theirs. A is compressed.
  void analyze(const SparseMat& A) {
    const Eigen::Index n = A.rows();
    const std::size_t rows = static_cast<std::size_t>(n);
    first_.resize(rows);
    for (Eigen::Index i = 0; i < n; ++i) first_[static_cast<std::size_t>(i)] = i;
    for (Eigen::Index c = 0; c < A.outerSize(); ++c)
      for (SparseMat::InnerIterator it(A, c); it; ++it)
        if (it.row() > c) first_[static_cast<std::size_t>(it.row())] = std::min(first_[static_cast<std::size_t>(it.row())], c);
    // Row i occupies [offset_i, offset_i + i - f_i]; L(i, j) is envelope_[row_base_[i] + j]. The
    // packed rows start after n unused entries so that row_base_ = offset_i - f_i is never
    // negative (a pointer is never formed before the array).
    row_base_.resize(rows);
    std::ptrdiff_t offset = static_cast<std::ptrdiff_t>(n);
    for (std::size_t i = 0; i < rows; ++i) {
      row_base_[i] = offset - first_[i];
      offset += static_cast<std::ptrdiff_t>(i) - first_[i] + 1;
    }
    envelope_.assign(static_cast<std::size_t>(offset), 0.0);
    // Border rows: the trailing rows far wider than the band (a moving obstacle's DOF, coupled
    // to every vertex it touches, is numbered last). In the right-looking sweep such a row
    // would make every column scan every row below it; it is factored on its own instead.
    std::vector<Eigen::Index> widths(rows);
    for (std::size_t i = 0; i < rows; ++i) widths[i] = static_cast<Eigen::Index>(i) - first_[i];
    std::nth_element(widths.begin(), widths.begin() + rows / 2, widths.end());
    const Eigen::Index wide = 2 * (rows ? widths[rows / 2] : 0) + 8;
    band_rows_ = n;
    while (band_rows_ > 0 && band_rows_ - 1 - first_[static_cast<std::size_t>(band_rows_ - 1)] > wide) --band_rows_;
    // The last band row whose envelope reaches column k (band rows below it have L(i, k) = 0).
    last_.assign(rows, 0);
    for (Eigen::Index i = 0; i < band_rows_; ++i) last_[static_cast<std::size_t>(first_[static_cast<std::size_t>(i)])] = i;
    for (std::size_t k = 0; k < rows; ++k)
      last_[k] = std::max<Eigen::Index>({last_[k], static_cast<Eigen::Index>(k), k > 0 ? last_[k - 1] : 0});
    for (VecX* column : {&column_, &second_column_, &scaled_column_, &second_scaled_column_}) column->resize(n);
    inverse_diagonal_.resize(rows);
    lower_source_.clear();
    lower_target_.clear();
    for (Eigen::Index c = 0; c < A.outerSize(); ++c)
      for (Eigen::Index k = A.outerIndexPtr()[c]; k < A.outerIndexPtr()[c + 1]; ++k) {
        const Eigen::Index r = A.innerIndexPtr()[k];
        if (r < c) continue;  // the lower triangle is what is read
        lower_source_.push_back(k);
        lower_target_.push_back(row_base_[static_cast<std::size_t>(r)] + c);
      }
    pattern_.assign(A);
  }
  std::vector<double> envelope_;        // L's envelope, packed by rows (D on its diagonal)
  std::vector<std::ptrdiff_t> row_base_;  // per row i: L(i, j) = envelope_[row_base_[i] + j]
  std::vector<Eigen::Index> first_;     // per row: its envelope's first column
  std::vector<Eigen::Index> last_;      // per band column: the last band row whose envelope reaches it
  Eigen::Index band_rows_ = 0;          // rows [0, band_rows_) are factored right-looking, the rest row by row
  // The two columns being eliminated, before and after the division by their pivots.
  VecX column_, second_column_, scaled_column_, second_scaled_column_;
  // 1 / D(i, i): the solve multiplies, keeping divisions out of it.
  std::vector<double> inverse_diagonal_;
  // A's stored values on and below the diagonal (their index in A) and their offsets in envelope_.
  std::vector<std::ptrdiff_t> lower_source_, lower_target_;
  SparsityPattern pattern_;             // the pattern analysed
  SparseMat copy_;                      // an uncompressed input, compressed
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
    // Contact changes the pattern between Newton iterations: compared exactly. An uncompressed
    // A never matches, so it is analysed each time (the factorizations accept it).
    if (!pattern_.matches(A)) {
      factorization_.analyzePattern(A);
      if (A.isCompressed()) pattern_.assign(A);
      else pattern_.clear();
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
  SparsityPattern pattern_;  // the pattern analysed
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
