// `softsim mesh` (tetrahedralize a closed surface and write it) and what `softsim info` says about
// surfaces and tet meshes: quality histograms, welding notes, whether a surface can bound a solid.
#include "apps/softsim/cli_support.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/measure.hpp"
#include "softsim/meshing/tetrahedralize.hpp"
#include "support/icosphere.hpp"

namespace softsim_cli_test {
namespace {

TEST(MeshCommand, WritesATetMeshThatReadsBackAndThatInfoReports) {
  SOFTSIM_REQUIRE_TOOL();
  if (!softsim::tetrahedralization_available()) GTEST_SKIP() << "built with SOFTSIM_WITH_TETGEN=OFF";
  TempDir tmp("mesh_command");
  const softsim::Mesh sphere = softsim::test::icosphere(2, 0.5);
  softsim::test::write_stl_surface(tmp.path() / "ball.stl", sphere, true);
  const fs::path out = tmp.path() / "ball.msh";
  const Result r = run_tool({"mesh", (tmp.path() / "ball.stl").string(), "--out", out.string(), "--edge-length", "0.1"},
                            tmp.path());
  ASSERT_TRUE(r.exited && r.code == 0) << r;
  EXPECT_NE(r.out.find("facet corners welded into 162 vertices"), std::string::npos) << r;
  EXPECT_NE(r.out.find("tetrahedralized by TetGen"), std::string::npos) << r;
  const softsim::Mesh tets = softsim::read_mesh(out);
  ASSERT_EQ(tets.cell_type(), softsim::CellType::Tetrahedron);
  for (int t = 0; t < tets.num_cells(); ++t) ASSERT_GT(softsim::cell_measure(tets, t), 0.0) << "tet " << t;
  const Result info = run_tool({"info", out.string()}, tmp.path());
  ASSERT_TRUE(info.exited && info.code == 0) << info;
  EXPECT_NE(info.out.find("minimum dihedral angle (degrees):"), std::string::npos) << info;
  EXPECT_NE(info.out.find("radius ratio:"), std::string::npos) << info;
  EXPECT_NE(info.out.find("[  10.0,   20.0)"), std::string::npos) << info;
  EXPECT_EQ(info.out.find("warning"), std::string::npos) << info;
}

TEST(MeshCommand, InfoOnASurfaceSaysWhetherItCanBeTetrahedralized) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("info_surface");
  softsim::test::write_obj_surface(tmp.path() / "ball.obj", softsim::test::icosphere(1));
  const Result closed = run_tool({"info", (tmp.path() / "ball.obj").string()}, tmp.path());
  ASSERT_TRUE(closed.exited && closed.code == 0) << closed;
  EXPECT_NE(closed.out.find("closed surface: yes (1 piece, enclosed volume"), std::string::npos) << closed;
  EXPECT_NE(closed.out.find("quality: minimum angle min"), std::string::npos) << closed;
  const Result open = run_tool({"info", (data_dir() / "bad" / "meshes" / "open_cube.obj").string()}, tmp.path());
  ASSERT_TRUE(open.exited && open.code == 0) << open;
  EXPECT_NE(open.out.find("closed surface: no: "), std::string::npos) << open;
  EXPECT_NE(open.out.find("open_cube.obj: the surface is not closed: 3 boundary edges"),
            std::string::npos)
      << open;
}

TEST(MeshCommand, BadInputExitsWithTwoAndWritesNothing) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("mesh_bad");
  const fs::path out = tmp.path() / "x.msh";
  const Result open = run_tool({"mesh", (data_dir() / "bad" / "meshes" / "open_cube.obj").string(), "--out", out.string()},
                               tmp.path());
  ASSERT_TRUE(open.exited) << open;
  EXPECT_EQ(open.code, 2) << open;
  EXPECT_NE(open.err.find("error: "), std::string::npos) << open;
  EXPECT_NE(open.err.find("open_cube.obj: the surface is not closed"), std::string::npos) << open;
  EXPECT_FALSE(fs::exists(out));
  const Result crossing = run_tool(
      {"mesh", (data_dir() / "bad" / "meshes" / "crossing_cubes.obj").string(), "--out", out.string()}, tmp.path());
  EXPECT_EQ(crossing.code, 2) << crossing;
  EXPECT_NE(crossing.err.find("the surface intersects itself: faces"), std::string::npos) << crossing;
  const Result extension = run_tool(
      {"mesh", (data_dir() / "bad" / "meshes" / "open_cube.obj").string(), "--out", (tmp.path() / "x.vtk").string()},
      tmp.path());
  EXPECT_EQ(extension.code, 2) << extension;
  EXPECT_NE(extension.err.find("give a name ending in .msh"), std::string::npos) << extension;
  const Result steep = run_tool({"mesh", "a.obj", "--out", out.string(), "--min-dihedral", "30"}, tmp.path());
  EXPECT_EQ(steep.code, 2) << steep;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace softsim_cli_test
