// `softsim run` and `softsim check` on MPM scenes (docs/mpm.md): an example scene runs and writes
// particle frames; bad MPM input is one line naming the file and key, exit code 2; --resume is
// refused.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/softsim/cli_support.hpp"
#include "support/temp_dir.hpp"

namespace softsim_cli_test {
namespace {

using softsim::test::TempDir;

TEST(MpmCommand, RunsTheCollidingBlocksAndWritesParticleFrames) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("mpm_cli");
  const fs::path scene = fs::path(SOFTSIM_SOURCE_DIR) / "scenes" / "mpm_colliding_blocks.json";
  const fs::path out = tmp.path() / "out";
  const Result r = run_tool({"run", scene.string(), "--steps", "60", "--out", out.string(), "--quiet"}, tmp.path());
  ASSERT_TRUE(r.exited) << r;
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_TRUE(fs::exists(out / "frames" / "particles_00000.vtu"));
  EXPECT_TRUE(fs::exists(out / "frames" / "particles_00050.vtu"));
  EXPECT_TRUE(fs::exists(out / "frames" / "particles_00060.vtu"));
  EXPECT_EQ(lines_of(read_text(out / "stats.csv")).size(), 61u);
  const nlohmann::json summary = nlohmann::json::parse(read_text(out / "summary.json"));
  EXPECT_EQ(summary["status"], "ok");
  EXPECT_EQ(summary["particles"], 10368);

  const Result resumed = run_tool({"run", scene.string(), "--resume", out.string()}, tmp.path());
  ASSERT_TRUE(resumed.exited) << resumed;
  EXPECT_EQ(resumed.code, 2) << resumed;
  EXPECT_NE(resumed.err.find("checkpoints"), std::string::npos) << resumed;
}

TEST(MpmCommand, BadMpmInputIsOneLineAndExitTwo) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("mpm_bad");
  const fs::path scene = tmp.path() / "bad.json";
  {
    std::ofstream f(scene);
    f << R"({"dim": 2, "mpm": {"grid": {"cells": [16, 16], "spacing": 0.0625}, "transfer": "apic2",
             "materials": [{}], "bodies": [{"box": {"min": [0.4, 0.4], "max": [0.6, 0.6]}}]}})";
  }
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"run", scene.string(), "--out", (tmp.path() / "out").string()}, {"check", scene.string()}}) {
    const Result r = run_tool(args, tmp.path());
    ASSERT_TRUE(r.exited) << r;
    EXPECT_EQ(r.code, 2) << args[0] << r;
    EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r;
    EXPECT_NE(r.err.find("mpm.transfer"), std::string::npos) << r;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r;
  }
  EXPECT_FALSE(fs::exists(tmp.path() / "out" / "summary.json"));  // nothing written for bad input
}

}  // namespace
}  // namespace softsim_cli_test
