// WidenedHessian (core/widened_hessian.hpp): H + entries is exact whether the entries fall on H's
// pattern or not; the widened pattern is kept while the entries fall on it and rebuilt when they
// leave it, when the fixed pattern changes, or when places that contacts left pile up.
#include <gtest/gtest.h>

#include "softsim/core/sparsity_pattern.hpp"
#include "softsim/core/widened_hessian.hpp"

namespace softsim {
namespace {

// A tridiagonal n x n pattern with values 1 + i + j (its fixed pattern).
SparseMat tridiagonal(int n) {
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i)
    for (int j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j) t.emplace_back(i, j, 1.0 + i + j);
  SparseMat H(n, n);
  H.setFromTriplets(t.begin(), t.end());
  H.makeCompressed();
  return H;
}

MatX expected_sum(const SparseMat& H, const std::vector<Triplet>& entries) {
  MatX dense = MatX(H);
  for (const Triplet& t : entries) dense(t.row(), t.col()) += t.value();
  return dense;
}

TEST(WidenedHessian, EntriesOnThePatternAreAddedInPlace) {
  const SparseMat fixed = tridiagonal(6);
  SparseMat H = fixed;
  WidenedHessian widening;
  const std::vector<Triplet> entries{{2, 3, 0.5}, {2, 3, 0.25}, {0, 0, -1.0}};
  widening.add(H, entries);
  EXPECT_TRUE(same_sparsity_pattern(H, fixed));
  EXPECT_EQ(widening.pattern_builds(), 0);
  EXPECT_EQ((MatX(H) - expected_sum(fixed, entries)).norm(), 0.0);
}

TEST(WidenedHessian, KeepsTheWidenedPatternWhileTheEntriesFallOnIt) {
  const SparseMat fixed = tridiagonal(6);
  WidenedHessian widening;
  const std::vector<Triplet> contact{{0, 5, 2.0}, {5, 0, 2.0}, {1, 4, -0.5}, {4, 1, -0.5}, {2, 2, 1.0}};
  SparseMat H = fixed, first;
  for (int evaluation = 0; evaluation < 3; ++evaluation) {
    H = fixed;  // as each evaluation starts from the fixed pattern, its storage kept
    widening.add(H, contact);
    EXPECT_EQ((MatX(H) - expected_sum(fixed, contact)).norm(), 0.0);
    if (evaluation == 0) first = H;
    EXPECT_TRUE(same_sparsity_pattern(H, first));
  }
  EXPECT_EQ(widening.pattern_builds(), 1);
  EXPECT_EQ(H.nonZeros(), fixed.nonZeros() + 4);
  // Fewer contacts: the kept pattern, their old places zero.
  const std::vector<Triplet> fewer{{5, 0, 3.0}, {0, 5, 3.0}};
  H = fixed;
  widening.add(H, fewer);
  EXPECT_EQ(widening.pattern_builds(), 1);
  EXPECT_TRUE(same_sparsity_pattern(H, first));
  EXPECT_EQ((MatX(H) - expected_sum(fixed, fewer)).norm(), 0.0);
  // A new place: rebuilt, exact.
  const std::vector<Triplet> moved{{3, 0, 1.5}, {0, 3, 1.5}};
  H = fixed;
  widening.add(H, moved);
  EXPECT_EQ(widening.pattern_builds(), 2);
  EXPECT_EQ((MatX(H) - expected_sum(fixed, moved)).norm(), 0.0);
  // Another fixed pattern: rebuilt for it.
  const SparseMat other = tridiagonal(7);
  H = other;
  widening.add(H, moved);
  EXPECT_EQ(widening.pattern_builds(), 3);
  EXPECT_EQ((MatX(H) - expected_sum(other, moved)).norm(), 0.0);
}

TEST(WidenedHessian, StalePlacesAreKeptOnlyWhileFewComparedWithTheEntries) {
  // Built for 100 contact pairs off the pattern (200 places), then evaluated with a subset: the
  // kept pattern is reused while its places beyond the fixed pattern are at most twice the
  // entries plus 64, and built afresh for the subset alone once they are more.
  const int n = 300;
  const SparseMat fixed = tridiagonal(n);
  auto pairs = [](int count) {
    std::vector<Triplet> t;
    for (int k = 0; k < count; ++k) {
      t.emplace_back(k, k + 100, 1.0 + k);
      t.emplace_back(k + 100, k, 1.0 + k);
    }
    return t;
  };
  WidenedHessian widening;
  SparseMat H = fixed;
  widening.add(H, pairs(100));
  EXPECT_EQ(H.nonZeros(), fixed.nonZeros() + 200);
  EXPECT_EQ(widening.pattern_builds(), 1);
  H = fixed;
  widening.add(H, pairs(70));  // 200 <= 2 * 140 + 64: kept
  EXPECT_EQ(widening.pattern_builds(), 1);
  EXPECT_EQ(H.nonZeros(), fixed.nonZeros() + 200);
  EXPECT_EQ((MatX(H) - expected_sum(fixed, pairs(70))).norm(), 0.0);
  H = fixed;
  widening.add(H, pairs(10));  // 200 > 2 * 20 + 64: built for these 20 places
  EXPECT_EQ(widening.pattern_builds(), 2);
  EXPECT_EQ(H.nonZeros(), fixed.nonZeros() + 20);
  EXPECT_EQ((MatX(H) - expected_sum(fixed, pairs(10))).norm(), 0.0);
}

}  // namespace
}  // namespace softsim
