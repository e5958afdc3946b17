// `softsim run` and `softsim check` on MPM scenes (docs/mpm.md): an example scene runs and writes
// particle frames; bad MPM input is one line naming the file and key, exit code 2; Ctrl-C stops
// a run with exit 130 after a checkpoint, which --resume continues (without naming the scene).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

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

  // Without output.checkpoint_every a finished run keeps no checkpoint (as a FEM run): --resume
  // says so.
  const Result resumed = run_tool({"run", scene.string(), "--resume", out.string(), "--steps", "65"}, tmp.path());
  ASSERT_TRUE(resumed.exited) << resumed;
  EXPECT_EQ(resumed.code, 2) << resumed;
  EXPECT_NE(resumed.err.find("no checkpoint"), std::string::npos) << resumed;
}

TEST(MpmCommand, ANewRunOfAnotherMethodDropsTheCheckpointItFinds) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("mpm_then_fem");
  const fs::path out = tmp.path() / "out", scene = tmp.path() / "mpm.json";
  {
    std::ofstream f(scene);
    f << R"json({"dim": 2, "time": {"dt": 1e-4, "steps": 3}, "output": {"checkpoint_every": 3},
      "mpm": {"grid": {"cells": [16, 16], "spacing": 0.0625}, "materials": [{}],
              "bodies": [{"box": {"min": [0.3, 0.3], "max": [0.7, 0.7]}}]}})json";
  }
  ASSERT_EQ(run_tool({"run", scene.string(), "--out", out.string(), "--quiet"}, tmp.path()).code, 0);
  ASSERT_TRUE(fs::exists(out / "checkpoint.bin"));
  // A FEM run in the same folder: the MPM checkpoint is not its own, and --resume must not
  // continue the MPM run over the FEM outputs.
  const fs::path fem = data_dir() / "scenes" / "tiny_box.json";
  const Result r = run_tool({"run", fem.string(), "--out", out.string(), "--steps", "2", "--quiet"}, tmp.path());
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_FALSE(fs::exists(out / "checkpoint.bin"));
  const Result resumed = run_tool({"run", "--resume", out.string(), "--steps", "4"}, tmp.path());
  EXPECT_EQ(resumed.code, 2) << resumed;
  EXPECT_NE(resumed.err.find("no checkpoint"), std::string::npos) << resumed;
}

TEST(MpmCommand, CtrlCStopsAfterACheckpointAndResumeContinues) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("mpm_sigint");
  const fs::path scene = tmp.path() / "long.json", out = tmp.path() / "out";
  {
    std::ofstream f(scene);
    f << R"json({"dim": 2, "time": {"dt": 1e-4, "steps": 10000000},
      "mpm": {"grid": {"cells": [64, 64], "spacing": 0.015625}, "materials": [{"E": 1e4}], "damping": 1,
              "bodies": [{"box": {"min": [0.3, 0.3], "max": [0.7, 0.7]}}]}})json";
  }
  const std::string log = (tmp.path() / "stderr.txt").string();
  const pid_t pid = start_tool({"run", scene.string(), "--out", out.string(), "--threads", "1", "--quiet"}, log);
  ASSERT_GE(pid, 0);
  const Interruption stop = interrupt_when(
      pid, [&] { return fs::exists(out / "stats.csv") && lines_of(read_text(out / "stats.csv")).size() >= 3; },
      std::chrono::seconds(30), std::chrono::seconds(20));
  ASSERT_FALSE(stop.ended_early) << "softsim ended before it was interrupted:\n" << read_text(log);
  ASSERT_TRUE(stop.stopped) << "softsim did not stop within 20 s of SIGINT";
  const int status = stop.status;
  ASSERT_TRUE(stop.started) << "the run did not start within 30 s:\n" << read_text(log);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130) << read_text(log);
  EXPECT_NE(read_text(log).find("softsim run --resume"), std::string::npos) << read_text(log);
  ASSERT_TRUE(fs::exists(out / "checkpoint.bin"));
  const nlohmann::json summary = nlohmann::json::parse(read_text(out / "summary.json"));
  EXPECT_EQ(summary["status"], "interrupted");
  const int done = summary["steps_done"].get<int>();
  EXPECT_EQ(lines_of(read_text(out / "stats.csv")).size(), done + 1u);

  // Continued without naming the scene: the checkpoint knows it.
  const Result resumed =
      run_tool({"run", "--resume", out.string(), "--steps", std::to_string(done + 3), "--quiet"}, tmp.path());
  ASSERT_TRUE(resumed.exited) << resumed;
  ASSERT_EQ(resumed.code, 0) << resumed;
  EXPECT_EQ(lines_of(read_text(out / "stats.csv")).size(), done + 4u);
  EXPECT_EQ(nlohmann::json::parse(read_text(out / "summary.json"))["status"], "ok");
}

TEST(MpmCommand, EveryExampleMpmSceneChecksOk) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("mpm_examples");
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(SOFTSIM_SOURCE_DIR) / "scenes")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("mpm_", 0) != 0 || entry.path().extension() != ".json") continue;
    const Result r = run_tool({"check", entry.path().string()}, tmp.path());
    ASSERT_TRUE(r.exited) << r;
    EXPECT_EQ(r.code, 0) << name << ": " << r;
    EXPECT_NE(r.out.find("ok (MPM"), std::string::npos) << name << ": " << r;
    ++checked;
  }
  EXPECT_GE(checked, 4);
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
