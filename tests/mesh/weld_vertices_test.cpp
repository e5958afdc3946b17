#include "softsim/mesh/weld_vertices.hpp"

#include <gtest/gtest.h>

namespace softsim {
namespace {

Mesh soup(const Eigen::MatrixXd& corners) {
  Mesh m;
  m.vertices = corners;
  m.cells.resize(corners.rows() / 3, 3);
  for (int i = 0; i < corners.rows(); ++i) m.cells(i / 3, i % 3) = i;
  return m;
}

TEST(WeldVertices, MergesWithinTheToleranceAndKeepsTheRestApart) {
  // Diagonal of the box [0,1]^3 is sqrt 3; the tolerance 1e-3 x sqrt 3 = 1.73e-3.
  Eigen::MatrixXd c(6, 3);
  c << 0, 0, 0,  1, 0, 0,  0, 1, 1,                       // triangle 0
       1.0015, 0, 0,  0, 1, 1,  0.0018, 0, 0;             // 1.5e-3 (merged), exact (merged), 1.8e-3 (kept)
  Mesh m = soup(c);
  const WeldReport r = weld_vertices(m, 1e-3);
  EXPECT_NEAR(r.tolerance, 1e-3 * std::sqrt(1.0015 * 1.0015 + 2.0), 1e-15);
  EXPECT_EQ(r.vertices_before, 6);
  EXPECT_EQ(r.vertices_after, 4);
  EXPECT_EQ(r.merged(), 2);
  EXPECT_EQ(m.cells(1, 0), 1);
  EXPECT_EQ(m.cells(1, 1), 2);
  EXPECT_EQ(m.cells(1, 2), 3);
  // A kept vertex keeps its own coordinates (the first of its group).
  EXPECT_EQ(m.vertices(1, 0), 1.0);
  EXPECT_EQ(m.vertices(3, 0), 0.0018);
}

TEST(WeldVertices, ZeroToleranceMergesOnlyExactCopiesAnd2DWorks) {
  Eigen::MatrixXd c(3, 2);
  c << 0, 0, 0, 0, 1e-10, 0;
  Mesh m = soup(c);
  EXPECT_EQ(weld_vertices(m, 0.0).vertices_after, 2);
  EXPECT_EQ(m.cells(0, 0), m.cells(0, 1));  // repeated index left for the caller's checks
}

TEST(WeldVertices, AFarOffsetMeshWeldsTheSame) {
  Eigen::MatrixXd c(6, 3);
  c << 0, 0, 0, 1, 0, 0, 0, 1, 0,  1, 0, 0, 1, 1, 0, 0, 1, 0;
  Mesh near = soup(c), far = soup(c.rowwise() + Eigen::RowVector3d(1e9, -1e9, 3e8));
  weld_vertices(near, 1e-7);
  weld_vertices(far, 1e-7);
  EXPECT_EQ(near.cells, far.cells);
  EXPECT_EQ(near.num_vertices(), 4);
}

}  // namespace
}  // namespace softsim
