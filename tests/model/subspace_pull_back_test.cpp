// B^T H B through SubspacePullBack (model/subspace_pull_back.hpp): against the dense product for
// a map with free vertices, affine groups and a dense reduced basis; the same values when a kept
// pattern is reused, a changed pattern re-analysed, uncompressed input, the reduced pattern no
// larger than the structural product's, and the same bits for 1 and 2 threads.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <Eigen/Dense>
#include <random>
#include <stdexcept>

#include "softsim/model/subspace_map.hpp"
#include "softsim/model/subspace_pull_back.hpp"
#include "softsim/subspace/affine_body.hpp"

namespace softsim {
namespace {

// 3D: `free_vertices` free vertices, then two affine groups of 5 vertices, then a reduced group of
// 4 vertices with a dense 3-column basis.
SubspaceMap mixed_map(int free_vertices, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = free_vertices + 14;
  SubspaceMapBuilder builder(n, 3);
  for (int g = 0; g < 2; ++g) {
    MatX rest(5, 3);
    for (int i = 0; i < rest.size(); ++i) rest.data()[i] = u(rng);
    std::vector<int> ids;
    for (int i = 0; i < 5; ++i) ids.push_back(free_vertices + 5 * g + i);
    builder.add_group(ids, affine_weights(rest, rest.colwise().mean().transpose()));
  }
  MatX U(12, 3);
  for (int i = 0; i < U.size(); ++i) U.data()[i] = u(rng);
  builder.add_basis_group({n - 4, n - 3, n - 2, n - 1}, U, VecX::Zero(12));
  return builder.build();
}

// A symmetric Hessian with random vertex-block sparsity over n vertices (3 DOFs each).
SparseMat random_hessian(int n, double density, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Triplet> entries;
  for (int a = 0; a < n; ++a)
    for (int b = a; b < n; ++b) {
      if (a != b && (u(rng) + 1.0) / 2.0 > density) continue;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const double v = u(rng);
          entries.emplace_back(3 * a + i, 3 * b + j, v);
          if (a != b) entries.emplace_back(3 * b + j, 3 * a + i, v);
        }
    }
  SparseMat H(3 * n, 3 * n);
  H.setFromTriplets(entries.begin(), entries.end());
  return H;
}

double relative_error(const SparseMat& reduced, const SubspaceMap& map, const SparseMat& H) {
  const MatX B(map.basis);
  const MatX expected = B.transpose() * MatX(H) * B;
  return (MatX(reduced) - expected).norm() / expected.norm();
}

TEST(SubspacePullBack, EqualsTheDenseProductAndReusesItsPattern) {
  std::mt19937 rng(7);
  const SubspaceMap map = mixed_map(6, rng);
  const int n = static_cast<int>(map.basis.rows()) / 3;
  SparseMat H = random_hessian(n, 0.3, rng);
  SubspacePullBack pull_back(map);
  EXPECT_LT(relative_error(pull_back.apply(H), map, H), 1e-14);
  // No larger than the structural product's pattern (Eigen's sparse product, pruned of nothing).
  const SparseMat structural = SparseMat(map.basis_t * SparseMat(H * map.basis));
  EXPECT_EQ(pull_back.apply(H).nonZeros(), structural.nonZeros());

  // New values, same pattern: the kept pattern gives the new product.
  for (int k = 0; k < H.nonZeros(); ++k) H.valuePtr()[k] *= 1.0 + 0.1 * k;
  EXPECT_LT(relative_error(pull_back.apply(H), map, H), 1e-14);

  // A new pattern (a coupling between the first free vertex and the reduced group) is analysed.
  SparseMat coupled = H;
  coupled.coeffRef(0, 3 * n - 1) += 2.5;
  coupled.coeffRef(3 * n - 1, 0) += 2.5;
  coupled.makeCompressed();
  EXPECT_LT(relative_error(pull_back.apply(coupled), map, coupled), 1e-14);
  // And back.
  EXPECT_LT(relative_error(pull_back.apply(H), map, H), 1e-14);

  // Uncompressed input (inserted entries with room left).
  SparseMat uncompressed(H.rows(), H.cols());
  uncompressed.reserve(Eigen::VectorXi::Constant(H.cols(), 40));
  for (int c = 0; c < H.outerSize(); ++c)
    for (SparseMat::InnerIterator it(H, c); it; ++it) uncompressed.insert(it.row(), c) = it.value();
  ASSERT_FALSE(uncompressed.isCompressed());
  EXPECT_LT(relative_error(pull_back.apply(uncompressed), map, H), 1e-14);

  // The one-off SubspaceMap::pull_back is the same product.
  EXPECT_LT(relative_error(map.pull_back(H), map, H), 1e-14);
}

TEST(SubspacePullBack, EmptyColumnsAndWrongSizes) {
  std::mt19937 rng(3);
  const SubspaceMap map = mixed_map(2, rng);
  SubspacePullBack pull_back(map);
  const int rows = static_cast<int>(map.basis.rows());
  SparseMat zero(rows, rows);
  const SparseMat& reduced = pull_back.apply(zero);
  EXPECT_EQ(reduced.rows(), map.num_coordinates());
  EXPECT_EQ(reduced.nonZeros(), 0);
  SparseMat wrong(rows + 3, rows + 3);
  EXPECT_THROW(pull_back.apply(wrong), std::invalid_argument);
}

TEST(SubspacePullBack, SameBitsForOneAndTwoThreads) {
  std::mt19937 rng(11);
  // Enough free vertices that the columns run as parallel blocks.
  const SubspaceMap map = mixed_map(400, rng);
  const int n = static_cast<int>(map.basis.rows()) / 3;
  const SparseMat H = random_hessian(n, 0.02, rng);
  SparseMat one, two;
  {
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 1);
    SubspacePullBack pull_back(map);
    one = pull_back.apply(H);
  }
  {
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 2);
    SubspacePullBack pull_back(map);
    two = pull_back.apply(H);
  }
  ASSERT_EQ(one.nonZeros(), two.nonZeros());
  EXPECT_TRUE(std::equal(one.valuePtr(), one.valuePtr() + one.nonZeros(), two.valuePtr()));
  EXPECT_TRUE(std::equal(one.innerIndexPtr(), one.innerIndexPtr() + one.nonZeros(), two.innerIndexPtr()));
  EXPECT_LT(relative_error(one, map, H), 1e-13);
}

}  // namespace
}  // namespace softsim
