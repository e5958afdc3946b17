// The affine map of a body (subspace/affine_body.hpp): weights (1, xbar - c) reproduce
// t + A (xbar - c) exactly, and the frame is dim + 1 vertices spanning the body.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "softsim/mesh/generators.hpp"
#include "softsim/subspace/affine_body.hpp"

namespace softsim {
namespace {

TEST(AffineBody, WeightsReproduceTheAffineMap) {
  const Mesh box = generate_box(Vec3(1.0, 0.5, 0.2), Eigen::Vector3i(2, 2, 1));
  const VecX c = box.vertices.colwise().mean().transpose();
  const MatX W = affine_weights(box.vertices, c);
  Mat3 A;
  A << 1, 0.2, 0, -0.1, 0.9, 0.3, 0, 0, 1.2;
  const Vec3 t(1, 2, 3);
  MatX handles(4, 3);  // rows: t, a_1, a_2, a_3
  handles.row(0) = t.transpose();
  for (int k = 0; k < 3; ++k) handles.row(k + 1) = A.col(k).transpose();
  const MatX x = W * handles;
  for (int i = 0; i < box.num_vertices(); ++i) {
    const Vec3 expected = A * (box.vertices.row(i).transpose() - c) + t;
    EXPECT_LT((x.row(i).transpose() - expected).norm(), 1e-14);
  }
}

TEST(AffineBody, FrameSpansTheBody) {
  const Mesh box = generate_box(Vec3(2.0, 0.1, 1.0), Eigen::Vector3i(4, 1, 3));
  const std::vector<int> frame = affine_frame_vertices(box.vertices);
  ASSERT_EQ(frame.size(), 4u);
  Mat3 edges;
  for (int j = 0; j < 3; ++j) edges.col(j) = (box.vertices.row(frame[j + 1]) - box.vertices.row(frame[0])).transpose();
  // A box's best simplex of corners has volume |det| / 6 = a b c / 3 for sides a, b, c; farthest
  // points find corners, at least a well-conditioned tetrahedron.
  EXPECT_GT(std::abs(edges.determinant()), 0.5 * 2.0 * 0.1 * 1.0);
  MatX flat(4, 3);
  flat << 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 1e-15, 0;
  EXPECT_THROW(affine_frame_vertices(flat), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
