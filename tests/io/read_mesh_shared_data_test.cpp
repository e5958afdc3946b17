// The external meshes (shared/data/meshes, read-only) load with the counts stated in
// SOURCES.md and README.md.
#include <gtest/gtest.h>

#include <map>

#include "support/data_dir.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/quality.hpp"
#include "softsim/mesh/surface.hpp"

namespace softsim {
namespace {

namespace fs = std::filesystem;

struct Expected {
  int vertices, tets, surface_faces;  // surface_faces < 0: not listed
};

// SOURCES.md, "Meshes taken from polyfem-data".
const std::map<std::string, Expected>& table() {
  static const std::map<std::string, Expected> t = {
      {"creatures/armadillo/Armadillo13K.msh", {13230, 54985, 17296}},
      {"creatures/bunny.msh", {4670, 19379, 6266}},
      {"creatures/octocat.msh", {6133, 21426, 8554}},
      {"simple/cube.msh", {8, 6, 12}},
      {"simple/cube-denser.msh", {335, 1101, 540}},
      {"simple/sphere/sphere1K.msh", {1760, 6851, 2474}},
      {"simple/sphere/sphere5K.msh", {7034, 27792, 9742}},
      {"simple/sphere/coarse/icosphere.msh", {42, 96, 80}},
      {"simple/mat/mat20x20.msh", {800, 2166, 1596}},
      {"simple/mat/mat40x40.msh", {3200, 9126, 6396}},
      {"simple/bar/bar-186.msh", {86, 186, -1}},
      {"simple/bar/bar-651.msh", {292, 651, -1}},
      {"simple/bar/bar-2523.msh", {886, 2523, -1}},
      {"simple/bar/bar-14114.msh", {3842, 14114, -1}},
      {"simple/rod/rod.msh", {630, 1722, 1162}},
      {"chain/link.msh", {233, 673, -1}},
      {"chain/ball.msh", {364, 1152, -1}},
      {"simple/torus.msh", {200, 491, 400}},
      {"table.msh", {4641, 17004, 6418}},
  };
  return t;
}

fs::path meshes3d() { return test::shared_data_dir() / "meshes/polyfem-data/contact/meshes/3D"; }

TEST(SharedMeshes, EveryGmshMeshLoadsWithTheListedCounts) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  int checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(meshes3d())) {
    if (entry.path().extension() != ".msh") continue;
    const std::string rel = fs::relative(entry.path(), meshes3d()).generic_string();
    SCOPED_TRACE(rel);
    const Mesh mesh = read_mesh(entry.path());
    EXPECT_EQ(mesh.dim(), 3);
    EXPECT_EQ(mesh.cells.cols(), 4);
    EXPECT_NO_THROW(validate_mesh(mesh, rel));  // all positively oriented, per README
    const auto it = table().find(rel);
    if (it != table().end()) {
      EXPECT_EQ(mesh.num_vertices(), it->second.vertices);
      EXPECT_EQ(mesh.num_cells(), it->second.tets);
      if (it->second.surface_faces >= 0) {
        EXPECT_EQ(extract_surface(mesh).faces.rows(), it->second.surface_faces);
      }
    } else {
      // The small unit-test meshes: "4-6 vertices, 1-3 tets".
      EXPECT_TRUE(rel.rfind("simple/tet/", 0) == 0 || rel.rfind("simple/erleben/", 0) == 0) << "not in the table";
      EXPECT_GE(mesh.num_vertices(), 4);
      EXPECT_LE(mesh.num_vertices(), 6);
      EXPECT_GE(mesh.num_cells(), 1);
      EXPECT_LE(mesh.num_cells(), 3);
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(table().size()) + 5);
}

TEST(SharedMeshes, CubeDenserCarriesTheVolumePhysicalGroup) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const Mesh mesh = read_mesh(meshes3d() / "simple/cube-denser.msh");
  ASSERT_EQ(mesh.cell_tags.size(), 1101u);
  for (int t : mesh.cell_tags) EXPECT_EQ(t, 15);
}

TEST(SharedMeshes, FourGmshEncodingsGiveTheSameMesh) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const fs::path dir = test::shared_data_dir() / "meshes/polyfem-data/multi-material/msh_test";
  const Mesh reference = read_mesh(dir / "22_ascii.msh");
  ASSERT_EQ(reference.num_vertices(), 8);
  ASSERT_EQ(reference.num_cells(), 5);
  EXPECT_EQ(reference.cell_tags, (std::vector<int>{1, 2, 2, 2, 3}));
  EXPECT_NO_THROW(validate_mesh(reference, "22_ascii.msh"));
  for (const char* name : {"22_binary.msh", "41_ascii.msh", "41_binary.msh"}) {
    SCOPED_TRACE(name);
    const Mesh mesh = read_mesh(dir / name);
    ASSERT_EQ(mesh.num_vertices(), 8);
    ASSERT_EQ(mesh.num_cells(), 5);
    EXPECT_EQ(mesh.cell_tags, reference.cell_tags);
    // 4.1 files list nodes by entity, so vertex order may differ: compare cells by position.
    for (int c = 0; c < 5; ++c)
      for (int q = 0; q < 4; ++q)
        EXPECT_EQ(mesh.vertices.row(mesh.cells(c, q)), reference.vertices.row(reference.cells(c, q)));
  }
}

TEST(SharedMeshes, PlySurfaces) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const fs::path dir = test::shared_data_dir() / "meshes/ipc-toolkit-tests-data";
  const Mesh bunny = read_mesh(dir / "bunny.ply");
  EXPECT_EQ(bunny.num_vertices(), 2503);
  EXPECT_EQ(bunny.num_cells(), 5002);
  const Mesh cube = read_mesh(dir / "cube.ply");
  EXPECT_EQ(cube.num_vertices(), 8);
  EXPECT_EQ(cube.num_cells(), 12);
  for (const char* name : {"two-cubes-far.ply", "two-cubes-close.ply", "two-cubes-intersecting.ply"}) {
    SCOPED_TRACE(name);
    const Mesh mesh = read_mesh(dir / name);
    EXPECT_EQ(mesh.num_vertices(), 262);
    EXPECT_EQ(mesh.num_cells(), 480);
    EXPECT_NO_THROW(validate_mesh(mesh, name));
  }
  const fs::path frame = test::shared_data_dir() / "ccd/scalable-ccd-sample/cloth-funnel/frames/227.ply";
  const Mesh cloth = read_mesh(frame);
  EXPECT_EQ(cloth.num_vertices(), 9450);
  EXPECT_EQ(cloth.num_cells(), 18484);
  EXPECT_EQ(unique_edges(cloth).rows(), 27930);
}

TEST(SharedMeshes, MeditSquareBeam) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const Mesh mesh = read_mesh(test::shared_data_dir() / "meshes/polyfem-data/square_beam.mesh");
  EXPECT_EQ(mesh.num_vertices(), 739);
  EXPECT_EQ(mesh.num_cells(), 2886);
  const MeshReport r = inspect_mesh(mesh);
  EXPECT_NEAR((r.bbox_max - r.bbox_min).prod(), 20.0 * 20.0 * 100.0, 1e-9);
  EXPECT_NEAR(std::abs(r.total_measure), 20.0 * 20.0 * 100.0, 1e-6);
}

TEST(SharedMeshes, ObjObstaclesLoad) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const std::map<std::string, int> faces = {{"plane.obj", 2}, {"unit-plane.obj", 2}, {"bowl.obj", 2560},
                                            {"funnel.obj", 552}, {"erleben/cliff.obj", 12}, {"erleben/crack.obj", 36},
                                            {"erleben/hole.obj", 78}, {"erleben/internal-edges.obj", 24},
                                            {"erleben/spike.obj", 6}, {"erleben/wedge.obj", 8}};
  for (const auto& [name, count] : faces) {
    SCOPED_TRACE(name);
    const Mesh mesh = read_mesh(meshes3d() / "obstacles" / name);
    EXPECT_EQ(mesh.num_cells(), count);  // these files hold triangles only
    EXPECT_EQ(mesh.dim(), 3);
  }
}

}  // namespace
}  // namespace softsim
