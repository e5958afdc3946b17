// describe_build: the notes loading leaves (an STL's welded corners) and the warning about bodies
// with sliver elements.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "io/io_test_util.hpp"
#include "softsim/io/write_mesh.hpp"
#include "softsim/scene/scene.hpp"
#include "support/icosphere.hpp"

namespace softsim {
namespace {

TEST(BuildMessages, ASliverBodyIsWarnedAboutAndAnStlShellLeavesItsNote) {
  test::ScratchDir dir;
  // A regular tet and a sliver (a square's corners, one diagonal lifted by 1e-3: dihedral angles
  // of about 0.11 degrees), both positively oriented, so the mesh passes validation.
  Mesh tets;
  tets.vertices.resize(8, 3);
  tets.vertices << 1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1,  //
      3, 0, 0, 4, 0, 1e-3, 4, 1, 0, 3, 1, 1e-3;
  tets.cells.resize(2, 4);
  tets.cells << 0, 2, 1, 3, 4, 5, 6, 7;
  write_msh41_ascii(dir / "sliver.msh", tets);
  test::write_stl_surface(dir / "cloth.stl", test::icosphere(1, 0.5, Eigen::Vector3d(0, 5, 0)), true);
  const nlohmann::json j = R"json({
    "dim": 3,
    "bodies": [{"name": "jelly", "mesh": "sliver.msh"}, {"name": "cloth", "kind": "shell", "mesh": "cloth.stl"}]
  })json"_json;
  const Model model = build_model(parse_scene(j, dir / "s.json"));
  const BuildMessages m = describe_build(model);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("body \"jelly\": element 1 has a minimum dihedral angle of 0.11 degrees"), std::string::npos)
      << m.warnings[0];
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("body \"cloth\": cloth.stl: 240 facet corners welded into 42 vertices"), std::string::npos)
      << m.notes[0];
}

}  // namespace
}  // namespace softsim
