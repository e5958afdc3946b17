// PSD projection: the full eigen-decomposition (project_psd) against the reduced one for
// Hessians of functions of point differences (project_psd_translation_invariant), on matrices
// built to annihilate common translations, for every stencil shape contact uses.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "softsim/core/psd_projection.hpp"

namespace softsim {
namespace {

// A symmetric, indefinite (K Dim)^2 matrix of the form D^T A D, D the map from K points to their
// K - 1 differences with the first: every common translation is in its null space. (The test's
// own decompositions are of dynamic size: one instantiation serves every shape.)
template <int K, int Dim>
Eigen::Matrix<double, K * Dim, K * Dim> relative_hessian(std::mt19937& rng, double negative_share) {
  constexpr int n = (K - 1) * Dim;
  std::normal_distribution<double> g;
  Eigen::MatrixXd B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = g(rng);
  // Eigenvalues of both signs (a barrier's b'' g g^T + b' H_d is indefinite), some tiny.
  Eigen::VectorXd lambda(n);
  for (int i = 0; i < n; ++i) lambda(i) = (std::uniform_real_distribution<double>(0, 1)(rng) < negative_share ? -1.0 : 1.0) *
                                          std::pow(10.0, std::uniform_real_distribution<double>(-6, 4)(rng));
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(B);
  const Eigen::MatrixXd V = qr.householderQ();
  const Eigen::MatrixXd A = V * lambda.asDiagonal() * V.transpose();
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(n, K * Dim);
  for (int a = 1; a < K; ++a)
    for (int d = 0; d < Dim; ++d) {
      D((a - 1) * Dim + d, a * Dim + d) = 1.0;
      D((a - 1) * Dim + d, d) = -1.0;
    }
  return D.transpose() * A * D;
}

template <int K, int Dim>
void check_shape(std::uint32_t seed) {
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 200; ++trial) {
    const double negative_share = trial % 4 == 0 ? 0.0 : 0.4;  // a quarter positive semi-definite
    const Eigen::Matrix<double, K * Dim, K * Dim> H = relative_hessian<K, Dim>(rng, negative_share);
    Eigen::Matrix<double, K * Dim, K * Dim> full = H, reduced = H;
    project_psd(full);
    project_psd_translation_invariant<K, Dim>(reduced);
    const double scale = H.norm();
    EXPECT_LE((reduced - full).norm(), 1e-12 * scale) << "K " << K << " Dim " << Dim << " trial " << trial;
    EXPECT_LE((reduced - reduced.transpose()).norm(), 1e-15 * scale);
    // Still blind to translations, and positive semi-definite.
    for (int d = 0; d < Dim; ++d) {
      Eigen::Matrix<double, K * Dim, 1> t = Eigen::Matrix<double, K * Dim, 1>::Zero();
      for (int a = 0; a < K; ++a) t(a * Dim + d) = 1.0;
      EXPECT_LE((reduced * t).norm(), 1e-12 * scale);
    }
    const Eigen::MatrixXd reduced_dynamic = reduced;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(reduced_dynamic);
    EXPECT_GE(eig.eigenvalues().minCoeff(), -1e-12 * scale);
  }
}

TEST(PsdProjection, ReducedToTranslationComplementEqualsFullProjection) {
  check_shape<2, 2>(1);  // 2D point-point
  check_shape<3, 2>(2);  // 2D point-edge
  check_shape<2, 3>(3);  // 3D point-point
  check_shape<3, 3>(4);  // 3D point-edge
  check_shape<4, 3>(5);  // 3D point-triangle, edge-edge
}

TEST(PsdProjection, ClampsExactlyTheNegativeEigenvalues) {
  // diag(2, -3) on the difference of two points in 2D: eigenvalues of D^T A D are 2 * 2
  // and 2 * (-3) (D D^T = 2 I), so the projection keeps 4 along x and drops y.
  Eigen::Matrix<double, 2, 2> A;
  A << 2.0, 0.0, 0.0, -3.0;
  Eigen::Matrix<double, 2, 4> D;
  D << -1, 0, 1, 0, 0, -1, 0, 1;
  Eigen::Matrix4d H = D.transpose() * A * D;
  project_psd_translation_invariant<2, 2>(H);
  Eigen::Matrix<double, 2, 2> kept;
  kept << 2.0, 0.0, 0.0, 0.0;
  EXPECT_LE((H - D.transpose() * kept * D).norm(), 1e-14);
}

// The 2x2 closed-form test (Sylvester's criterion) against the eigen-decomposition on random
// symmetric matrices of every sign pattern: definite ones come back bit for bit, the others
// with their negative eigenvalues clamped.
TEST(PsdProjection, TwoByTwoClosedFormAgreesWithTheEigenDecomposition) {
  std::srand(7);
  int definite = 0, projected = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Eigen::Matrix2d R = Eigen::Matrix2d::Random();
    Eigen::Matrix2d A = R + R.transpose();
    if (trial % 3 == 0) A += 2.5 * Eigen::Matrix2d::Identity();  // more definite ones
    Eigen::Matrix2d P = A;
    project_psd(P);
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig(A);
    const Eigen::Matrix2d expected =
        eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).asDiagonal() * eig.eigenvectors().transpose();
    if (eig.eigenvalues().minCoeff() > 1e-12) {
      ++definite;
      EXPECT_EQ(P, A) << "a definite matrix is returned unchanged";
    } else {
      ++projected;
      EXPECT_LE((P - expected).norm(), 1e-14 * (1.0 + A.norm())) << A;
      EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(P).eigenvalues().minCoeff(), -1e-14 * (1.0 + A.norm()));
    }
  }
  EXPECT_GT(definite, 300);
  EXPECT_GT(projected, 300);
  // A negative diagonal with a positive determinant (negative definite) is projected to zero.
  Eigen::Matrix2d N;
  N << -2.0, 0.5, 0.5, -1.0;
  project_psd(N);
  EXPECT_LE(N.norm(), 1e-15);
}

}  // namespace
}  // namespace softsim
