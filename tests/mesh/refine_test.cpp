// Uniform refinement (Bey 1995): a tet into 8 children of equal volume, a triangle into 4 of equal
// area, orientations and tags kept, the result conforming (every interior face shared by two
// tets), the original vertices first and each midpoint made once.
#include "softsim/mesh/refine.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <set>
#include <stdexcept>

#include "mesh_checks.hpp"
#include "softsim/mesh/generators.hpp"

namespace softsim {
namespace {

double tet_volume(const Mesh& m, int c) {
  const Vec3 a = m.vertices.row(m.cells(c, 0)).transpose();
  return (Vec3(m.vertices.row(m.cells(c, 1)).transpose()) - a)
             .cross(Vec3(m.vertices.row(m.cells(c, 2)).transpose()) - a)
             .dot(Vec3(m.vertices.row(m.cells(c, 3)).transpose()) - a) /
         6.0;
}

TEST(RefineUniformly, ATetBecomesEightOfAnEighthOfItsVolume) {
  Mesh tet;
  tet.vertices.resize(4, 3);
  tet.vertices << 0, 0, 0, 1, 0, 0, 0.2, 1.3, 0, 0.1, 0.4, 0.9;  // irregular
  tet.cells.resize(1, 4);
  tet.cells << 0, 1, 2, 3;
  tet.cell_tags = {7};
  const Mesh r = refine_uniformly(tet, 1);
  ASSERT_EQ(r.num_vertices(), 10);  // 4 corners and 6 midpoints
  ASSERT_EQ(r.num_cells(), 8);
  EXPECT_EQ(r.vertices.topRows(4), tet.vertices);  // the corners keep their ids
  EXPECT_EQ(r.vertices.row(4), 0.5 * (tet.vertices.row(0) + tet.vertices.row(1)));  // m01 first
  const double parent = tet_volume(tet, 0);
  for (int c = 0; c < 8; ++c) EXPECT_NEAR(tet_volume(r, c), parent / 8, 1e-15) << c;  // Bey: all equal, all positive
  EXPECT_EQ(r.cell_tags, std::vector<int>(8, 7));
  // Conforming: 8 x 4 = 32 faces, the 4 x 4 = 16 on the boundary once, the other 8 twice.
  int once = 0, twice = 0;
  for (const auto& [face, n] : test::face_multiplicity(r.cells)) (n == 1 ? once : twice) += 1;
  EXPECT_EQ(once, 16);
  EXPECT_EQ(twice, 8);
  // A negatively oriented parent gives negatively oriented children.
  Mesh flipped = tet;
  flipped.cells << 0, 2, 1, 3;
  const Mesh rf = refine_uniformly(flipped, 1);
  for (int c = 0; c < 8; ++c) EXPECT_NEAR(tet_volume(rf, c), -parent / 8, 1e-15) << c;
}

TEST(RefineUniformly, TwoRoundsOfABoxKeepItsVolumeAndConformity) {
  const Mesh box = generate_box(Vec3(2.0, 1.0, 1.0), Eigen::Vector3i(2, 1, 1));  // 10 tets, 12 vertices
  const Mesh r = refine_uniformly(box, 2);
  EXPECT_EQ(r.num_cells(), 64 * box.num_cells());
  double volume = 0.0, smallest = HUGE_VAL;
  for (int c = 0; c < r.num_cells(); ++c) {
    volume += tet_volume(r, c);
    smallest = std::min(smallest, tet_volume(r, c));
  }
  EXPECT_NEAR(volume, 2.0, 1e-13);
  EXPECT_GT(smallest, 0.0);
  // No vertex twice (each midpoint made once) and every interior face shared by two tets.
  std::set<std::array<double, 3>> unique;
  for (int v = 0; v < r.num_vertices(); ++v) unique.insert({r.vertices(v, 0), r.vertices(v, 1), r.vertices(v, 2)});
  EXPECT_EQ(unique.size(), static_cast<std::size_t>(r.num_vertices()));
  int boundary = 0;
  for (const auto& [face, n] : test::face_multiplicity(r.cells)) {
    EXPECT_LE(n, 2);
    boundary += n == 1;
  }
  int box_boundary = 0;
  for (const auto& [face, n] : test::face_multiplicity(box.cells)) box_boundary += n == 1;
  EXPECT_EQ(boundary, 16 * box_boundary);
}

TEST(RefineUniformly, TrianglesSplitInFourAndEdgeMeshesAreRefused) {
  const Mesh rect = generate_rectangle(Vec2(1.0, 1.0), Eigen::Vector2i(1, 1));  // 2 triangles
  const Mesh r = refine_uniformly(rect, 1);
  EXPECT_EQ(r.num_cells(), 8);
  EXPECT_EQ(r.num_vertices(), 4 + 5);  // 4 sides and the shared diagonal
  double area = 0.0;
  for (int c = 0; c < r.num_cells(); ++c) {
    const Vec2 a = r.vertices.row(r.cells(c, 0)).transpose(), b = r.vertices.row(r.cells(c, 1)).transpose(),
               d = r.vertices.row(r.cells(c, 2)).transpose();
    const double signed_area = 0.5 * ((b - a).x() * (d - a).y() - (b - a).y() * (d - a).x());
    EXPECT_NEAR(signed_area, 1.0 / 8.0, 1e-15) << c;  // counter-clockwise as the parents
    area += signed_area;
  }
  EXPECT_NEAR(area, 1.0, 1e-15);
  EXPECT_EQ(refine_uniformly(rect, 0).cells, rect.cells);
  Mesh edges;
  edges.vertices = MatX::Zero(2, 3);
  edges.cells.resize(1, 2);
  edges.cells << 0, 1;
  EXPECT_THROW(refine_uniformly(edges, 1), std::invalid_argument);
  EXPECT_THROW(refine_uniformly(rect, -1), std::invalid_argument);
}

}  // namespace
}  // namespace softsim
