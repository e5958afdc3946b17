#include "softsim/mesh/quality.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "mesh/mesh_checks.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/measure.hpp"

namespace softsim {
namespace {

Mesh unit_tet() {
  Mesh mesh;
  mesh.vertices.resize(4, 3);
  mesh.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  mesh.cells.resize(1, 4);
  mesh.cells << 0, 1, 2, 3;
  return mesh;
}

TEST(InspectMesh, BoxReport) {
  const Mesh mesh = generate_box(Vec3(2, 1, 1), Eigen::Vector3i(2, 1, 1));
  const MeshReport r = inspect_mesh(mesh);
  EXPECT_EQ(r.dim, 3);
  EXPECT_EQ(r.num_vertices, 12);
  EXPECT_EQ(r.num_cells, 10);
  EXPECT_EQ(r.vertices_per_cell, 4);
  EXPECT_TRUE(r.bbox_min.isApprox(Vec3(-1, -0.5, -0.5)));
  EXPECT_TRUE(r.bbox_max.isApprox(Vec3(1, 0.5, 0.5)));
  EXPECT_NEAR(r.total_measure, 2.0, 1e-14);
  EXPECT_NEAR(r.min_measure, 1.0 / 6.0, 1e-14);
  EXPECT_NEAR(r.max_measure, 1.0 / 3.0, 1e-14);
  EXPECT_EQ(r.num_inverted, 0);
  EXPECT_EQ(r.num_degenerate, 0);
  EXPECT_EQ(r.num_surface_faces, 4 * (2 + 1 + 2));
  EXPECT_EQ(r.num_surface_vertices, 12);
  EXPECT_GE(r.min_aspect_ratio, 1.0 - 1e-12);
  // The central tet of a cube is regular: aspect ratio exactly 1.
  EXPECT_NEAR(r.min_aspect_ratio, 1.0, 1e-12);
}

TEST(CellAspectRatio, RegularSimplicesAreOne) {
  Mesh tet;
  tet.vertices.resize(4, 3);
  tet.vertices << 1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1;
  tet.cells.resize(1, 4);
  tet.cells << 0, 1, 2, 3;
  EXPECT_NEAR(cell_aspect_ratio(tet, 0), 1.0, 1e-14);
  Mesh tri;
  tri.vertices.resize(3, 2);
  tri.vertices << 0, 0, 1, 0, 0.5, std::sqrt(3.0) / 2;
  tri.cells.resize(1, 3);
  tri.cells << 0, 1, 2;
  EXPECT_NEAR(cell_aspect_ratio(tri, 0), 1.0, 1e-14);
  // A flattened tet has a large ratio.
  Mesh flat = unit_tet();
  flat.vertices(3, 2) = 1e-3;
  EXPECT_GT(cell_aspect_ratio(flat, 0), 100.0);
}

TEST(InspectMesh, CountsInvertedAndDegenerate) {
  Mesh mesh = generate_box(Vec3(1, 1, 1), Eigen::Vector3i(2, 2, 2));
  std::swap(mesh.cells(3, 0), mesh.cells(3, 1));
  std::swap(mesh.cells(7, 2), mesh.cells(7, 3));
  mesh.cells(9, 3) = mesh.cells(9, 0);  // repeated vertex: zero volume
  const MeshReport r = inspect_mesh(mesh);
  EXPECT_EQ(r.num_inverted, 2);
  EXPECT_EQ(r.num_degenerate, 1);
  EXPECT_LT(r.min_measure, 0.0);
}

TEST(ValidateMesh, AcceptsGeneratedMeshes) {
  EXPECT_NO_THROW(validate_mesh(generate_box(Vec3(1, 2, 3), Eigen::Vector3i(3, 2, 1)), "box"));
  EXPECT_NO_THROW(validate_mesh(generate_rectangle(Vec2(1, 2), Eigen::Vector2i(3, 2)), "rect"));
  EXPECT_NO_THROW(validate_mesh(generate_spring_grid(Vec2(1, 2), Eigen::Vector2i(3, 2)), "springs"));
}

TEST(ValidateMesh, RejectsInvertedTetsNamingFirstAndCount) {
  Mesh mesh = generate_box(Vec3(1, 1, 1), Eigen::Vector3i(2, 2, 2));
  std::swap(mesh.cells(3, 0), mesh.cells(3, 1));
  std::swap(mesh.cells(7, 2), mesh.cells(7, 3));
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(mesh, "beam.msh"), "beam.msh", "2 inverted", "cell 3");
}

TEST(ValidateMesh, RejectsDegenerateTet) {
  Mesh mesh = unit_tet();
  mesh.vertices(3, 2) = 1e-14;  // volume 1.7e-15, tolerance 1e-12 * sqrt(2)^3
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(mesh, "flat.msh"), "flat.msh", "1 degenerate", "cell 0");
}

TEST(ValidateMesh, RejectsStructuralProblems) {
  Mesh empty;
  empty.vertices.resize(0, 3);
  empty.cells.resize(0, 4);
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(empty, "e.msh"), "e.msh", "no vertices");
  Mesh no_cells = unit_tet();
  no_cells.cells.resize(0, 4);
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(no_cells, "n.msh"), "n.msh", "no cells");
  Mesh nan = unit_tet();
  nan.vertices(2, 1) = std::numeric_limits<double>::quiet_NaN();
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(nan, "nan.node"), "nan.node", "vertex 2", "non-finite");
  Mesh range = unit_tet();
  range.cells(0, 2) = 4;
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(range, "r.ele"), "r.ele", "cell 0", "vertex 4");
  Mesh negative = unit_tet();
  negative.cells(0, 1) = -1;
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(negative, "neg"), "neg", "vertex -1");
  Mesh repeated = unit_tet();
  repeated.cells(0, 3) = 1;
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(repeated, "rep"), "rep", "cell 0", "twice");
  Mesh tags = unit_tet();
  tags.cell_tags = {1, 2};
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(tags, "tags"), "tags", "2 cell tags");
}

TEST(ValidateMesh, TwoDimensionalTrianglesAreSigned) {
  Mesh mesh = generate_rectangle(Vec2(1, 1), Eigen::Vector2i(2, 2));
  std::swap(mesh.cells(5, 1), mesh.cells(5, 2));
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(mesh, "sheet.obj"), "sheet.obj", "1 inverted", "cell 5");
}

TEST(ValidateMesh, ShellsHaveNoSignButMustNotBeDegenerate) {
  Mesh shell;
  shell.vertices.resize(4, 3);
  shell.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0;
  shell.cells.resize(2, 3);
  shell.cells << 0, 2, 1, 0, 1, 2;  // both orientations are fine
  EXPECT_NO_THROW(validate_mesh(shell, "shell.obj"));
  shell.cells.conservativeResize(3, 3);
  shell.cells.row(2) << 0, 1, 3;  // collinear
  SOFTSIM_EXPECT_INPUT_ERROR(validate_mesh(shell, "shell.obj"), "shell.obj", "degenerate", "cell 2");
}

}  // namespace
}  // namespace softsim
