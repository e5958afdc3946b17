// Mass-PCA (subspace/mass_pca.hpp) on snapshots with a known answer: the basis is M-orthonormal,
// the captured energies are the eigenvalues of S^T M S in descending order, the projection error
// of the snapshots onto r columns is the sum of the energies left out (Eckart-Young in the mass
// norm), and snapshots of rank 3 give 3 columns whatever size is asked for.
#include "softsim/subspace/mass_pca.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

namespace softsim {
namespace {

SparseMat diagonal_mass(int n) {
  SparseMat M(n, n);
  for (int i = 0; i < n; ++i) M.insert(i, i) = 1.0 + 0.1 * (i % 7);
  return M;
}

TEST(MassPca, IsMassOrthonormalAndOptimal) {
  const int n = 30, k = 6;
  const SparseMat M = diagonal_mass(n);
  const MatX S = MatX::Random(n, k);
  const MassPca all = mass_pca(S, M, k);
  ASSERT_EQ(all.basis.cols(), k);
  EXPECT_LT((MatX(all.basis.transpose() * M * all.basis) - MatX::Identity(k, k)).norm(), 1e-12);
  for (int j = 1; j < k; ++j) EXPECT_GE(all.energy[j - 1], all.energy[j]);
  // All columns: the energies add up to the snapshots' squared mass norm.
  EXPECT_NEAR(all.energy.sum(), (S.transpose() * M * S).trace(), 1e-10 * all.energy.sum());
  // Two columns: what is left of S after the M-orthogonal projection is the other energies.
  const MassPca two = mass_pca(S, M, 2);
  ASSERT_EQ(two.basis.cols(), 2);
  const MatX residual = S - two.basis * (two.basis.transpose() * (M * S));
  EXPECT_NEAR((residual.transpose() * M * residual).trace(), all.energy.tail(k - 2).sum(), 1e-10 * all.energy.sum());
}

TEST(MassPca, StopsAtTheSnapshotsRank) {
  const int n = 20;
  const SparseMat M = diagonal_mass(n);
  const MatX directions = MatX::Random(n, 3);
  const MatX S = directions * MatX::Random(3, 8);  // 8 snapshots of rank 3
  const MassPca pca = mass_pca(S, M, 8);
  ASSERT_EQ(pca.basis.cols(), 3);
  // The basis spans the snapshots.
  const MatX residual = S - pca.basis * (pca.basis.transpose() * (M * S));
  EXPECT_LT(residual.norm(), 1e-10 * S.norm());
  EXPECT_THROW(mass_pca(MatX::Zero(n, 2), M, 2), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
