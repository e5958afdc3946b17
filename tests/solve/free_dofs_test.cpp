// FreeDofs: the free block of a matrix and vectors restricted to the free DOFs and extended back,
// against the same operations written with dense index arithmetic.
#include <gtest/gtest.h>

#include "softsim/solve/free_dofs.hpp"

namespace softsim {
namespace {

TEST(FreeDofs, BlockRestrictAndExtendKeepExactlyTheFreeDofs) {
  const int n = 5;
  MatX A(n, n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) A(r, c) = 10 * r + c;
  const SparseMat S = A.sparseView();
  const FreeDofs free(n, {0, 1, 0, 1, 0});  // DOFs 1 and 3 eliminated
  ASSERT_EQ(free.count(), 3);
  const int kept[3] = {0, 2, 4};
  const MatX B(free.block(S));
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(free.dof(r), kept[r]);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(B(r, c), A(kept[r], kept[c]));
  }
  const VecX v = VecX::LinSpaced(n, 1.0, 5.0);
  const VecX w = free.restrict(v);
  EXPECT_EQ(w, Vec3(1.0, 3.0, 5.0));
  VecX back(n);
  back << 1.0, 0.0, 3.0, 0.0, 5.0;
  EXPECT_EQ(free.extend(w), back);
  // No mask: every DOF is free.
  EXPECT_EQ(FreeDofs(n, {}).count(), n);
}

}  // namespace
}  // namespace softsim
