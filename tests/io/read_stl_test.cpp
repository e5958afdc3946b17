// The STL reader (src/softsim/io/read_stl.cpp): ASCII and binary told apart by content, corners
// welded, every malformed file refused with its name and line or byte.
#include <gtest/gtest.h>

#include <fstream>

#include "io/io_test_util.hpp"
#include "mesh/mesh_checks.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/quality.hpp"
#include "support/icosphere.hpp"

namespace softsim {
namespace {

TEST(ReadStl, BinaryAndAsciiOfTheSameShapeGiveTheSameMesh) {
  test::ScratchDir dir;
  const Mesh sphere = test::icosphere(2, 0.3);
  test::write_stl_surface(dir / "sphere_binary.stl", sphere, true);
  test::write_stl_surface(dir / "sphere_ascii.stl", sphere, false);
  const Mesh binary = read_mesh(dir / "sphere_binary.stl");
  const Mesh ascii = read_mesh(dir / "sphere_ascii.stl");
  // Corners welded back to the icosphere's shared vertices, in first-appearance order.
  ASSERT_EQ(binary.num_vertices(), sphere.num_vertices());
  ASSERT_EQ(binary.num_cells(), sphere.num_cells());
  EXPECT_EQ(binary.cells, ascii.cells);
  EXPECT_EQ(binary.vertices, ascii.vertices);  // the same floats, exactly
  // The same triangles as the input, up to float rounding and renumbering.
  for (int f = 0; f < sphere.num_cells(); ++f)
    for (int c = 0; c < 3; ++c)
      EXPECT_LT((binary.vertices.row(binary.cells(f, c)) - sphere.vertices.row(sphere.cells(f, c))).norm(), 1e-7);
  // A closed surface again: every edge in two faces.
  EXPECT_EQ(inspect_mesh(binary).num_surface_edges, 3 * sphere.num_cells() / 2);
  ASSERT_EQ(binary.notes.size(), 1u);
  EXPECT_NE(binary.notes[0].find(fmt::format("{} facet corners welded into {} vertices ({} merged",
                                             3 * sphere.num_cells(), sphere.num_vertices(),
                                             3 * sphere.num_cells() - sphere.num_vertices())),
            std::string::npos)
      << binary.notes[0];
}

TEST(ReadStl, ABinaryFileWhoseHeaderStartsWithSolidIsReadAsBinary) {
  test::ScratchDir dir;
  const Mesh sphere = test::icosphere(1);
  test::write_stl_surface(dir / "tricky.STL", sphere, true, "solid exported by a CAD program");
  const Mesh m = read_mesh(dir / "tricky.STL");
  EXPECT_EQ(m.num_vertices(), sphere.num_vertices());
  EXPECT_EQ(m.num_cells(), sphere.num_cells());
}

TEST(ReadStl, WeldsOnlyWithinTheRelativeTolerance) {
  test::ScratchDir dir;
  // Two facets sharing an edge, the second's copy of one shared corner moved by 1e-9 (welded)
  // and a third facet whose corner is 1e-4 away from the first's (kept apart): diagonal ~1.7.
  const std::string text =
      "solid s\n"
      "facet normal 0 0 1\n outer loop\n vertex 0 0 0\n vertex 1 0 0\n vertex 0 1 0\n endloop\nendfacet\n"
      "facet normal 0 0 1\n outer loop\n vertex 1.000000001 0 0\n vertex 1 1 1\n vertex 0 1 0\n endloop\nendfacet\n"
      "facet normal 0 0 1\n outer loop\n vertex 0.0001 0 0\n vertex 0 0 1\n vertex 0 1 0\n endloop\nendfacet\n"
      "endsolid s\n";
  std::ofstream(dir / "weld.stl") << text;
  const Mesh m = read_mesh(dir / "weld.stl");
  EXPECT_EQ(m.num_vertices(), 6);  // 9 corners: (0,1,0) x3 -> 1, (1,0,0) x2 -> 1
  EXPECT_EQ(m.cells(1, 0), m.cells(0, 1));
  EXPECT_EQ(m.cells(1, 2), m.cells(0, 2));
  EXPECT_NE(m.cells(2, 0), m.cells(0, 0));
}

TEST(ReadStl, NormalsAreIgnoredEvenWhenNotNumbers) {
  const std::string text =
      "solid s\nfacet normal nan nan nan\n outer loop\n vertex 0 0 0\n vertex 1 0 0\n vertex 0 1 0\n endloop\n"
      "endfacet\nendsolid s\n";
  const Mesh m = read_mesh_from_memory(text, "normals.stl");
  EXPECT_EQ(m.num_cells(), 1);
  EXPECT_EQ(m.num_vertices(), 3);
}

TEST(ReadStl, MalformedFilesAreRefusedWithTheirPlace) {
  test::ScratchDir dir;
  const Mesh sphere = test::icosphere(1);
  test::write_stl_surface(dir / "whole.stl", sphere, true);
  std::ifstream in(dir / "whole.stl", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream(dir / "truncated.stl", std::ios::binary) << bytes.substr(0, bytes.size() - 7);
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(dir / "truncated.stl"), "truncated.stl", "announces 80 facets", "truncated");
  std::ofstream(dir / "short.stl", std::ios::binary) << bytes.substr(0, 40);
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(dir / "short.stl"), "short.stl", "too short");
  // A NaN coordinate in the binary file.
  std::string nan_bytes = bytes;
  const float nan = std::nanf("");
  std::memcpy(nan_bytes.data() + 84 + 12 + 4, &nan, 4);
  std::ofstream(dir / "nan.stl", std::ios::binary) << nan_bytes;
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(dir / "nan.stl"), "nan.stl: byte", "facet 0", "nan");
  std::ofstream(dir / "keyword.stl") << "solid s\nfacet normal 0 0 1\n outer loop\n vertex 0 0 0\n vertex 1 0 0\n"
                                        " vertx 0 1 0\n endloop\nendfacet\nendsolid s\n";
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(dir / "keyword.stl"), "keyword.stl:6:", "expected 'vertex', got 'vertx'");
  std::ofstream(dir / "number.stl") << "solid s\nfacet normal 0 0 1\n outer loop\n vertex 0 0 zero\n";
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(dir / "number.stl"), "number.stl:4:", "zero");
  std::ofstream(dir / "unended.stl") << "solid s\nfacet normal 0 0 1\n outer loop\n vertex 0 0 0\n vertex 1 0 0\n"
                                        " vertex 0 1 0\n endloop\nendfacet\n";
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(dir / "unended.stl"), "unended.stl", "expected 'endsolid'");
  std::ofstream(dir / "empty.stl") << "solid nothing\nendsolid nothing\n";
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(dir / "empty.stl"), "empty.stl", "no facets");
}

TEST(ReadStl, WorksFromMemoryAndIn2DOnlyWhenFlat) {
  const std::string flat =
      "solid s\nfacet normal 0 0 1\n outer loop\n vertex 0 0 0\n vertex 1 0 0\n vertex 0 1 0\n endloop\nendfacet\n"
      "endsolid s\n";
  const Mesh m = read_mesh_from_memory(flat, "flat.stl", 2);
  EXPECT_EQ(m.dim(), 2);
  EXPECT_EQ(m.num_cells(), 1);
  const Mesh sphere = test::icosphere(0);
  test::ScratchDir dir;
  test::write_stl_surface(dir / "round.stl", sphere, false);
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(dir / "round.stl", 2), "round.stl", "but the scene is 2D");
}

}  // namespace
}  // namespace softsim
