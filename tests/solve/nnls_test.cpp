// Non-negative least squares (solve/nnls.hpp) against the known answer: on small random
// problems the minimum over every subset of columns (each an unconstrained least squares, kept
// when non-negative) is the NNLS optimum; the result also meets the KKT conditions.
#include "softsim/solve/nnls.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

namespace softsim {
namespace {

double brute_force_minimum(const MatX& A, const VecX& b) {
  const int n = static_cast<int>(A.cols());
  double best = b.norm();
  for (int mask = 1; mask < (1 << n); ++mask) {
    std::vector<int> cols;
    for (int j = 0; j < n; ++j)
      if (mask & (1 << j)) cols.push_back(j);
    MatX AS(A.rows(), static_cast<Eigen::Index>(cols.size()));
    for (std::size_t k = 0; k < cols.size(); ++k) AS.col(k) = A.col(cols[k]);
    const VecX z = AS.colPivHouseholderQr().solve(b);
    if (z.minCoeff() < 0.0) continue;
    best = std::min(best, (AS * z - b).norm());
  }
  return best;
}

TEST(Nnls, MatchesTheBestNonNegativeSubsetAndMeetsKkt) {
  std::mt19937 random(3);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 20; ++trial) {
    const int m = 8 + trial % 5, n = 3 + trial % 5;
    MatX A(m, n);
    VecX b(m);
    for (int i = 0; i < m; ++i) {
      b[i] = normal(random);
      for (int j = 0; j < n; ++j) A(i, j) = normal(random);
    }
    const NnlsResult r = solve_nnls(A, b);
    ASSERT_TRUE(r.converged);
    EXPECT_GE(r.x.minCoeff(), 0.0);
    EXPECT_NEAR(r.residual, brute_force_minimum(A, b), 1e-10 * (1.0 + b.norm())) << "trial " << trial;
    // KKT: the gradient A^T (b - A x) is <= 0 where x = 0 and 0 where x > 0.
    const VecX w = A.transpose() * (b - A * r.x);
    for (int j = 0; j < n; ++j) {
      if (r.x[j] > 0.0) EXPECT_NEAR(w[j], 0.0, 1e-10 * (1.0 + A.norm() * b.norm()));
      else EXPECT_LE(w[j], 1e-10 * (1.0 + A.norm() * b.norm()));
    }
  }
}

TEST(Nnls, RecoversAnExactNonNegativeCombination) {
  const MatX A = MatX::Random(12, 6);
  VecX x_true = VecX::Zero(6);
  x_true << 0.0, 2.0, 0.0, 0.5, 0.0, 1.25;
  const NnlsResult r = solve_nnls(A, A * x_true);
  EXPECT_LT((r.x - x_true).norm(), 1e-12);
  EXPECT_LT(r.residual, 1e-12);
  EXPECT_EQ(solve_nnls(A, VecX::Zero(12)).x, VecX::Zero(6));
}

}  // namespace
}  // namespace softsim
