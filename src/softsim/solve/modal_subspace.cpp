#include "softsim/solve/modal_subspace.hpp"

#include <Eigen/Eigenvalues>
#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/SymGEigsShiftSolver.h>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "softsim/solve/free_dofs.hpp"
#include "softsim/solve/linear_solver.hpp"

namespace softsim {

VecX ModalSubspace::frequencies_hz() const {
  return eigenvalues.unaryExpr([](double l) { return std::sqrt(std::max(l, 0.0)) / (2.0 * std::numbers::pi); });
}

namespace {

// y = (K - sigma M)^-1 x by a sparse Cholesky factorization: the operation Spectra's
// shift-invert mode asks for.
class ShiftInvertOperator {
 public:
  using Scalar = double;
  ShiftInvertOperator(const SparseMat& K, const SparseMat& M) : K_(K), M_(M) {}
  Eigen::Index rows() const { return K_.rows(); }
  Eigen::Index cols() const { return K_.cols(); }
  void set_shift(double sigma) {
    if (solver_ && sigma == sigma_) return;  // every run of the deflation below keeps it
    SparseMat A = K_ - sigma * M_;
    solver_ = make_linear_solver("cholmod", static_cast<int>(A.rows()));
    if (!solver_->compute(A))
      throw std::runtime_error("modal subspace: K - sigma M is not positive definite (sigma = " + std::to_string(sigma) +
                               "): the stiffness has negative eigenvalues");
    sigma_ = sigma;
  }
  // Modes found by earlier runs (M-orthonormal columns), which this run's Krylov space leaves out.
  void deflate(const MatX& found) { found_ = found; }
  // Spectra passes x = M v: y = P (K - sigma M)^-1 P^T x with P = I - X X^T M, so the operator
  // on v is P S P (S = (K - sigma M)^-1 M), self-adjoint in the M inner product.
  void perform_op(const double* x_in, double* y_out) const {
    VecX x = Eigen::Map<const VecX>(x_in, rows());
    if (found_.cols() > 0) x -= M_ * (found_ * (found_.transpose() * x));
    VecX y;
    solver_->solve(x, y);
    if (found_.cols() > 0) y -= found_ * (found_.transpose() * (M_ * y));
    Eigen::Map<VecX>(y_out, rows()) = y;
  }

 private:
  const SparseMat& K_;
  const SparseMat& M_;
  std::unique_ptr<LinearSolver> solver_;
  double sigma_ = 0.0;
  MatX found_;
};

// Makes X M-orthonormal (X <- X L^-T with L L^T = X^T M X): the eigensolvers normalise to round-off,
// the stepper's projector X X^T M relies on it exactly.
void m_orthonormalize(MatX& X, const SparseMat& M) {
  if (X.cols() == 0) return;
  const MatX gram = X.transpose() * (M * X);
  Eigen::LLT<MatX> llt(gram);
  if (llt.info() != Eigen::Success) throw std::runtime_error("modal subspace: the modes are linearly dependent");
  X = llt.matrixL().solve(X.transpose()).transpose();
}

}  // namespace

ModalSubspace lowest_modes(const SparseMat& K, const SparseMat& M, const std::vector<char>& fixed,
                           const ModalOptions& options) {
  const int n = static_cast<int>(K.rows());
  const FreeDofs free(n, fixed);
  const int nf = free.count();
  const int s = std::clamp(options.count, 0, nf);
  ModalSubspace result;
  result.modes = MatX::Zero(n, s);
  result.eigenvalues = VecX::Zero(s);
  if (s == 0) return result;
  const SparseMat Kf = free.block(K);
  const SparseMat Mf = free.block(M);

  MatX Xf;
  VecX lambda;
  if (nf <= options.dense_below || 2 * s + 1 >= nf) {
    const MatX Kd(Kf), Md(Mf);
    Eigen::GeneralizedSelfAdjointEigenSolver<MatX> dense(Kd, Md);
    if (dense.info() != Eigen::Success) throw std::runtime_error("modal subspace: the dense eigensolver failed");
    lambda = dense.eigenvalues().head(s);  // ascending
    Xf = dense.eigenvectors().leftCols(s);
  } else {
    // sigma below every eigenvalue (K is PSD) and on the scale of the stiffness so that the
    // factorization is well conditioned: a small fraction of the mean diagonal ratio K_ii / M_ii.
    double ratio = 0.0;
    for (int i = 0; i < nf; ++i) ratio += Kf.coeff(i, i) / Mf.coeff(i, i);
    const double sigma = -1e-4 * std::max(ratio / nf, 1e-300);
    using Solver = Spectra::SymGEigsShiftSolver<ShiftInvertOperator, Spectra::SparseSymMatProd<double>,
                                                Spectra::GEigsMode::ShiftInvert>;
    ShiftInvertOperator op(Kf, Mf);
    Spectra::SparseSymMatProd<double> mass_op(Mf);
    // One Krylov space holds one direction of each eigenspace: the other directions of a
    // repeated eigenvalue (a free body's six rigid modes, the two bending modes of a square
    // beam) enter only through round-off, so whether they are found depends on the BLAS
    // kernels. So each run is followed by one in the M-orthogonal complement of the modes
    // kept so far; the modes it finds below the highest kept one replace the highest, until a
    // run finds none.
    std::vector<std::pair<double, VecX>> kept;
    MatX found(nf, 0);
    for (int run = 0; run <= s; ++run) {
      const int wanted = run == 0 ? s : std::min(s, 6);
      const int room = nf - static_cast<int>(found.cols());
      const int ncv = std::min(room, std::max(2 * wanted + 1, wanted + 20));
      if (wanted >= ncv) break;  // the complement is too small to search
      op.deflate(found);
      Solver eigs(op, mass_op, wanted, ncv, sigma);
      eigs.init();
      eigs.compute(Spectra::SortRule::LargestMagn, options.max_iterations, options.tolerance,
                   Spectra::SortRule::SmallestAlge);
      // A check run that does not converge is given up with the modes it did converge (Spectra
      // returns those): the first run's modes stand unless a converged one beats them.
      if (run == 0 && eigs.info() != Spectra::CompInfo::Successful)
        throw std::runtime_error("modal subspace: the eigensolver did not converge to " + std::to_string(wanted) +
                                 " modes");
      const VecX values = eigs.eigenvalues();
      const MatX vectors = eigs.eigenvectors();
      const bool first = kept.empty();
      const double highest = first ? 0.0 : kept.back().first;
      bool any = false;
      for (int j = 0; j < values.size(); ++j)
        if (first || values[j] < highest - 1e-10 * std::abs(highest)) {
          kept.emplace_back(values[j], vectors.col(j));
          any = true;
        }
      if (!any) break;
      std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      if (static_cast<int>(kept.size()) > s) kept.resize(s);
      found.resize(nf, static_cast<Eigen::Index>(kept.size()));
      for (std::size_t j = 0; j < kept.size(); ++j) found.col(static_cast<Eigen::Index>(j)) = kept[j].second;
      m_orthonormalize(found, Mf);
    }
    if (static_cast<int>(kept.size()) < s) throw std::logic_error("modal subspace: fewer modes than asked");
    lambda.resize(s);
    Xf.resize(nf, s);
    for (int j = 0; j < s; ++j) {
      lambda[j] = kept[j].first;
      Xf.col(j) = kept[j].second;
    }
  }
  m_orthonormalize(Xf, Mf);
  for (int j = 0; j < nf; ++j) result.modes.row(free.dof(j)) = Xf.row(j);
  result.eigenvalues = lambda;
  return result;
}

}  // namespace softsim
