// Every writer + reader pair gives back the same vertices (bit for bit) and cells.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "io/io_test_util.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/io/write_mesh.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/quality.hpp"
#include "softsim/mesh/surface.hpp"

namespace softsim {
namespace {

// A box with coordinates that have no short decimal form and with tags in runs and out of
// order, so that a writer that rounds or regroups cells is caught.
Mesh awkward_box() {
  Mesh mesh = generate_box(Vec3(1.0 / 3.0, 2.0 / 7.0, 0.1), Eigen::Vector3i(3, 2, 2));
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> jitter(-1e-3, 1e-3);
  for (Eigen::Index i = 0; i < mesh.vertices.size(); ++i) mesh.vertices.data()[i] += jitter(rng) * 1e-2;
  mesh.vertices(0, 0) *= 1.0 + 1e-15;  // needs all 17 significant digits
  for (int c = 0; c < mesh.num_cells(); ++c) mesh.cell_tags.push_back(c < 20 ? 7 : c < 40 ? 2 : 7 + c % 2);
  return mesh;
}

void expect_same_mesh(const Mesh& a, const Mesh& b, bool compare_tags = true) {
  ASSERT_EQ(a.vertices.rows(), b.vertices.rows());
  ASSERT_EQ(a.vertices.cols(), b.vertices.cols());
  for (Eigen::Index i = 0; i < a.vertices.size(); ++i) {
    ASSERT_EQ(a.vertices.data()[i], b.vertices.data()[i]) << "coordinate " << i << " changed";
  }
  EXPECT_EQ(a.cells, b.cells);
  if (compare_tags) {
    EXPECT_EQ(a.cell_tags, b.cell_tags);
  }
}

TEST(RoundTrip, Msh41Ascii) {
  test::ScratchDir dir;
  const Mesh mesh = awkward_box();
  write_msh41_ascii(dir / "box.msh", mesh);
  expect_same_mesh(mesh, read_mesh(dir / "box.msh"));
  Mesh untagged = mesh;
  untagged.cell_tags.clear();
  write_msh41_ascii(dir / "plain.msh", untagged);
  expect_same_mesh(untagged, read_mesh(dir / "plain.msh"));
}

TEST(RoundTrip, Msh22AsciiAndBinary) {
  test::ScratchDir dir;
  const Mesh mesh = awkward_box();
  write_msh22_ascii(dir / "a.msh", mesh);
  expect_same_mesh(mesh, read_mesh(dir / "a.msh"));
  write_msh22_binary(dir / "b.msh", mesh);
  expect_same_mesh(mesh, read_mesh(dir / "b.msh"));
  Mesh untagged = mesh;
  untagged.cell_tags.clear();
  write_msh22_binary(dir / "c.msh", untagged);
  expect_same_mesh(untagged, read_mesh(dir / "c.msh"));
}

TEST(RoundTrip, TetGen) {
  test::ScratchDir dir;
  const Mesh mesh = awkward_box();
  write_tetgen(dir / "box.node", mesh);
  EXPECT_TRUE(std::filesystem::exists(dir / "box.ele"));
  expect_same_mesh(mesh, read_mesh(dir / "box.node"), false);
  expect_same_mesh(mesh, read_mesh(dir / "box.ele"), false);
}

TEST(RoundTrip, ObjSurface) {
  test::ScratchDir dir;
  const Mesh solid = awkward_box();
  Mesh shell;
  shell.vertices = solid.vertices;
  shell.cells = extract_surface(solid).faces;
  write_obj(dir / "surface.obj", shell.vertices, shell.cells);
  const Mesh back = read_mesh(dir / "surface.obj");
  expect_same_mesh(shell, back);
  EXPECT_NO_THROW(validate_mesh(back, "surface.obj"));
}

TEST(RoundTrip, TwoDimensionalMeshesComeBackTwoDimensional) {
  test::ScratchDir dir;
  Mesh mesh = generate_rectangle(Vec2(1.0 / 3.0, 0.7), Eigen::Vector2i(3, 4));
  write_msh41_ascii(dir / "rect.msh", mesh);
  expect_same_mesh(mesh, read_mesh(dir / "rect.msh", 2));
  const Mesh as3d = read_mesh(dir / "rect.msh", 3);
  EXPECT_EQ(as3d.dim(), 3);
  EXPECT_TRUE((as3d.vertices.col(2).array() == 0.0).all());
  write_msh22_ascii(dir / "rect22.msh", mesh);
  expect_same_mesh(mesh, read_mesh(dir / "rect22.msh", 2));
  write_tetgen(dir / "rect.node", mesh);
  expect_same_mesh(mesh, read_mesh(dir / "rect.node", 2));
  write_obj(dir / "rect.obj", mesh.vertices, mesh.cells);
  expect_same_mesh(mesh, read_mesh(dir / "rect.obj", 2));
  // Springs (edge cells) through gmsh.
  const Mesh springs = generate_spring_grid(Vec2(1, 1), Eigen::Vector2i(2, 3));
  write_msh41_ascii(dir / "springs.msh", springs);
  expect_same_mesh(springs, read_mesh(dir / "springs.msh", 2));
}

TEST(ReadObj, PolygonsNegativeIndicesAndSlashForms) {
  test::ScratchDir dir;
  {
    std::ofstream out(dir / "quad.obj");
    out << "# a quad and a triangle\nmtllib x.mtl\no thing\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0 1.0\n"
           "vt 0 0\nvn 0 0 1\ns off\nf 1/1/1 2/1/1 3//1 4\nv 2 0 0\nf -1 -4 -3\n";
  }
  const Mesh mesh = read_mesh(dir / "quad.obj");
  ASSERT_EQ(mesh.num_vertices(), 5);
  Eigen::MatrixXi expected(3, 3);
  expected << 0, 1, 2, 0, 2, 3, 4, 1, 2;
  EXPECT_EQ(mesh.cells, expected);
}

TEST(ReadPly, AsciiWithExtraPropertiesAndQuads) {
  test::ScratchDir dir;
  {
    std::ofstream out(dir / "q.ply");
    out << "ply\nformat ascii 1.0\ncomment test\nelement vertex 4\nproperty float x\nproperty float y\n"
           "property float z\nproperty uchar red\nelement face 1\nproperty list uchar int vertex_indices\n"
           "end_header\n0 0 0 255\n1 0 0 0\n1 1 0 0\n0 1 0.5 0\n4 0 1 2 3\n";
  }
  const Mesh mesh = read_mesh(dir / "q.ply");
  ASSERT_EQ(mesh.num_vertices(), 4);
  ASSERT_EQ(mesh.num_cells(), 2);
  EXPECT_EQ(mesh.vertices(3, 2), 0.5);
  EXPECT_EQ(mesh.cells.row(1), Eigen::RowVector3i(0, 2, 3));
}

TEST(ReadMedit, TetsWithReferences) {
  test::ScratchDir dir;
  {
    std::ofstream out(dir / "t.mesh");
    out << "MeshVersionFormatted 1\nDimension 3\n# comment\nVertices\n5\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n"
           "1 1 1 0\nTriangles\n1\n1 2 3 4\nTetrahedra\n2\n1 2 3 4 1\n2 3 4 5 2\nEnd\n";
  }
  const Mesh mesh = read_mesh(dir / "t.mesh");
  EXPECT_EQ(mesh.num_vertices(), 5);
  ASSERT_EQ(mesh.num_cells(), 2);
  EXPECT_EQ(mesh.cells.row(1), Eigen::RowVector4i(1, 2, 3, 4));
  EXPECT_EQ(mesh.cell_tags, (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace softsim
