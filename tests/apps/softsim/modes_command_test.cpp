// softsim analyze modes (apps/softsim/modes_command.cpp) and the exponential integrators from the
// command line: the CSV of eigenvalues, one VTU per mode, the spectrum plot; a run with siere that
// reports the subspace size per step; contact with an exponential integrator refused with the key.
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/softsim/cli_support.hpp"

namespace softsim_cli_test {
namespace {

nlohmann::json tiny_box() {
  std::ifstream in(data_dir() / "scenes" / "tiny_box.json");
  return nlohmann::json::parse(in);
}

fs::path write_scene(const fs::path& dir, const nlohmann::json& scene) {
  const fs::path path = dir / "scene.json";
  std::ofstream(path) << scene.dump(2);
  return path;
}

TEST(AnalyzeModes, WritesEigenvaluesShapesAndPlot) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("modes");
  const fs::path scene = write_scene(tmp.path(), tiny_box());
  const fs::path out = tmp.path() / "modes";
  const Result r = run_tool({"analyze", "modes", scene.string(), "--count", "5", "--out", out.string(), "--plot",
                             (tmp.path() / "spectrum.svg").string()},
                            tmp.path());
  ASSERT_TRUE(r.exited) << r;
  ASSERT_EQ(r.code, 0) << r;
  const auto rows = lines_of(read_text(out / "modes.csv"));
  ASSERT_EQ(rows.size(), 6u) << read_text(out / "modes.csv");
  EXPECT_EQ(rows[0], "mode,eigenvalue,omega,frequency_hz");
  double previous = 0.0;
  for (int j = 1; j <= 5; ++j) {
    const std::string& row = rows[j];
    const double lambda = std::stod(row.substr(row.find(',') + 1));
    EXPECT_GT(lambda, previous) << row << ": a clamped box has positive, ascending eigenvalues";
    previous = lambda;
    EXPECT_TRUE(fs::exists(out / ("mode_00" + std::to_string(j) + "_box.vtu"))) << j;
  }
  EXPECT_EQ(lines_of(r.out).size(), 6u) << "the CSV also goes to stdout\n" << r;
  EXPECT_NE(read_text(tmp.path() / "spectrum.svg").find("<circle"), std::string::npos);
}

TEST(AnalyzeModes, MissingSceneExitsTwo) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("modes_missing");
  const Result r = run_tool({"analyze", "modes", (tmp.path() / "nope.json").string()}, tmp.path());
  ASSERT_TRUE(r.exited) << r;
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("nope.json"), std::string::npos) << r;
}

TEST(ExponentialRun, SiereReportsTheSubspaceSizePerStep) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("siere");
  nlohmann::json scene = tiny_box();
  scene["integrator"] = {{"type", "siere"}, {"modes", 4}};
  const fs::path out = tmp.path() / "out";
  const Result r = run_tool({"run", write_scene(tmp.path(), scene).string(), "--out", out.string(), "--quiet"}, tmp.path());
  ASSERT_TRUE(r.exited) << r;
  ASSERT_EQ(r.code, 0) << r;
  const auto stats = lines_of(read_text(out / "stats.csv"));
  ASSERT_EQ(stats.size(), 4u);
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(stats[i].substr(stats[i].rfind(',') + 1), "8") << stats[i];
}

TEST(ExponentialRun, ContactIsRefusedNamingTheKey) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("ere_contact");
  nlohmann::json scene = tiny_box();
  scene["integrator"] = {{"type", "ere"}};
  scene["contact"] = {{"enabled", true}};
  const Result r = run_tool({"run", write_scene(tmp.path(), scene).string(), "--out", (tmp.path() / "out").string()},
                            tmp.path());
  ASSERT_TRUE(r.exited) << r;
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("integrator.type"), std::string::npos) << r;
  EXPECT_NE(r.err.find("scene.json"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(tmp.path() / "out" / "stats.csv")) << "nothing is written for a refused scene";
}

}  // namespace
}  // namespace softsim_cli_test
