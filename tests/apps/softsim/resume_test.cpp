// `softsim run --resume`: a run killed without warning (SIGKILL, as a power loss would) at a
// random step and continued from its last checkpoint ends bitwise where the uninterrupted run
// ends, with the same statistics table and frames.
#include <signal.h>

#include <random>
#include <thread>

#include "apps/softsim/cli_support.hpp"
#include "softsim/sim/checkpoint.hpp"
#include "support/run_comparison.hpp"
#include "support/small_scenes.hpp"

namespace softsim_cli_test {
namespace {

TEST(Resume, AfterSigkillAtARandomStepEndsBitwiseWhereTheUninterruptedRunEnds) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("resume_sigkill");
  // Two boxes in IPC contact with lagged friction, backward Euler, checkpoints every 3 steps.
  constexpr int kSteps = 120;
  nlohmann::json scene;
  for (const auto& s : softsim::test::small_scenes())
    if (s.name == "ipc_lagged") scene = s.json;
  scene["time"]["steps"] = kSteps;
  scene["output"] = {{"checkpoint_every", 3}, {"every", 5}};
  const fs::path scene_file = tmp.path() / "scene.json";
  std::ofstream(scene_file) << scene.dump(2);

  std::random_device seed;
  const int kill_after = std::uniform_int_distribution<int>(4, 60)(seed);
  SCOPED_TRACE("killed once stats.csv held " + std::to_string(kill_after) + " steps");
  const fs::path out = tmp.path() / "killed", log = tmp.path() / "killed.log";
  const pid_t pid =
      start_tool({"run", scene_file.string(), "--out", out.string(), "--threads", "1", "--quiet"}, log);
  ASSERT_GE(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool reached = false;
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(out / "stats.csv") && lines_of(read_text(out / "stats.csv")).size() >= kill_after + 1u) {
      reached = true;
      break;
    }
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) FAIL() << "softsim ended before it was killed:\n" << read_text(log);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(reached) << "the run did not reach step " << kill_after << " within 60 s:\n" << read_text(log);
  const int checkpointed = softsim::read_checkpoint(softsim::checkpoint_path(out)).step;
  EXPECT_GE(checkpointed, 3);
  EXPECT_EQ(checkpointed % 3, 0);

  // Continued without naming the scene: the checkpoint knows it.
  const Result resumed = run_tool({"run", "--resume", out.string(), "--threads", "1", "--quiet"}, tmp.path());
  ASSERT_TRUE(resumed.exited) << resumed;
  ASSERT_EQ(resumed.code, 0) << resumed;
  const fs::path straight = tmp.path() / "straight";
  const Result whole =
      run_tool({"run", scene_file.string(), "--out", straight.string(), "--threads", "1", "--quiet"}, tmp.path());
  ASSERT_TRUE(whole.exited) << whole;
  ASSERT_EQ(whole.code, 0) << whole;

  softsim::test::expect_same_checkpointed_state(straight, out, kSteps);
  EXPECT_EQ(read_text(straight / "frames" / "simulation.pvd"), read_text(out / "frames" / "simulation.pvd"));
  const std::string last = "frame_" + std::string(5 - std::to_string(kSteps).size(), '0') + std::to_string(kSteps);
  EXPECT_EQ(read_text(straight / "frames" / (last + ".vtu")), read_text(out / "frames" / (last + ".vtu")));
  const std::string summary = read_text(out / "summary.json");
  EXPECT_NE(summary.find("\"status\": \"ok\""), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"steps_done\": " + std::to_string(kSteps)), std::string::npos) << summary;
}

TEST(Resume, WithoutACheckpointIsBadInputNamingTheFile) {
  SOFTSIM_REQUIRE_TOOL();
  TempDir tmp("resume_missing");
  const Result r = run_tool({"run", "--resume", tmp.path().string()}, tmp.path());
  ASSERT_TRUE(r.exited) << r;
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("checkpoint.bin: no checkpoint to resume from"), std::string::npos) << r;
  const Result both = run_tool({"run", "--resume", tmp.path().string(), "--out", "x"}, tmp.path());
  EXPECT_EQ(both.code, 2) << both;  // --resume names the output folder: --out is refused beside it
}

}  // namespace
}  // namespace softsim_cli_test
