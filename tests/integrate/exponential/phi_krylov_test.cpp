// The Krylov action tau phi_1(tau A) b against the dense reference (the exponential of the
// augmented matrix [[tau A, tau b], [0, 0]]) on small stiff and oscillatory matrices, to the
// requested tolerance, with sub-steps when the spectrum is wide; exact on invariant subspaces;
// and ERE's step u0 + h phi_1(h J) (J u0 + c) exact for a linear system u' = J u + c.
#include <gtest/gtest.h>

#include <unsupported/Eigen/MatrixFunctions>

#include <random>

#include "softsim/integrate/exponential/phi_krylov.hpp"

namespace softsim {
namespace {

VecX dense_phi1(const MatX& A, const VecX& b, double tau) {
  const Eigen::Index n = A.rows();
  MatX aug = MatX::Zero(n + 1, n + 1);
  aug.topLeftCorner(n, n) = tau * A;
  aug.topRightCorner(n, 1) = tau * b;
  return aug.exp().topRightCorner(n, 1);
}

LinearOperator dense_operator(const MatX& A) {
  return [A](const VecX& v, VecX& out) { out = A * v; };
}

// First-order form u = (q, v) of a damped chain of n unit masses and springs of stiffness k
// (fixed at one end): J = [[0, I], [-K, -c K]] (Rayleigh damping c K). Its eigenvalues reach
// about -c k and +-i 2 sqrt(k).
MatX chain_jacobian(int n, double k, double c) {
  MatX K = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    K(i, i) = i + 1 < n ? 2 * k : k;
    if (i + 1 < n) K(i, i + 1) = K(i + 1, i) = -k;
  }
  MatX J = MatX::Zero(2 * n, 2 * n);
  J.topRightCorner(n, n) = MatX::Identity(n, n);
  J.bottomLeftCorner(n, n) = -K;
  J.bottomRightCorner(n, n) = -c * K;
  return J;
}

double relative_error(const VecX& a, const VecX& b) { return (a - b).norm() / b.norm(); }

TEST(KrylovPhi, MatchesTheDenseReferenceToItsTolerance) {
  std::mt19937 rng(4);
  std::normal_distribution<double> g(0.0, 1.0);
  const MatX J = chain_jacobian(20, 1e4, 1e-3);
  VecX b(J.rows());
  for (Eigen::Index i = 0; i < b.size(); ++i) b[i] = g(rng);
  for (double tol : {1e-6, 1e-10})
    for (double tau : {1e-4, 1e-2, 1.0}) {
      KrylovPhiOptions options;
      options.tolerance = tol;
      options.max_dimension = 12;  // below n: the wide spectrum needs sub-steps at large tau
      const KrylovPhiResult r = phi1_action(dense_operator(J), b, tau, options);
      EXPECT_LT(relative_error(r.value, dense_phi1(J, b, tau)), tol) << "tol " << tol << " tau " << tau;
      EXPECT_LE(r.max_dimension_used, 12);
      if (tau == 1.0) {
        EXPECT_GT(r.substeps, 1) << "tol " << tol;  // |tau J| ~ 200: one Krylov space of 12 cannot do
      }
    }
}

TEST(KrylovPhi, ExactOnAnInvariantSubspace) {
  MatX A = MatX::Zero(30, 30);
  for (int i = 0; i < 30; ++i) A(i, i) = -double(i * i);
  VecX b = VecX::Zero(30);
  b[3] = 1.0;
  b[17] = -2.0;  // b lies in a 2-dimensional invariant subspace
  const KrylovPhiResult r = phi1_action(dense_operator(A), b, 0.7);
  EXPECT_EQ(r.max_dimension_used, 2);
  EXPECT_EQ(r.substeps, 1);
  EXPECT_LT(relative_error(r.value, dense_phi1(A, b, 0.7)), 1e-14);
  // phi_1(0) = 1: a zero operator gives tau b.
  const KrylovPhiResult z = phi1_action(dense_operator(MatX::Zero(30, 30)), b, 2.5);
  EXPECT_LT(relative_error(z.value, 2.5 * b), 1e-15);
}

// ERE (Ascher et al. 2022, eqs. 17-18) on u' = J u + c is u(h) = e^{hJ} u0 + h phi_1(hJ) c for
// every h: one step, whatever its length, to the Krylov tolerance.
TEST(KrylovPhi, EreStepIsExactForALinearSystem) {
  const MatX J = chain_jacobian(15, 400.0, 0.01);
  VecX u0 = VecX::Zero(J.rows()), c = VecX::Zero(J.rows());
  for (Eigen::Index i = 0; i < 15; ++i) {
    u0[i] = 0.01 * std::sin(0.3 * double(i));
    c[15 + i] = -9.81;  // gravity on the velocities
  }
  for (double h : {1e-3, 0.1, 2.0}) {
    KrylovPhiOptions options;
    options.tolerance = 1e-12;
    const VecX ere = u0 + phi1_action(dense_operator(J), J * u0 + c, h, options).value;
    const VecX exact = (h * J).exp() * u0 + dense_phi1(J, c, h);
    EXPECT_LT((ere - exact).norm(), 1e-9 * exact.norm()) << "h " << h;
  }
}

TEST(KrylovPhi, RejectsBadArguments) {
  const VecX b = VecX::Ones(3);
  EXPECT_THROW(phi1_action(dense_operator(MatX::Identity(3, 3)), b, -1.0), std::invalid_argument);
  EXPECT_THROW(phi1_action(dense_operator(MatX::Identity(3, 3)), b, std::nan("")), std::invalid_argument);
  const LinearOperator broken = [](const VecX& v, VecX& out) { out = VecX::Constant(v.size(), std::nan("")); };
  EXPECT_THROW(phi1_action(broken, b, 1.0), std::runtime_error);
}

}  // namespace
}  // namespace softsim
