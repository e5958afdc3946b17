// softsim run / check / convert on the field's own scene formats (IPC .txt, PolyFEM JSON): the
// converted scene runs bitwise as the original, and what is not supported is refused by line.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "cli_support.hpp"
#include "softsim/io/write_mesh.hpp"
#include "softsim/mesh/generators.hpp"

namespace softsim_cli_test {
namespace {

// Every file under `folder`, by relative path, with its bytes.
std::map<std::string, std::string> files_under(const fs::path& folder) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(folder))
    if (e.is_regular_file()) out[e.path().lexically_relative(folder).generic_string()] = read_text(e.path());
  return out;
}

// Runs the converted scene into scratch/again and compares its frames, byte for byte, with those
// of the original's run in scratch/direct.
void expect_same_frames_when_run(const fs::path& converted, const fs::path& scratch) {
  const Result again = run_tool({"run", converted.string(), "--out", (scratch / "again").string(), "--quiet"}, scratch);
  ASSERT_EQ(again.code, 0) << again;
  const auto a = files_under(scratch / "direct" / "frames"), b = files_under(scratch / "again" / "frames");
  ASSERT_GE(a.size(), 5u);
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, bytes] : a) EXPECT_TRUE(b.count(name) && b.at(name) == bytes) << name << " differs";
}

// An IPC scene in scenes/ naming its mesh as IPC does, relative to a root folder above it.
struct IpcFolder {
  softsim::test::TempDir dir{"ipc_convert"};
  IpcFolder() {
    fs::create_directories(dir.path() / "input" / "tetMeshes");
    fs::create_directories(dir.path() / "input" / "scenes");
    fs::create_directories(dir.path() / "elsewhere");
    softsim::Mesh cube = softsim::generate_box(softsim::Vec3::Ones(), Eigen::Vector3i::Constant(2));
    cube.vertices.rowwise() += Eigen::RowVector3d::Constant(0.5);  // IPC's cube.msh spans [0, 1]^3
    softsim::write_msh41_ascii(dir.path() / "input" / "tetMeshes" / "cube.msh", cube);
  }
  fs::path write(const std::string& text) const {
    const fs::path p = dir.path() / "input" / "scenes" / "two_cubes.txt";
    std::ofstream(p) << text;
    return p;
  }
};

const char* kTwoCubes = R"(energy NH
time 0.1 0.025
density 1000
stiffness 100000 0.4
view perspective
shapes input 2
input/tetMeshes/cube.msh 0 1.2 0  0 0 30  1 1 1 initVel 0 -1 0 0 90 0
input/tetMeshes/cube.msh 0 0.01 0  0 0 0  1 1 1 \
    DBC -0.1 -0.1 -0.1  1.1 0.1 1.1  0 0 0  0 0 0
selfFric 0.2
ground 0.3 0
)";

TEST(ConvertCommand, AConvertedIpcSceneRunsBitwiseAsTheOriginal) {
  SOFTSIM_REQUIRE_TOOL();
  IpcFolder folder;
  const fs::path scene = folder.write(kTwoCubes);
  const fs::path scratch = folder.dir.path();
  const Result direct = run_tool({"run", scene.string(), "--out", (scratch / "direct").string()}, scratch);
  ASSERT_EQ(direct.code, 0) << direct;
  EXPECT_NE(direct.err.find("note: ignored (no effect on the motion): view"), std::string::npos) << direct;
  const fs::path converted = scratch / "elsewhere" / "scene.json";
  const Result convert = run_tool({"convert", scene.string(), "--out", converted.string()}, scratch);
  ASSERT_EQ(convert.code, 0) << convert;
  const std::string json = read_text(converted);
  EXPECT_NE(json.find("\"../input/tetMeshes/cube.msh\""), std::string::npos) << json;  // relative to the new file
  expect_same_frames_when_run(converted, scratch);
  const Result check = run_tool({"check", scene.string()}, scratch);
  EXPECT_EQ(check.code, 0) << check;
  EXPECT_NE(check.out.find("read as IPC scene"), std::string::npos) << check;
}

TEST(ConvertCommand, AConvertedPolyfemSceneRunsBitwiseAsTheOriginal) {
  SOFTSIM_REQUIRE_TOOL();
  softsim::test::TempDir dir("polyfem_convert");
  fs::create_directories(dir.path() / "meshes");
  fs::create_directories(dir.path() / "scenes" / "out");
  softsim::write_msh41_ascii(dir.path() / "meshes" / "cube.msh",
                             softsim::generate_box(softsim::Vec3::Ones(), Eigen::Vector3i::Constant(2)));
  std::ofstream(dir.path() / "scenes" / "twist.json") << R"({
    "geometry": [{"mesh": "../meshes/cube.msh", "transformation": {"scale": [2, 0.5, 0.5]}, "n_refs": 1,
                  "surface_selection": [{"id": 1, "axis": "-x", "position": -0.99}, {"id": 2, "axis": "x", "position": 0.99}]}],
    "materials": {"E": 1e5, "nu": 0.3, "rho": 100, "type": "NeoHookean"},
    "time": {"dt": 0.05, "tend": 0.2},
    "contact": {"enabled": true, "dhat": 0.001},
    "boundary_conditions": {"dirichlet_boundary": [
      {"id": 1, "value": [0, 0, 0]},
      {"id": 2, "value": [0, "y*cos(pi*t)-z*sin(pi*t)-y", "y*sin(pi*t)+z*cos(pi*t)-z"]}]}})";
  const fs::path scene = dir.path() / "scenes" / "twist.json", scratch = dir.path();
  const Result direct = run_tool({"run", scene.string(), "--out", (scratch / "direct").string(), "--quiet"}, scratch);
  ASSERT_EQ(direct.code, 0) << direct;
  const fs::path converted = scratch / "scenes" / "out" / "twist_softsim.json";
  const Result convert = run_tool({"convert", scene.string(), "--out", converted.string()}, scratch);
  ASSERT_EQ(convert.code, 0) << convert;
  EXPECT_NE(read_text(converted).find("angular_velocity"), std::string::npos);  // the twist became a rotation
  expect_same_frames_when_run(converted, scratch);
}

// The converted forms of IPC's squash and drag scripts (penalty paths, a release, kinematic
// walls), of dampingRatio and of a late DBC run bitwise as the originals.
TEST(ConvertCommand, ConvertedScriptsDampingAndTimedDbcRunBitwiseAsTheOriginals) {
  SOFTSIM_REQUIRE_TOOL();
  const std::string walls = R"(input/triMeshes/plane.obj -1 1.5 -1.5  0 0 -90  3 3 3
input/triMeshes/plane.obj 1 1.5 -1.5  0 0 -90  3 3 3
input/triMeshes/plane.obj -1.5 -1 -1.5  0 0 0  3 3 3
input/triMeshes/plane.obj -1.5 1 -1.5  0 0 0  3 3 3
input/triMeshes/plane.obj -1.5 1.5 -1  90 0 0  3 3 3
input/triMeshes/plane.obj -1.5 1.5 1  90 0 0  3 3 3
)";
  const std::string scenes[] = {
      "time 0.1 0.025\nscript DCOSquash6\nturnOffGravity\nstiffness 10000 0.4\ndampingRatio 0.2\nshapes input 7\n" +
          walls + "input/tetMeshes/cube.msh -0.4 -0.4 -0.4  0 0 0  0.8 0.8 0.8\n",
      "time 0.1 0.025\nscript dragright\nshapes input 1\ninput/tetMeshes/cube.msh 0 0 0  0 0 0  1 1 1\n"
      "meshCO input/triMeshes/plane.obj 0.5 -1 0.5  2 50 0\n",
      "time 0.1 0.025\nshapes input 1\ninput/tetMeshes/cube.msh 0 1 0  0 0 0  1 1 1 \\\n"
      "  DBC -0.1 0.9 -0.1 1.1 1.1 1.1 0 0 0 0 0 0 0.03 0.07\n"};
  for (const std::string& text : scenes) {
    IpcFolder folder;
    fs::create_directories(folder.dir.path() / "input" / "triMeshes");
    std::ofstream(folder.dir.path() / "input" / "triMeshes" / "plane.obj")
        << "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 3 2\nf 1 4 3\n";
    const fs::path scene = folder.write(text);
    const fs::path scratch = folder.dir.path();
    const Result direct = run_tool({"run", scene.string(), "--out", (scratch / "direct").string(), "--quiet"}, scratch);
    ASSERT_EQ(direct.code, 0) << text << direct;
    const fs::path converted = scratch / "elsewhere" / "scene.json";
    const Result convert = run_tool({"convert", scene.string(), "--out", converted.string()}, scratch);
    ASSERT_EQ(convert.code, 0) << convert;
    expect_same_frames_when_run(converted, scratch);
  }
}

TEST(ConvertCommand, WhatIsNotSupportedIsRefusedByLineAndNothingIsWritten) {
  SOFTSIM_REQUIRE_TOOL();
  IpcFolder folder;
  const fs::path scratch = folder.dir.path();
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"shapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1\nfrobnicate 3\n", "line 3: frobnicate: not an IPC command"},
      {"shapes input 1\ninput/tetMeshes/missing.msh 0 1 0 0 0 0 1 1 1\n", "line 2: input/tetMeshes/missing.msh: no such mesh"},
      {"shapes input 2\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1\n", "line 1: shapes: expected 2 shape lines, found 1"},
      {"time 1 abc\nshapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1\n", "line 1: time: \"abc\" is not a number"},
      {"script spin\nshapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1\n", "line 1: script spin"},
      {"shapes input 1\ninput/tetMeshes/cube.msh 0 1 0 0 0 0 1 1 1 spin 3\n", "line 2: input/tetMeshes/cube.msh: shape option \"spin\""},
  };
  for (const auto& c : cases) {
    const fs::path scene = folder.write(c.text);
    const fs::path out = scratch / "converted.json";
    const Result r = run_tool({"convert", scene.string(), "--out", out.string()}, scratch);
    EXPECT_EQ(r.code, 2) << c.text << r;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
    const Result run = run_tool({"run", scene.string(), "--out", (scratch / "never").string()}, scratch);
    EXPECT_EQ(run.code, 2) << run;
    EXPECT_FALSE(fs::exists(scratch / "never"));
  }
}

}  // namespace
}  // namespace softsim_cli_test
