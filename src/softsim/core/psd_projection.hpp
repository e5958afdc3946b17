#pragma once
// Projection of a symmetric matrix to the nearest positive semi-definite one (Frobenius norm):
// clamp negative eigenvalues to zero (Li & Jiang 2025, §3.3 and Implementation 4.3.2,
// "make_PSD"). A matrix that is already PSD is returned unchanged. A Cholesky factorization
// first detects the common positive-definite case, which is several times cheaper than the
// eigen-decomposition.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

namespace softsim {

template <class Derived>
void project_psd(Eigen::MatrixBase<Derived>& A) {
  using Mat = typename Derived::PlainObject;
  const Mat symmetric = A;
  if (Eigen::LLT<Mat>(symmetric).info() == Eigen::Success) return;
  Eigen::SelfAdjointEigenSolver<Mat> eig(symmetric);
  const auto& lambda = eig.eigenvalues();
  if (lambda.minCoeff() >= 0.0) return;
  auto clamped = lambda.cwiseMax(0.0);
  A = eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
}

}  // namespace softsim
