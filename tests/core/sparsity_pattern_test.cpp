#include "softsim/core/sparsity_pattern.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace softsim {
namespace {

SparseMat from_entries(Eigen::Index rows, Eigen::Index cols, const std::vector<Triplet>& entries) {
  SparseMat A(rows, cols);
  A.setFromTriplets(entries.begin(), entries.end());
  A.makeCompressed();
  return A;
}

TEST(SparsityPattern, MatchesOnlyTheSamePatternWhateverTheValues) {
  const SparseMat A = from_entries(3, 3, {{0, 0, 1.0}, {1, 0, 2.0}, {1, 1, 3.0}, {2, 2, 4.0}});
  SparsityPattern pattern;
  EXPECT_TRUE(pattern.empty());
  EXPECT_FALSE(pattern.matches(A));  // nothing kept yet
  pattern.assign(A);
  EXPECT_FALSE(pattern.empty());
  EXPECT_TRUE(pattern.matches(A));

  const SparseMat other_values = from_entries(3, 3, {{0, 0, -1.0}, {1, 0, 0.5}, {1, 1, 7.0}, {2, 2, 9.0}});
  EXPECT_TRUE(pattern.matches(other_values));

  // Same count of non-zeros, one entry moved to another row of the same column.
  const SparseMat moved = from_entries(3, 3, {{0, 0, 1.0}, {2, 0, 2.0}, {1, 1, 3.0}, {2, 2, 4.0}});
  EXPECT_FALSE(pattern.matches(moved));
  // Same count, one entry moved to another column (the column starts differ).
  const SparseMat shifted = from_entries(3, 3, {{0, 0, 1.0}, {1, 0, 2.0}, {1, 2, 3.0}, {2, 2, 4.0}});
  EXPECT_FALSE(pattern.matches(shifted));
  // One entry more.
  const SparseMat more = from_entries(3, 3, {{0, 0, 1.0}, {1, 0, 2.0}, {1, 1, 3.0}, {2, 1, 1.0}, {2, 2, 4.0}});
  EXPECT_FALSE(pattern.matches(more));

  pattern.clear();
  EXPECT_FALSE(pattern.matches(A));
}

TEST(SparsityPattern, AnotherShapeIsRefusedBeforeItsIndicesAreRead) {
  // A 2 x 2 matrix whose column starts are a prefix of the kept 3 x 3's would compare equal if
  // only the arrays were walked; the sizes differ, so it must not match (and nothing is read
  // past its column starts).
  const SparseMat big = from_entries(3, 3, {{0, 0, 1.0}, {1, 1, 1.0}});
  SparsityPattern pattern;
  pattern.assign(big);
  const SparseMat small = from_entries(2, 2, {{0, 0, 1.0}, {1, 1, 1.0}});
  EXPECT_FALSE(pattern.matches(small));
  const SparseMat wide = from_entries(3, 4, {{0, 0, 1.0}, {1, 1, 1.0}});
  EXPECT_FALSE(pattern.matches(wide));
  EXPECT_FALSE(same_sparsity_pattern(big, small));
  EXPECT_FALSE(same_sparsity_pattern(big, wide));
}

TEST(SparsityPattern, AnUncompressedMatrixNeverMatches) {
  const SparseMat A = from_entries(2, 2, {{0, 0, 1.0}, {1, 1, 1.0}});
  SparsityPattern pattern;
  pattern.assign(A);
  SparseMat uncompressed = A;
  uncompressed.uncompress();
  EXPECT_FALSE(pattern.matches(uncompressed));
  EXPECT_FALSE(same_sparsity_pattern(A, uncompressed));
  EXPECT_TRUE(same_sparsity_pattern(A, A));
  SparseMat again = A * 2.0;
  again.makeCompressed();
  EXPECT_TRUE(same_sparsity_pattern(A, again));
}

}  // namespace
}  // namespace softsim
