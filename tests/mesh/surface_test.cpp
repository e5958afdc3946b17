#include "softsim/mesh/surface.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <gtest/gtest.h>

#include <map>

#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/measure.hpp"

namespace softsim {
namespace {

// Divergence theorem with F(x) = x / 3: volume = sum over faces of (centroid . n) area / 3.
double enclosed_volume(const Eigen::MatrixXd& V, const Eigen::MatrixXi& F) {
  double volume = 0.0;
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    const Vec3 a = V.row(F(f, 0)).transpose(), b = V.row(F(f, 1)).transpose(), c = V.row(F(f, 2)).transpose();
    const Vec3 area_normal = 0.5 * (b - a).cross(c - a);  // |.| = area, direction = normal
    volume += ((a + b + c) / 3.0).dot(area_normal) / 3.0;
  }
  return volume;
}

TEST(ExtractSurface, BoxSurfaceIsClosedOutwardAndASphere) {
  const Vec3 size(1.0, 2.0, 0.5);
  const Eigen::Vector3i n(3, 2, 4);
  const Mesh mesh = generate_box(size, n);
  const Surface s = extract_surface(mesh);
  EXPECT_EQ(s.faces.rows(), 4 * (3 * 2 + 2 * 4 + 3 * 4));
  // Closed: every undirected edge in exactly two faces, once in each direction (consistent
  // orientation).
  std::map<std::pair<int, int>, int> directed;
  for (Eigen::Index f = 0; f < s.faces.rows(); ++f)
    for (int a = 0; a < 3; ++a) ++directed[{s.faces(f, a), s.faces(f, (a + 1) % 3)}];
  for (const auto& [e, count] : directed) {
    EXPECT_EQ(count, 1) << "edge " << e.first << "-" << e.second << " used twice in the same direction";
    EXPECT_EQ(directed.count({e.second, e.first}), 1u) << "edge " << e.first << "-" << e.second << " is a border";
  }
  EXPECT_EQ(static_cast<size_t>(s.edges.rows()) * 2, directed.size());
  EXPECT_NEAR(enclosed_volume(mesh.vertices, s.faces), size.prod(), 1e-12);
  const long long V = static_cast<long long>(s.vertices.size()), E = s.edges.rows(), F = s.faces.rows();
  EXPECT_EQ(V - E + F, 2);
  EXPECT_EQ(V, 4 * 3 * 5 - 2 * 1 * 3);  // all lattice points minus the interior ones
  EXPECT_TRUE(std::is_sorted(s.vertices.begin(), s.vertices.end()));
  for (Eigen::Index e = 0; e < s.edges.rows(); ++e) EXPECT_LT(s.edges(e, 0), s.edges(e, 1));
}

TEST(ExtractSurface, InvertedTetStillGivesOutwardFaces) {
  Mesh mesh;
  mesh.vertices.resize(4, 3);
  mesh.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  mesh.cells.resize(1, 4);
  mesh.cells << 0, 2, 1, 3;  // negative orientation
  ASSERT_LT(cell_measure(mesh, 0), 0.0);
  const Surface s = extract_surface(mesh);
  EXPECT_EQ(s.faces.rows(), 4);
  EXPECT_NEAR(enclosed_volume(mesh.vertices, s.faces), 1.0 / 6.0, 1e-15);
}

TEST(ExtractSurface, RectangleBoundaryIsCounterClockwisePerimeter) {
  const Vec2 size(3.0, 1.25);
  const Mesh mesh = generate_rectangle(size, Eigen::Vector2i(5, 3));
  const Surface s = extract_surface(mesh);
  EXPECT_EQ(s.faces.rows(), 0);
  EXPECT_EQ(s.edges.rows(), 2 * (5 + 3));
  double length = 0.0, shoelace = 0.0;
  std::map<int, int> out_degree, in_degree;
  for (Eigen::Index e = 0; e < s.edges.rows(); ++e) {
    const Vec2 a = mesh.vertices.row(s.edges(e, 0)).transpose(), b = mesh.vertices.row(s.edges(e, 1)).transpose();
    length += (b - a).norm();
    shoelace += 0.5 * (a.x() * b.y() - b.x() * a.y());
    ++out_degree[s.edges(e, 0)];
    ++in_degree[s.edges(e, 1)];
  }
  EXPECT_NEAR(length, 2 * (size.x() + size.y()), 1e-13);
  EXPECT_NEAR(shoelace, size.prod(), 1e-13) << "boundary is not counter-clockwise";
  EXPECT_EQ(s.vertices.size(), static_cast<size_t>(2 * (5 + 3)));
  for (int v : s.vertices) {
    EXPECT_EQ(out_degree[v], 1);
    EXPECT_EQ(in_degree[v], 1);
  }
}

TEST(ExtractSurface, ShellKeepsTrianglesAndListsAllEdges) {
  const Mesh solid = generate_box(Vec3(1, 1, 1), Eigen::Vector3i(2, 1, 1));
  Mesh shell;
  shell.vertices = solid.vertices;
  shell.cells = extract_surface(solid).faces;
  const Surface s = extract_surface(shell);
  EXPECT_EQ(s.faces, shell.cells);
  EXPECT_EQ(s.edges, unique_edges(shell));
  EXPECT_EQ(static_cast<long long>(s.vertices.size()) - s.edges.rows() + s.faces.rows(), 2);
}

TEST(UniqueEdges, OfOneTetAndOfTwoTriangles) {
  Eigen::MatrixXi tet(1, 4);
  tet << 3, 1, 0, 2;
  Eigen::MatrixXi expected(6, 2);
  expected << 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3;
  EXPECT_EQ(unique_edges(tet), expected);
  Eigen::MatrixXi tris(2, 3);
  tris << 0, 1, 2, 2, 1, 3;
  EXPECT_EQ(unique_edges(tris).rows(), 5);
}

}  // namespace
}  // namespace softsim
