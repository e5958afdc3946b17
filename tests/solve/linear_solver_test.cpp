// Linear solvers on problems with known answers: the dense solver's envelope Cholesky (George &
// Liu 1981, ch. 4) solves SPD systems of every envelope shape (banded, an arrow whose last rows
// reach back to column 0, rows that start after the rows below them, scattered entries) to
// round-off (trailing rows far wider than the band, a moving obstacle's DOF, are factored row by
// row after it), reuses its storage across sizes, and refuses indefinite and non-finite matrices;
// the sparse direct solvers agree with it.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <random>

#include "softsim/solve/linear_solver.hpp"

namespace softsim {
namespace {

// A random SPD matrix with the given off-diagonal pattern (i > j pairs), diagonally dominant.
SparseMat spd_with_pattern(int n, const std::vector<std::pair<int, int>>& lower, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Triplet> t;
  VecX row_sum = VecX::Zero(n);
  for (const auto& [i, j] : lower) {
    const double v = u(rng);
    t.emplace_back(i, j, v);
    t.emplace_back(j, i, v);
    row_sum[i] += std::abs(v);
    row_sum[j] += std::abs(v);
  }
  for (int i = 0; i < n; ++i) t.emplace_back(i, i, row_sum[i] + 0.5 + 0.5 * (u(rng) + 1.0));
  SparseMat A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

std::vector<std::pair<int, int>> banded(int n, int b) {
  std::vector<std::pair<int, int>> p;
  for (int i = 0; i < n; ++i)
    for (int j = std::max(0, i - b); j < i; ++j) p.emplace_back(i, j);
  return p;
}

double relative_error_of(LinearSolver& solver, const SparseMat& A, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g;
  VecX b(A.rows());
  for (Eigen::Index i = 0; i < b.size(); ++i) b[i] = g(rng);
  EXPECT_TRUE(solver.compute(A)) << solver.name();
  VecX x;
  EXPECT_TRUE(solver.solve(b, x)) << solver.name();
  const VecX reference = MatX(A).llt().solve(b);
  return (x - reference).norm() / reference.norm();
}

TEST(DenseCholesky, SolvesEveryEnvelopeShapeToRoundOff) {
  auto dense = make_linear_solver("dense", 60);
  struct Case {
    const char* what;
    int n;
    std::vector<std::pair<int, int>> lower;
  };
  std::vector<Case> cases;
  cases.push_back({"diagonal", 7, {}});
  cases.push_back({"tridiagonal", 40, banded(40, 1)});
  cases.push_back({"band 13 (a spring grid's)", 50, banded(50, 13)});
  cases.push_back({"full", 30, banded(30, 30)});
  // Arrow: the last row couples with everything (a moving obstacle's pose after the bodies).
  std::vector<std::pair<int, int>> arrow = banded(25, 2);
  for (int j = 0; j < 24; ++j)
    if (j < 22) arrow.emplace_back(24, j);
  cases.push_back({"arrow", 25, arrow});
  // A spring grid's band with two trailing rows coupled to everything and to each other (factored
  // row by row after the band, as border rows).
  std::vector<std::pair<int, int>> bordered = banded(50, 13);
  for (int i : {50, 51})
    for (int j = 0; j < i; ++j)
      if (j % 3 != 1) bordered.emplace_back(i, j);
  cases.push_back({"band with border rows", 52, bordered});
  // A row starting far left followed by rows that start late (non-monotone envelope starts).
  cases.push_back({"ragged", 12, {{5, 0}, {6, 5}, {8, 7}, {9, 1}, {10, 9}, {11, 3}, {11, 10}, {3, 2}}});
  std::mt19937 rng(5);
  std::vector<std::pair<int, int>> scattered;
  for (int k = 0; k < 120; ++k) {
    const int i = static_cast<int>(rng() % 60), j = static_cast<int>(rng() % 60);
    if (i > j) scattered.emplace_back(i, j);
  }
  cases.push_back({"scattered", 60, scattered});
  unsigned seed = 1;
  for (const Case& c : cases) {
    const SparseMat A = spd_with_pattern(c.n, c.lower, seed++);
    const double e = relative_error_of(*dense, A, seed++);
    EXPECT_LT(e, 1e-13) << c.what;
    auto cholmod = make_linear_solver("ldlt", c.n);
    EXPECT_LT(relative_error_of(*cholmod, A, seed), 1e-12) << c.what;
  }
}

// The envelope and the value positions are kept while the pattern is the same: new values on
// the same pattern, then another pattern of the same size and number of entries, then an
// uncompressed matrix are each solved to round-off.
TEST(DenseCholesky, KeepsItsAnalysisOnlyForTheSamePattern) {
  auto dense = make_linear_solver("dense", 30);
  EXPECT_LT(relative_error_of(*dense, spd_with_pattern(30, banded(30, 3), 11), 1), 1e-13);
  EXPECT_LT(relative_error_of(*dense, spd_with_pattern(30, banded(30, 3), 12), 2), 1e-13);
  std::vector<std::pair<int, int>> shifted;  // as many entries, other places
  for (const auto& [i, j] : banded(30, 3)) shifted.emplace_back(i, std::max(0, j - 5));
  std::sort(shifted.begin(), shifted.end());
  shifted.erase(std::unique(shifted.begin(), shifted.end()), shifted.end());
  EXPECT_LT(relative_error_of(*dense, spd_with_pattern(30, shifted, 13), 3), 1e-13);
  SparseMat uncompressed = spd_with_pattern(30, banded(30, 2), 14);
  uncompressed.reserve(Eigen::VectorXi::Constant(30, 2));  // room in every column: uncompressed
  ASSERT_FALSE(uncompressed.isCompressed());
  EXPECT_LT(relative_error_of(*dense, uncompressed, 4), 1e-13);
}

TEST(DenseCholesky, RefusesIndefiniteAndNonFiniteMatrices) {
  auto dense = make_linear_solver("dense", 10);
  SparseMat A = spd_with_pattern(10, banded(10, 3), 3);
  ASSERT_TRUE(dense->compute(A));
  A.coeffRef(6, 6) = -1.0;  // a negative pivot (columns are eliminated in pairs: the first)
  EXPECT_FALSE(dense->compute(A));
  A = spd_with_pattern(10, banded(10, 3), 3);
  A.coeffRef(7, 7) = 0.0;  // a non-positive pivot, the second of its pair
  EXPECT_FALSE(dense->compute(A));
  VecX x;
  EXPECT_FALSE(dense->solve(VecX::Ones(10), x));
  A = spd_with_pattern(10, banded(10, 3), 3);
  A.coeffRef(4, 3) = A.coeffRef(3, 4) = std::nan("");
  EXPECT_FALSE(dense->compute(A));
  // A non-positive pivot, and a NaN, in a border row (one coupled to every row above it).
  std::vector<std::pair<int, int>> arrow = banded(30, 2);
  for (int j = 0; j < 29; ++j) arrow.emplace_back(29, j);
  A = spd_with_pattern(30, arrow, 4);
  ASSERT_TRUE(dense->compute(A));
  const double diagonal = A.coeff(29, 29);
  A.coeffRef(29, 29) = 0.5;  // below what its coupling needs: indefinite
  EXPECT_FALSE(dense->compute(A));
  EXPECT_FALSE(MatX(A).llt().info() == Eigen::Success);
  A.coeffRef(29, 29) = diagonal;
  A.coeffRef(29, 11) = A.coeffRef(11, 29) = std::nan("");
  EXPECT_FALSE(dense->compute(A));
  // And it recovers on the next good matrix, of another size.
  EXPECT_LT(relative_error_of(*dense, spd_with_pattern(17, banded(17, 4), 9), 2), 1e-13);
}

}  // namespace
}  // namespace softsim
