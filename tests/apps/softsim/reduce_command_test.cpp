// softsim reduce (apps/softsim/reduce_command.cpp): a modal basis file; POD of a run's frames
// that a scene then names and runs; a cubature stored with the basis (--cubature T) that a scene
// uses as if it had fitted it; wrong body, pod without snapshots, frames of another mesh and a
// cubature of another mesh refused with one message and exit 2.
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/softsim/cli_support.hpp"

namespace softsim_cli_test {
namespace {

nlohmann::json cantilever(int nx) {
  nlohmann::json j = R"json({
    "dim": 2, "gravity": [0, -9.81], "time": {"dt": 0.01, "end": 0.2},
    "integrator": {"type": "implicit_midpoint"},
    "bodies": [{"name": "beam", "generator": {"type": "rectangle", "size": [4.0, 0.5], "resolution": [8, 2]},
                "material": {"E": 1e6, "nu": 0.3, "density": 1000},
                "fixed": [{"box": [[-2.01, -1], [-1.99, 1]]}]}],
    "output": {"every": 1, "formats": ["vtu"]}
  })json"_json;
  j["bodies"][0]["generator"]["resolution"][0] = nx;
  return j;
}

fs::path write_json(const fs::path& path, const nlohmann::json& json) {
  std::ofstream(path) << json.dump(2);
  return path;
}

TEST(Reduce, WritesModesAscending) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("reduce_modes");
  const fs::path scene = write_json(tmp.path() / "beam.json", cantilever(8));
  const Result r = run_tool({"reduce", scene.string(), "--size", "4", "--out", (tmp.path() / "m.json").string()}, tmp.path());
  ASSERT_TRUE(r.exited) << r;
  ASSERT_EQ(r.code, 0) << r;
  const nlohmann::json basis = read_json(tmp.path() / "m.json");
  EXPECT_EQ(basis["kind"], "modes");
  EXPECT_EQ(basis["num_vertices"], 27);
  ASSERT_EQ(basis["columns"].size(), 4u);
  EXPECT_EQ(basis["columns"][0].size(), 54u);
  for (int j = 1; j < 4; ++j) EXPECT_GT(basis["values"][j].get<double>(), basis["values"][j - 1].get<double>());
}

TEST(Reduce, PodOfARunDrivesAReducedRun) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("reduce_pod");
  const fs::path scene = write_json(tmp.path() / "beam.json", cantilever(8));
  Result r = run_tool({"run", scene.string(), "--out", (tmp.path() / "full").string(), "--quiet"}, tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  r = run_tool({"reduce", scene.string(), "--body", "beam", "--basis", "pod", "--size", "6", "--snapshots",
                (tmp.path() / "full").string(), "--out", (tmp.path() / "pod.json").string()},
               tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("pod basis of body \"beam\", 6 columns"), std::string::npos) << r;
  nlohmann::json reduced = cantilever(8);
  reduced["bodies"][0]["reduction"] = {{"file", "pod.json"}};  // relative to the scene
  const fs::path reduced_scene = write_json(tmp.path() / "reduced.json", reduced);
  r = run_tool({"run", reduced_scene.string(), "--out", (tmp.path() / "reduced").string(), "--quiet"}, tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(read_json(tmp.path() / "reduced" / "summary.json")["status"], "ok");
}

// The stored cubature is the one a scene fits at load time with the same options: a run that
// names the file writes the same frames, byte for byte, as a run that fits it.
TEST(Reduce, CubatureStoredWithTheBasisIsUsedByTheScene) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("reduce_cubature");
  const fs::path scene = write_json(tmp.path() / "beam.json", cantilever(8));
  Result r = run_tool({"reduce", scene.string(), "--size", "4", "--cubature", "10", "--out",
                       (tmp.path() / "fitted.json").string()},
                      tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("of 32 elements"), std::string::npos) << r;
  const nlohmann::json file = read_json(tmp.path() / "fitted.json");
  ASSERT_TRUE(file.contains("cubature")) << file.dump();
  EXPECT_EQ(file["cubature"]["num_elements"], 32);
  EXPECT_GE(file["cubature"]["elements"].size(), 1u);
  EXPECT_LE(file["cubature"]["elements"].size(), 10u);
  r = run_tool({"reduce", scene.string(), "--size", "4", "--out", (tmp.path() / "plain.json").string()}, tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_FALSE(read_json(tmp.path() / "plain.json").contains("cubature"));

  nlohmann::json stored = cantilever(8), fitted = cantilever(8);
  stored["bodies"][0]["reduction"] = {{"file", "fitted.json"}};
  fitted["bodies"][0]["reduction"] = {{"file", "plain.json"}, {"cubature", {{"elements", 10}}}};
  for (const auto& [name, json] : {std::pair{"stored", stored}, std::pair{"fitted", fitted}}) {
    r = run_tool({"run", write_json(tmp.path() / (std::string(name) + ".json"), json).string(), "--out",
                  (tmp.path() / name).string(), "--quiet"},
                 tmp.path());
    ASSERT_EQ(r.code, 0) << r;
  }
  std::ifstream a(tmp.path() / "stored" / "frames" / "frame_00020.vtu"), b(tmp.path() / "fitted" / "frames" / "frame_00020.vtu");
  const std::string sa((std::istreambuf_iterator<char>(a)), {}), sb((std::istreambuf_iterator<char>(b)), {});
  ASSERT_FALSE(sa.empty());
  EXPECT_EQ(sa, sb) << "the stored cubature ran differently from the one fitted at load";

  // A cubature of a finer beam's mesh is refused where the scene names the file.
  const fs::path finer = write_json(tmp.path() / "finer.json", cantilever(12));
  r = run_tool({"reduce", finer.string(), "--size", "4", "--cubature", "10", "--out",
                (tmp.path() / "finer_basis.json").string()},
               tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  nlohmann::json foreign = read_json(tmp.path() / "finer_basis.json");
  nlohmann::json ours = file;
  ours["cubature"] = foreign["cubature"];
  write_json(tmp.path() / "foreign.json", ours);
  nlohmann::json uses_foreign = cantilever(8);
  uses_foreign["bodies"][0]["reduction"] = {{"file", "foreign.json"}};
  r = run_tool({"run", write_json(tmp.path() / "uses_foreign.json", uses_foreign).string(), "--out",
                (tmp.path() / "foreign_run").string(), "--quiet"},
               tmp.path());
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("bodies[0].reduction.file: the cubature was fitted on a mesh of 48 elements; body \"beam\" "
                       "has 32"),
            std::string::npos)
      << r;
}

TEST(Reduce, RefusesWrongBodyMissingSnapshotsAndForeignFrames) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("reduce_bad");
  const fs::path scene = write_json(tmp.path() / "beam.json", cantilever(8));
  const std::string out = (tmp.path() / "b.json").string();
  Result r = run_tool({"reduce", scene.string(), "--body", "nope", "--out", out}, tmp.path());
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("no body is named \"nope\""), std::string::npos) << r;
  r = run_tool({"reduce", scene.string(), "--basis", "pod", "--out", out}, tmp.path());
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("--snapshots"), std::string::npos) << r;
  // Frames of a finer beam are not snapshots of this one.
  const fs::path finer = write_json(tmp.path() / "finer.json", cantilever(12));
  r = run_tool({"run", finer.string(), "--out", (tmp.path() / "finer").string(), "--quiet", "--steps", "2"}, tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  r = run_tool({"reduce", scene.string(), "--basis", "pod", "--snapshots", (tmp.path() / "finer").string(), "--out", out},
               tmp.path());
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("frame_00000.vtu: 39 points, but body \"beam\" has 27 vertices"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace softsim_cli_test
