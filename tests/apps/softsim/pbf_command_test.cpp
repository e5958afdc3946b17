// `softsim run` and `softsim check` on position-based fluid scenes (docs/pbf.md): both example
// scenes pass check and run, writing particle frames and the density error; bad PBF input is one
// line naming the file and key, exit code 2, with nothing written.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/softsim/cli_support.hpp"
#include "support/temp_dir.hpp"

namespace softsim_cli_test {
namespace {

using softsim::test::TempDir;

TEST(PbfCommand, ChecksAndRunsTheExampleScenes) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("pbf_cli");
  for (const char* name : {"pbf_dam_break.json", "pbf_dam_break_3d.json"}) {
    SCOPED_TRACE(name);
    const fs::path scene = fs::path(SOFTSIM_SOURCE_DIR) / "scenes" / name;
    const Result check = run_tool({"check", scene.string()}, tmp.path());
    ASSERT_EQ(check.code, 0) << check;
    EXPECT_NE(check.out.find("ok (PBF"), std::string::npos) << check;
    const fs::path out = tmp.path() / name;
    const Result r = run_tool({"run", scene.string(), "--steps", "10", "--out", out.string(), "--quiet"}, tmp.path());
    ASSERT_EQ(r.code, 0) << r;
    EXPECT_TRUE(fs::exists(out / "frames" / "particles_00010.vtu"));
    EXPECT_EQ(lines_of(read_text(out / "stats.csv")).size(), 11u);
    const nlohmann::json summary = nlohmann::json::parse(read_text(out / "summary.json"));
    EXPECT_EQ(summary["status"], "ok");
    EXPECT_EQ(summary["method"], "pbf");
    EXPECT_LT(summary["density_error_mean"].get<double>(), 0.01);
  }
}

TEST(PbfCommand, BadInputIsOneLineNamingTheKeyAndWritesNothing) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("pbf_bad");
  const fs::path scene = tmp.path() / "bad.json", out = tmp.path() / "out";
  {
    std::ofstream f(scene);
    f << R"json({"dim": 2, "pbf": {"tank": {"min": [0, 0], "max": [1, 1]}, "spacing": 0.05,
      "fluids": [{"box": {"min": [0, 0], "max": [0.5, 1.5]}}]}})json";
  }
  for (const char* command : {"check", "run"}) {
    const Result r = command == std::string("run")
                         ? run_tool({"run", scene.string(), "--out", out.string()}, tmp.path())
                         : run_tool({"check", scene.string()}, tmp.path());
    EXPECT_EQ(r.code, 2) << r;
    EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r;
    EXPECT_NE(r.err.find("pbf.fluids[0].box"), std::string::npos) << r;
  }
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace softsim_cli_test
