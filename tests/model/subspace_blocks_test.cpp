// The coordinates of a subspace map in blocks (model/subspace_blocks.hpp): one block per body in
// a subspace and per free vertex, rows of B within them; B^T H B accumulated by blocks equals the
// map's own pull-back, with pairs of bodies widening the reduced pattern and exact zeros skipped.
#include <gtest/gtest.h>

#include "softsim/core/sparsity_pattern.hpp"
#include "softsim/model/subspace_blocks.hpp"
#include "softsim/model/subspace_map.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

// Two 2D affine bodies of three and four vertices around a free vertex (7 + 1 vertices), and a
// vertex of the second body with a zero row (a fixed DOF).
SubspaceMap two_bodies_and_a_free_vertex() {
  SubspaceMapBuilder builder(8, 2);
  MatX w1(3, 3), w2(4, 3);
  w1 << 1, 0.1, 0.2, 1, -0.3, 0.4, 1, 0.5, -0.6;
  w2 << 1, 0.7, 0.1, 1, -0.2, 0.9, 1, 0.3, 0.3, 1, -0.8, -0.4;
  builder.add_group({0, 1, 2}, w1);
  builder.add_group({4, 5, 6, 7}, w2);
  SubspaceMap map = builder.build();
  // Vertex 7's y DOF fixed: its row of B zeroed.
  for (SparseMat::InnerIterator it(map.basis_t, 15); it; ++it) it.valueRef() = 0.0;
  map.basis_t.prune(0.0);
  map.basis = map.basis_t.transpose();
  return map;
}

TEST(SubspaceBlocks, OneBlockPerBodyAndPerFreeVertex) {
  const SubspaceMap map = two_bodies_and_a_free_vertex();
  const SubspaceBlocks blocks = subspace_blocks(map, 2);
  ASSERT_EQ(blocks.num_blocks(), 3);
  EXPECT_EQ(blocks.width(0), 6);  // body 1
  EXPECT_EQ(blocks.width(1), 2);  // vertex 3
  EXPECT_EQ(blocks.width(2), 6);  // body 2
  EXPECT_EQ(blocks.block_of_dof[0], 0);
  EXPECT_EQ(blocks.block_of_dof[7], 1);
  EXPECT_EQ(blocks.block_of_dof[8], 2);
  EXPECT_EQ(blocks.block_of_dof[15], -1);
  // Rows within their block reproduce B.
  for (int i = 0; i < 16; ++i)
    for (int p = blocks.row_start[i]; p < blocks.row_start[i + 1]; ++p)
      EXPECT_EQ(map.basis.coeff(i, blocks.start[blocks.block_of_dof[i]] + blocks.row_column[p]), blocks.row_value[p]);
}

TEST(BlockHessian, EqualsThePullBackAndWidensForPairsOfBodies) {
  const SubspaceMap map = two_bodies_and_a_free_vertex();
  const SubspaceBlocks blocks = subspace_blocks(map, 2);
  // The pattern: each block's own coordinates, dense.
  std::vector<Triplet> own;
  for (int k = 0; k < blocks.num_blocks(); ++k)
    for (int a = blocks.start[k]; a < blocks.start[k + 1]; ++a)
      for (int b = blocks.start[k]; b < blocks.start[k + 1]; ++b) own.emplace_back(a, b, 1.0);
  SparseMat pattern(map.num_coordinates(), map.num_coordinates());
  pattern.setFromTriplets(own.begin(), own.end());
  // A symmetric H over all 16 DOFs: body 1 with itself, and contact-like entries between body 1,
  // the free vertex and body 2 (some as a sparse matrix, some as triplets), one exact zero.
  const VecX values = test::random_perturbation(64, 1.0, 3);
  std::vector<Triplet> in_matrix, as_triplets;
  int k = 0;
  auto add = [&](std::vector<Triplet>& to, int i, int j) {
    to.emplace_back(i, j, values[k]);
    if (i != j) to.emplace_back(j, i, values[k]);
    ++k;
  };
  for (int i = 0; i < 6; ++i)
    for (int j = i; j < 6; ++j) add(in_matrix, i, j);
  add(as_triplets, 2, 6);
  add(as_triplets, 3, 7);
  add(as_triplets, 4, 9);
  add(as_triplets, 5, 14);
  add(as_triplets, 7, 12);
  add(as_triplets, 15, 1);  // a fixed DOF: no coordinates
  // A run as contact stencils write them: one row, consecutive columns of one block (one of
  // them a fixed DOF), then the transposed entries.
  for (int j : {12, 13, 15}) as_triplets.emplace_back(1, j, values[k + j - 12]);
  for (int j : {12, 13, 15}) as_triplets.emplace_back(j, 1, values[k + j - 12]);
  SparseMat H(16, 16), T(16, 16);
  H.setFromTriplets(in_matrix.begin(), in_matrix.end());
  T.setFromTriplets(as_triplets.begin(), as_triplets.end());
  BlockHessian accumulated(blocks);
  SparseMat first_pattern;
  for (int repeat = 0; repeat < 2; ++repeat) {  // storage kept: the second pass starts from zero
    accumulated.clear();
    accumulated.add_entries(H);
    accumulated.add_entries(as_triplets);
    SparseMat out;
    accumulated.write(pattern, out);
    const MatX expected = MatX(map.pull_back(SparseMat(H + T)));
    EXPECT_LT((MatX(out) - expected).norm(), 1e-13 * expected.norm());
    EXPECT_GT(out.nonZeros(), pattern.nonZeros());  // the pairs widened it
    if (repeat == 0) first_pattern = out;
    EXPECT_TRUE(same_sparsity_pattern(out, first_pattern));
  }
  EXPECT_EQ(accumulated.pattern_builds(), 1);  // the same pairs: the widened pattern was kept
  // Only the first body: the kept pattern, with the pairs' entries zero.
  accumulated.clear();
  accumulated.add_entries(H);
  SparseMat out = first_pattern;  // storage of the kept pattern: values overwritten
  accumulated.write(pattern, out);
  EXPECT_EQ(accumulated.pattern_builds(), 1);
  EXPECT_TRUE(same_sparsity_pattern(out, first_pattern));
  EXPECT_LT((MatX(out) - MatX(map.pull_back(H))).norm(), 1e-13 * MatX(out).norm());
  // A fresh accumulation of the first body alone: the pattern as it is.
  BlockHessian first_body(blocks);
  first_body.add_entries(H);
  first_body.write(pattern, out);
  EXPECT_TRUE(same_sparsity_pattern(out, pattern));
  EXPECT_LT((MatX(out) - MatX(map.pull_back(H))).norm(), 1e-13 * MatX(out).norm());
  // A pair not seen before widens the kept pattern again, and the earlier pairs stay in it.
  first_body.clear();
  first_body.add_entries(H);
  first_body.add_entries(as_triplets);
  first_body.write(pattern, out);
  EXPECT_EQ(first_body.pattern_builds(), 2);
  EXPECT_TRUE(same_sparsity_pattern(out, first_pattern));
  EXPECT_LT((MatX(out) - MatX(map.pull_back(SparseMat(H + T)))).norm(), 1e-13 * MatX(out).norm());
}

// Blocks added from another accumulation (scaled) and products with the blocks in use: both equal
// the pulled-back matrix's, pairs of bodies included.
TEST(BlockHessian, AddsAndMultipliesAsThePulledBackMatrix) {
  const SubspaceMap map = two_bodies_and_a_free_vertex();
  const SubspaceBlocks blocks = subspace_blocks(map, 2);
  std::vector<Triplet> entries;
  const VecX values = test::random_perturbation(40, 1.0, 7);
  int k = 0;
  for (auto [i, j] : {std::pair{0, 0}, {1, 4}, {2, 6}, {3, 9}, {5, 14}, {7, 12}, {8, 11}, {13, 13}}) {
    entries.emplace_back(i, j, values[k]);
    if (i != j) entries.emplace_back(j, i, values[k]);
    ++k;
  }
  SparseMat H(16, 16);
  H.setFromTriplets(entries.begin(), entries.end());
  const MatX reduced = MatX(map.pull_back(H));
  BlockHessian source(blocks), target(blocks);
  source.add_entries(H);
  target.add_entries(H);
  target.add(source, 2.5);  // H + 2.5 H
  const int r = map.num_coordinates();
  SparseMat pattern(r, r), out;
  target.write(pattern, out);
  EXPECT_LT((MatX(out) - 3.5 * reduced).norm(), 1e-13 * reduced.norm());
  const VecX y = test::random_perturbation(r, 1.0, 8);
  VecX product = VecX::Ones(r);
  source.multiply_add(y, -2.0, product);
  EXPECT_LT((product - (VecX::Ones(r) - 2.0 * reduced * y)).norm(), 1e-13 * (reduced * y).norm());
}

}  // namespace
}  // namespace softsim
