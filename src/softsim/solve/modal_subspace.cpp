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
    SparseMat A = K_ - sigma * M_;
    solver_ = make_linear_solver("cholmod", static_cast<int>(A.rows()));
    if (!solver_->compute(A))
      throw std::runtime_error("modal subspace: K - sigma M is not positive definite (sigma = " + std::to_string(sigma) +
                               "): the stiffness has negative eigenvalues");
  }
  void perform_op(const double* x_in, double* y_out) const {
    const VecX x = Eigen::Map<const VecX>(x_in, rows());
    VecX y;
    solver_->solve(x, y);
    Eigen::Map<VecX>(y_out, rows()) = y;
  }

 private:
  const SparseMat& K_;
  const SparseMat& M_;
  std::unique_ptr<LinearSolver> solver_;
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
    const int ncv = std::min(nf, std::max(2 * s + 1, s + 20));
    Solver eigs(op, mass_op, s, ncv, sigma);
    eigs.init();
    eigs.compute(Spectra::SortRule::LargestMagn, options.max_iterations, options.tolerance,
                 Spectra::SortRule::SmallestAlge);
    if (eigs.info() != Spectra::CompInfo::Successful)
      throw std::runtime_error("modal subspace: the eigensolver did not converge to " + std::to_string(s) + " modes");
    const VecX values = eigs.eigenvalues();
    const MatX vectors = eigs.eigenvectors();
    std::vector<int> order(s);
    for (int j = 0; j < s; ++j) order[j] = j;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return values[a] < values[b]; });
    lambda.resize(s);
    Xf.resize(nf, s);
    for (int j = 0; j < s; ++j) {
      lambda[j] = values[order[j]];
      Xf.col(j) = vectors.col(order[j]);
    }
  }
  m_orthonormalize(Xf, Mf);
  for (int j = 0; j < nf; ++j) result.modes.row(free.dof(j)) = Xf.row(j);
  result.eigenvalues = lambda;
  return result;
}

}  // namespace softsim
