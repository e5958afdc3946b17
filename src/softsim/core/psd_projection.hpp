#pragma once
// Projection of a symmetric matrix to the nearest positive semi-definite one (Frobenius norm):
// clamp negative eigenvalues to zero (Li & Jiang 2025, §3.3 and Implementation 4.3.2,
// "make_PSD"). A matrix that is already PSD is returned unchanged. A Cholesky factorization
// first detects the common positive-definite case, which is several times cheaper than the
// eigen-decomposition.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <cmath>

namespace softsim {

template <class Derived>
void project_psd(Eigen::MatrixBase<Derived>& A) {
  using Mat = typename Derived::PlainObject;
  const Mat symmetric = A;
  if constexpr (Mat::RowsAtCompileTime == 2 && Mat::ColsAtCompileTime == 2) {
    // Sylvester's criterion in closed form, on the lower triangle as the eigensolver reads it:
    // Eigen's LLT of a 2x2 matrix (a 2D element's singular-value Hessian, a 2D vertex's) cost more
    // than the rest of a 2D Neo-Hookean tangent's projection (perf, the book's inversion-free square).
    const double a = symmetric(0, 0), b = symmetric(1, 0), c = symmetric(1, 1);
    if (a > 0.0 && a * c - b * b > 0.0) return;
  } else if (Eigen::LLT<Mat>(symmetric).info() == Eigen::Success) {
    return;
  }
  Eigen::SelfAdjointEigenSolver<Mat> eig;
  // 2x2 (a 2D spring's, a 2D vertex's): the closed form, several times cheaper than the iterative
  // tridiagonal QR and as accurate at that size.
  if constexpr (Mat::RowsAtCompileTime == 2 && Mat::ColsAtCompileTime == 2)
    eig.computeDirect(symmetric);
  else
    eig.compute(symmetric);
  const auto& lambda = eig.eigenvalues();
  if (lambda.minCoeff() >= 0.0) return;
  auto clamped = lambda.cwiseMax(0.0);
  A = eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
}

namespace psd_detail {
// Q = Helmert (x) I_Dim: an orthonormal basis of the motions of K points in Dim dimensions that
// are not a common translation, column block i - 1 = (1, ..., 1, -i, 0, ...) / sqrt(i (i + 1)),
// i = 1..K-1. Products with it cost O(K) per column through prefix and suffix sums.
inline double helmert_scale(int i) { return 1.0 / std::sqrt(double(i) * double(i + 1)); }

// Q^T M (M has K Dim rows): row block i - 1 = (sum_{a < i} M_a - i M_i) s_i.
template <int K, int Dim, class M>
Eigen::Matrix<double, (K - 1) * Dim, M::ColsAtCompileTime> helmert_transpose_times(const M& m) {
  Eigen::Matrix<double, (K - 1) * Dim, M::ColsAtCompileTime> out;
  Eigen::Matrix<double, Dim, M::ColsAtCompileTime> prefix = m.template topRows<Dim>();
  for (int i = 1; i < K; ++i) {
    const auto row = m.template middleRows<Dim>(i * Dim);
    out.template middleRows<Dim>((i - 1) * Dim) = helmert_scale(i) * (prefix - double(i) * row);
    prefix += row;
  }
  return out;
}

// Q R (R has (K - 1) Dim rows): row block a = sum_{i > a} s_i R_i - a s_a R_a.
template <int K, int Dim, class M>
Eigen::Matrix<double, K * Dim, M::ColsAtCompileTime> helmert_times(const M& r) {
  Eigen::Matrix<double, K * Dim, M::ColsAtCompileTime> out;
  Eigen::Matrix<double, Dim, M::ColsAtCompileTime> suffix = Eigen::Matrix<double, Dim, M::ColsAtCompileTime>::Zero();
  for (int a = K - 1; a >= 1; --a) {
    const auto row = r.template middleRows<Dim>((a - 1) * Dim);
    const double s = helmert_scale(a);
    out.template middleRows<Dim>(a * Dim) = suffix - double(a) * s * row;
    suffix += s * row;
  }
  out.template topRows<Dim>() = suffix;
  return out;
}
}  // namespace psd_detail

// project_psd for the Hessian of a function of K points that depends only on their differences
// (a distance between primitives, a barrier of it): such a Hessian annihilates every common
// translation, so H = Q (Q^T H Q) Q^T with Q an orthonormal basis of the other motions
// (psd_detail, Helmert contrasts), and its projection is Q (Q^T H Q)_+ Q^T. The eigenproblem is
// (K - 1) Dim instead of K Dim (12 -> 9 for a point-triangle or edge-edge stencil), and the
// Cholesky test can succeed on the reduced matrix, where it always fails on the singular full
// one. The result equals project_psd(H) up to round-off (the translation part of a computed H
// is round-off too).
template <int K, int Dim>
void project_psd_translation_invariant(Eigen::Matrix<double, K * Dim, K * Dim>& H) {
  using namespace psd_detail;
  const Eigen::Matrix<double, (K - 1) * Dim, K * Dim> QtH = helmert_transpose_times<K, Dim>(H);
  // Q^T H Q = Q^T (Q^T H)^T for a symmetric H.
  Eigen::Matrix<double, (K - 1) * Dim, (K - 1) * Dim> reduced = helmert_transpose_times<K, Dim>(QtH.transpose());
  reduced = (0.5 * (reduced + reduced.transpose())).eval();  // symmetric to the last bit
  project_psd(reduced);
  const Eigen::Matrix<double, K * Dim, (K - 1) * Dim> QR = helmert_times<K, Dim>(reduced);
  H = helmert_times<K, Dim>(QR.transpose()).transpose();  // Q R Q^T = (Q (Q R)^T)^T
}

// The sizes contact stencils, shells, hinges and elements project are compiled once, in
// psd_projection.cpp and psd_projection_relative.cpp: each fixed-size eigensolver costs about ten
// seconds of compile time in every file that would instantiate it. 2 x 2 and 3 x 3 stay inline
// (a 2D element's or spring's projection is on the small scenes' hot path).
using PsdMatrixUpTo12 = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 12, 12>;
extern template void project_psd(Eigen::MatrixBase<Eigen::Matrix<double, 4, 4>>&);
extern template void project_psd(Eigen::MatrixBase<Eigen::Matrix<double, 6, 6>>&);
extern template void project_psd(Eigen::MatrixBase<Eigen::Matrix<double, 9, 9>>&);
extern template void project_psd(Eigen::MatrixBase<Eigen::Matrix<double, 12, 12>>&);
extern template void project_psd(Eigen::MatrixBase<PsdMatrixUpTo12>&);
extern template void project_psd(Eigen::MatrixBase<Eigen::MatrixXd>&);
extern template void project_psd_translation_invariant<2, 2>(Eigen::Matrix<double, 4, 4>&);
extern template void project_psd_translation_invariant<3, 2>(Eigen::Matrix<double, 6, 6>&);
extern template void project_psd_translation_invariant<2, 3>(Eigen::Matrix<double, 6, 6>&);
extern template void project_psd_translation_invariant<3, 3>(Eigen::Matrix<double, 9, 9>&);
extern template void project_psd_translation_invariant<4, 3>(Eigen::Matrix<double, 12, 12>&);

}  // namespace softsim
