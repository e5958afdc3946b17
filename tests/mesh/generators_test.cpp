#include "softsim/mesh/generators.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <gtest/gtest.h>

#include "mesh/mesh_checks.hpp"
#include "softsim/mesh/measure.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/mesh/surface_components.hpp"
#include "softsim/volume/enclosed_volume.hpp"

namespace softsim {
namespace {

TEST(GenerateBox, CountsCentringAndPositiveOrientation) {
  const Vec3 size(1.5, 2.0, 0.7);
  const Eigen::Vector3i n(2, 3, 4);
  const Mesh mesh = generate_box(size, n);
  EXPECT_EQ(mesh.dim(), 3);
  EXPECT_EQ(mesh.num_cells(), 5 * 2 * 3 * 4);
  EXPECT_EQ(mesh.num_vertices(), 3 * 4 * 5);
  EXPECT_EQ(mesh.cells.cols(), 4);
  const BoundingBox box = bounding_box(mesh.vertices);
  EXPECT_TRUE(box.min.isApprox(-0.5 * size, 1e-15));
  EXPECT_TRUE(box.max.isApprox(0.5 * size, 1e-15));
  double total = 0.0;
  for (int c = 0; c < mesh.num_cells(); ++c) {
    const double v = cell_measure(mesh, c);
    EXPECT_GT(v, 0.0) << "tet " << c << " is not positively oriented";
    total += v;
  }
  EXPECT_NEAR(total, size.prod(), 1e-12);
  // Vertex (i, j, k) sits at the documented index.
  const Vec3 p = mesh.vertices.row((1 * 4 + 2) * 5 + 3).transpose();
  EXPECT_NEAR(p.x(), -0.75 + 1 * 0.75, 1e-15);
  EXPECT_NEAR(p.y(), -1.0 + 2 * 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(p.z(), -0.35 + 3 * 0.7 / 4.0, 1e-15);
}

TEST(GenerateBox, SingleCubeIsCentralTetPlusFourCorners) {
  const Mesh mesh = generate_box(Vec3(1, 1, 1), Eigen::Vector3i(1, 1, 1));
  ASSERT_EQ(mesh.num_cells(), 5);
  std::vector<double> volumes;
  for (int c = 0; c < 5; ++c) volumes.push_back(cell_measure(mesh, c));
  std::sort(volumes.begin(), volumes.end());
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(volumes[c], 1.0 / 6.0, 1e-15);
  EXPECT_NEAR(volumes[4], 1.0 / 3.0, 1e-15);
}

TEST(GenerateBox, IsConforming) {
  for (const Eigen::Vector3i& n : {Eigen::Vector3i(1, 1, 1), Eigen::Vector3i(2, 2, 2), Eigen::Vector3i(3, 2, 5)}) {
    const Mesh mesh = generate_box(Vec3(1, 2, 3), n);
    const auto faces = test::face_multiplicity(mesh.cells);
    int boundary = 0, interior = 0;
    for (const auto& [face, count] : faces) {
      ASSERT_LE(count, 2) << "a face is shared by more than two tets";
      if (count == 1) {
        ++boundary;
        // A face used once must lie on the box boundary: its three vertices share an extreme
        // coordinate (otherwise the face diagonals of neighbouring cubes do not match).
        bool on_side = false;
        for (int d = 0; d < 3; ++d)
          for (double side : {-0.5 * (d + 1), 0.5 * (d + 1)}) {
            bool all = true;
            for (int v : face) all = all && std::abs(mesh.vertices(v, d) - side) < 1e-12;
            on_side = on_side || all;
          }
        EXPECT_TRUE(on_side);
      } else {
        ++interior;
      }
    }
    const int nx = n.x(), ny = n.y(), nz = n.z();
    EXPECT_EQ(boundary, 2 * 2 * (nx * ny + ny * nz + nx * nz));
    // 4 faces per tet = boundary + 2 * interior.
    EXPECT_EQ(4 * mesh.num_cells(), boundary + 2 * interior);
  }
}

TEST(GenerateBox, RejectsBadSizes) {
  EXPECT_THROW(generate_box(Vec3(1, 0, 1), Eigen::Vector3i(1, 1, 1)), InputError);
  EXPECT_THROW(generate_box(Vec3(1, 1, 1), Eigen::Vector3i(1, 0, 1)), InputError);
}

TEST(GenerateHollowBox, ConformingShellWithOuterSurfaceAndCavity) {
  const Vec3 size(0.8, 1.0, 0.6);
  const Eigen::Vector3i n(4, 5, 3);
  const Mesh mesh = generate_hollow_box(size, n, 1);
  // 4 x 5 x 3 cells minus the 2 x 3 x 1 cavity cells, 5 tets each.
  EXPECT_EQ(mesh.num_cells(), 5 * (4 * 5 * 3 - 2 * 3 * 1));
  // Every lattice vertex is used except the 1 x 2 x 0 strictly inside the cavity: none here.
  EXPECT_EQ(mesh.num_vertices(), 5 * 6 * 4);
  double total = 0.0;
  for (int c = 0; c < mesh.num_cells(); ++c) {
    ASSERT_GT(cell_measure(mesh, c), 0.0) << "tet " << c;
    total += cell_measure(mesh, c);
  }
  const Vec3 cell = size.cwiseQuotient(n.cast<double>());
  const double cavity = 2 * cell.x() * 3 * cell.y() * 1 * cell.z();
  EXPECT_NEAR(total, size.prod() - cavity, 1e-12);
  for (const auto& [face, count] : test::face_multiplicity(mesh.cells)) ASSERT_LE(count, 2);
  // The boundary: two closed pieces, the outer box (volume +size.prod()) and the cavity (its
  // faces point into the hole, so it encloses -cavity).
  const Surface surface = extract_surface(mesh);
  const VecX x = flatten_rows(mesh.vertices);
  std::vector<double> volumes;
  for (const Eigen::MatrixXi& piece : surface_components(surface.faces)) volumes.push_back(enclosed_volume(piece, x));
  std::sort(volumes.begin(), volumes.end());
  ASSERT_EQ(volumes.size(), 2u);
  EXPECT_NEAR(volumes[0], -cavity, 1e-12);
  EXPECT_NEAR(volumes[1], size.prod(), 1e-12);
}

TEST(GenerateHollowBox, DropsVerticesInsideAThickWall) {
  // With a 6^3 lattice and a 1-cell wall the cavity is 4^3 cells; its 3^3 interior lattice
  // vertices belong to no tet and are dropped.
  const Mesh mesh = generate_hollow_box(Vec3(1, 1, 1), Eigen::Vector3i(6, 6, 6), 1);
  EXPECT_EQ(mesh.num_vertices(), 7 * 7 * 7 - 3 * 3 * 3);
  EXPECT_EQ(mesh.num_cells(), 5 * (6 * 6 * 6 - 4 * 4 * 4));
  for (Eigen::Index c = 0; c < mesh.cells.rows(); ++c)
    for (int a = 0; a < 4; ++a) ASSERT_LT(mesh.cells(c, a), mesh.num_vertices());
}

TEST(GenerateHollowBox, RejectsAWallThatLeavesNoCavity) {
  EXPECT_THROW(generate_hollow_box(Vec3(1, 1, 1), Eigen::Vector3i(4, 2, 4), 1), InputError);
  EXPECT_THROW(generate_hollow_box(Vec3(1, 1, 1), Eigen::Vector3i(4, 4, 4), 0), InputError);
}

TEST(GenerateRectangle, CountsOrientationAreaAndBookPattern) {
  const Vec2 size(2.0, 0.5);
  const Eigen::Vector2i n(4, 3);
  const Mesh mesh = generate_rectangle(size, n);
  EXPECT_EQ(mesh.dim(), 2);
  EXPECT_EQ(mesh.num_vertices(), 5 * 4);
  EXPECT_EQ(mesh.num_cells(), 2 * 4 * 3);
  double area = 0.0;
  for (int c = 0; c < mesh.num_cells(); ++c) {
    EXPECT_GT(cell_measure(mesh, c), 0.0) << "triangle " << c << " is clockwise";
    area += cell_measure(mesh, c);
  }
  EXPECT_NEAR(area, size.prod(), 1e-14);
  EXPECT_NEAR(mesh.vertices(0, 0), -1.0, 1e-15);
  EXPECT_NEAR(mesh.vertices(0, 1), -0.25, 1e-15);
  // Cell (0, 0): even parity, diagonal from (0,0) to (1,1); cell (0, 1): the other diagonal.
  const int ny1 = 4;
  EXPECT_EQ(mesh.cells.row(0), Eigen::RowVector3i(0, ny1, ny1 + 1));
  EXPECT_EQ(mesh.cells.row(1), Eigen::RowVector3i(0, ny1 + 1, 1));
  EXPECT_EQ(mesh.cells.row(2), Eigen::RowVector3i(1, ny1 + 1, 2));
  EXPECT_EQ(mesh.cells.row(3), Eigen::RowVector3i(ny1 + 1, ny1 + 2, 2));
  // Conforming: every edge used once (boundary) or twice.
  std::map<std::pair<int, int>, int> uses;
  for (int c = 0; c < mesh.num_cells(); ++c)
    for (int a = 0; a < 3; ++a) {
      const int u = mesh.cells(c, a), v = mesh.cells(c, (a + 1) % 3);
      ++uses[{std::min(u, v), std::max(u, v)}];
    }
  int boundary = 0;
  for (const auto& [e, count] : uses) {
    EXPECT_LE(count, 2);
    boundary += count == 1;
  }
  EXPECT_EQ(boundary, 2 * (4 + 3));
}

TEST(GenerateSpringGrid, BookLayout) {
  const Vec2 size(1.0, 2.0);
  const Eigen::Vector2i n(3, 2);
  const Mesh mesh = generate_spring_grid(size, n);
  const int nx = 3, ny = 2;
  EXPECT_EQ(mesh.num_vertices(), (nx + 1) * (ny + 1));
  EXPECT_EQ(mesh.cells.cols(), 2);
  EXPECT_EQ(mesh.num_cells(), nx * (ny + 1) + (nx + 1) * ny + 2 * nx * ny);
  for (int i = 0; i <= nx; ++i)
    for (int j = 0; j <= ny; ++j) {
      EXPECT_NEAR(mesh.vertices(i * (ny + 1) + j, 0), -0.5 + i * (1.0 / nx), 1e-15);
      EXPECT_NEAR(mesh.vertices(i * (ny + 1) + j, 1), -1.0 + j * 1.0, 1e-15);
    }
  // Order of Li & Jiang 2025, Implementation 4.1.1: horizontal first, then vertical, then the
  // two diagonals of each cell.
  EXPECT_EQ(mesh.cells.row(0), Eigen::RowVector2i(0, ny + 1));
  const int first_vertical = nx * (ny + 1);
  EXPECT_EQ(mesh.cells.row(first_vertical), Eigen::RowVector2i(0, 1));
  const int first_diagonal = first_vertical + (nx + 1) * ny;
  EXPECT_EQ(mesh.cells.row(first_diagonal), Eigen::RowVector2i(0, ny + 2));
  EXPECT_EQ(mesh.cells.row(first_diagonal + 1), Eigen::RowVector2i(ny + 1, 1));
  EXPECT_EQ(unique_edges(mesh).rows(), mesh.num_cells()) << "duplicate springs";
}

TEST(GenerateSpringBox, CountsAndNoDuplicates) {
  const Eigen::Vector3i n(2, 3, 1);
  const Mesh mesh = generate_spring_box(Vec3(1, 1, 1), n);
  const int nx = 2, ny = 3, nz = 1;
  const int axis = nx * (ny + 1) * (nz + 1) + (nx + 1) * ny * (nz + 1) + (nx + 1) * (ny + 1) * nz;
  const int face_diagonals = 2 * (nx * ny * (nz + 1) + nx * (ny + 1) * nz + (nx + 1) * ny * nz);
  const int body_diagonals = 4 * nx * ny * nz;
  EXPECT_EQ(mesh.num_cells(), axis + face_diagonals + body_diagonals);
  EXPECT_EQ(unique_edges(mesh).rows(), mesh.num_cells());
  const double longest = Vec3(0.5, 1.0 / 3.0, 1.0).norm();
  for (int c = 0; c < mesh.num_cells(); ++c) EXPECT_LE(cell_measure(mesh, c), longest + 1e-14);
}

}  // namespace
}  // namespace softsim
