// Running a position-based fluid scene (sim/pbf_run.hpp, through sim/particle_run.hpp): frames
// with velocity and density every output.every steps and at the end, stats.csv with the density
// error, summary.json; a run continued from its checkpoint ends bit for bit where an unbroken one
// does.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "softsim/io/vtu.hpp"
#include "softsim/scene/pbf_scene.hpp"
#include "softsim/sim/checkpoint.hpp"
#include "softsim/sim/pbf_run.hpp"
#include "support/temp_dir.hpp"
#include "support/text_lines.hpp"

namespace softsim {
namespace {

nlohmann::json small_dam() {
  return R"json({
    "dim": 2, "gravity": [0, -9.81], "time": {"dt": 0.005, "steps": 12}, "output": {"every": 5, "checkpoint_every": 100},
    "pbf": {
      "tank": {"min": [0, 0], "max": [0.6, 0.4]},
      "spacing": 0.025, "vorticity": 0.1,
      "fluids": [{"box": {"min": [0, 0], "max": [0.2, 0.3]}}]
    }
  })json"_json;
}

TEST(PbfRun, WritesFramesStatsAndSummary) {
  test::TempDir dir("pbf_run");
  RunOptions options;
  options.out_dir = dir.path();
  options.quiet = true;
  const RunReport report = run_pbf(parse_pbf_scene(small_dam(), "dam.json"), options);
  ASSERT_EQ(report.status, RunStatus::Ok) << report.message;
  for (int step : {0, 5, 10, 12}) {
    const auto frame = dir.path() / "frames" / fmt::format("particles_{:05d}.vtu", step);
    ASSERT_TRUE(std::filesystem::exists(frame)) << frame;
    EXPECT_EQ(read_vtu_points(frame).rows(), 8 * 12);
  }
  std::stringstream text;
  text << std::ifstream(dir.path() / "frames" / "particles_00012.vtu").rdbuf();
  for (const char* field : {"\"velocity\"", "\"density\""}) EXPECT_NE(text.str().find(field), std::string::npos);
  const std::vector<std::string> stats = test::file_lines(dir.path() / "stats.csv");
  ASSERT_EQ(stats.size(), 13u);
  EXPECT_NE(stats.front().find(",density_error_mean,density_error_max"), std::string::npos) << stats.front();
  std::ifstream summary_file(dir.path() / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["method"], "pbf");
  EXPECT_EQ(summary["status"], "ok");
  EXPECT_EQ(summary["particles"], 96);
  EXPECT_LT(summary["density_error_mean"].get<double>(), 0.02);
}

TEST(PbfRun, AResumedRunEndsBitForBitWhereAnUnbrokenOneDoes) {
  test::TempDir straight("pbf_straight"), broken("pbf_broken");
  const PbfScene scene = parse_pbf_scene(small_dam(), "dam.json");
  RunOptions options;
  options.quiet = true;
  options.out_dir = straight.path();
  ASSERT_EQ(run_pbf(scene, options).status, RunStatus::Ok);
  options.out_dir = broken.path();
  options.steps = 7;
  ASSERT_EQ(run_pbf(scene, options).status, RunStatus::Ok);
  options.steps = 12;
  options.resume = true;
  const RunReport resumed = run_pbf(scene, options);
  ASSERT_EQ(resumed.status, RunStatus::Ok) << resumed.message;
  const Checkpoint a = read_checkpoint(checkpoint_path(straight.path()));
  const Checkpoint b = read_checkpoint(checkpoint_path(broken.path()));
  EXPECT_EQ(b.step, 12);
  EXPECT_TRUE(a.stepper_bytes == b.stepper_bytes) << "the particles differ after the resume";
  const std::filesystem::path last = std::filesystem::path("frames") / "particles_00012.vtu";
  EXPECT_EQ(test::file_lines(straight.path() / last), test::file_lines(broken.path() / last));
}

}  // namespace
}  // namespace softsim
