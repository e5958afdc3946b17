// The subspace map x = offset + B y (model/subspace_map.hpp): vertices outside every group keep
// their own coordinates, a group's vertices follow its handles; L is a left inverse of B, the
// round trip is exact on the range and not off it, and the pull-back is B^T H B.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "softsim/model/subspace_map.hpp"
#include "softsim/subspace/affine_body.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

// Six 2D vertices: 0 and 5 free, 1-4 one affine group (four points: more than an affine map
// can place freely).
SubspaceMap six_vertex_map(MatX& rest) {
  rest.resize(6, 2);
  rest << 0, 0, 1, 0, 2, 0.5, 1.2, 1.5, 2.2, 1.8, 3, 3;
  SubspaceMapBuilder builder(6, 2);
  const MatX group = rest.middleRows(1, 4);
  builder.add_group({1, 2, 3, 4}, affine_weights(group, group.colwise().mean().transpose()));
  return builder.build();
}

TEST(SubspaceMap, OrdersCoordinatesByVertexAndInvertsOnTheRange) {
  MatX rest;
  const SubspaceMap map = six_vertex_map(rest);
  ASSERT_EQ(map.num_coordinates(), 2 + 6 + 2);
  ASSERT_EQ(map.basis.rows(), 12);
  const MatX LB = MatX(map.left_inverse * map.basis);
  EXPECT_LT((LB - MatX::Identity(10, 10)).norm(), 1e-13);
  // Vertex 0 is coordinates 0-1, vertex 5 coordinates 8-9.
  const MatX B = MatX(map.basis);
  EXPECT_EQ(B(0, 0), 1.0);
  EXPECT_EQ(B(11, 9), 1.0);
  // An affine motion of the group and anything for the free vertices lies in the range.
  Eigen::Matrix2d A;
  A << 1.1, -0.3, 0.4, 0.9;
  const Eigen::Vector2d t(0.2, -0.7);
  VecX x = flatten_rows(rest);
  for (int i = 1; i <= 4; ++i) x.segment<2>(2 * i) = A * rest.row(i).transpose() + t;
  x.segment<2>(0) << 5, 6;
  EXPECT_LT(map.distance_from_range(x), 1e-13);
  const VecX y = map.coordinates(x);
  EXPECT_LT((map.positions(y) - x).lpNorm<Eigen::Infinity>(), 1e-13);
  // The group's handles are t' = A c + t and A's columns (weights relative to the centroid c).
  const Eigen::Vector2d c = rest.middleRows(1, 4).colwise().mean().transpose();
  EXPECT_LT((y.segment<2>(2) - (A * c + t)).norm(), 1e-13);
  EXPECT_LT((y.segment<2>(4) - A.col(0)).norm(), 1e-13);
  EXPECT_LT((y.segment<2>(6) - A.col(1)).norm(), 1e-13);
  // Moving one group vertex alone leaves the range.
  x[2] += 1e-3;
  EXPECT_GT(map.distance_from_range(x), 1e-4);
}

TEST(SubspaceMap, PullBackIsBTransposeHB) {
  MatX rest;
  const SubspaceMap map = six_vertex_map(rest);
  MatX dense = MatX::Random(12, 12);
  dense = dense * dense.transpose();
  const SparseMat H = dense.sparseView();
  const MatX B = MatX(map.basis);
  EXPECT_LT((MatX(map.pull_back(H)) - B.transpose() * dense * B).norm(), 1e-12 * dense.norm());
  const VecX g = VecX::Random(12);
  EXPECT_LT((map.pull_back(g) - B.transpose() * g).norm(), 1e-14 * g.norm() * 10);
}

TEST(SubspaceMap, RefusesOverlappingAndRankDeficientGroups) {
  SubspaceMapBuilder builder(4, 2);
  MatX rest(3, 2);
  rest << 0, 0, 1, 0, 2, 0;  // collinear: x, y weights are dependent
  EXPECT_THROW(
      {
        builder.add_group({0, 1, 2}, affine_weights(rest, VecX::Zero(2)));
        builder.build();
      },
      std::invalid_argument);
  SubspaceMapBuilder twice(4, 2);
  MatX tri(3, 2);
  tri << 0, 0, 1, 0, 0, 1;
  twice.add_group({0, 1, 2}, affine_weights(tri, VecX::Zero(2)));
  EXPECT_THROW(twice.add_group({2, 3, 1}, affine_weights(tri, VecX::Zero(2))), std::invalid_argument);
}

// A reduced group, x = x0 + U q over vertices 2-4 (six DOFs, two columns), beside a free vertex 0
// and an affine-free vertex 1: the offset is the group's x0, its coordinates come at its first
// vertex, and the round trip is exact on x0 + range(U) and not off it.
TEST(SubspaceMap, BasisGroupFollowsOffsetPlusBasis) {
  SubspaceMapBuilder builder(5, 2);
  MatX U(6, 2);
  U << 1, 0, 0, 1, 1, 1, 0, 2, -1, 0, 0.5, 0.5;
  VecX x0(6);
  x0 << 1, 2, 3, 4, 5, 6;
  builder.add_basis_group({2, 3, 4}, U, x0);
  const SubspaceMap map = builder.build();
  ASSERT_EQ(map.num_coordinates(), 2 + 2 + 2);
  EXPECT_EQ(map.offset.head(4), VecX::Zero(4));
  EXPECT_EQ(map.offset.tail(6), x0);
  VecX y(6);
  y << 7, 8, 9, 10, 0.3, -0.2;
  const VecX x = map.positions(y);
  EXPECT_EQ(x.head(4), y.head(4));
  EXPECT_LT((x.tail(6) - (x0 + U * y.tail(2))).norm(), 1e-14);
  EXPECT_LT((map.coordinates(x) - y).norm(), 1e-13);
  EXPECT_LT(map.distance_from_range(x), 1e-13);
  VecX off = x;
  off[5] += 1e-3;
  EXPECT_GT(map.distance_from_range(off), 1e-4);
  // A rank-deficient basis is refused.
  SubspaceMapBuilder deficient(5, 2);
  MatX twice(6, 2);
  twice.col(0) = U.col(0);
  twice.col(1) = 2.0 * U.col(0);
  EXPECT_THROW(deficient.add_basis_group({2, 3, 4}, twice, x0), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
