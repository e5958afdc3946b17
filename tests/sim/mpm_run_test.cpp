// Running an MPM scene (sim/mpm_run.hpp): the frames (VTU point clouds with velocity, plastic
// strain and J) every output.every steps and at the end, listed in simulation.pvd; one stats.csv
// row per step whose momentum is the solver's; summary.json; a particle leaving the grid ends the
// run as failed, with its message, and what was written before stays; a run continued from its
// checkpoint ends bit for bit where the run without a stop does, and a checkpoint of another
// scene is refused.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "softsim/core/errors.hpp"
#include "softsim/io/vtu.hpp"
#include "softsim/scene/mpm_scene.hpp"
#include "softsim/sim/checkpoint.hpp"
#include "softsim/sim/mpm_run.hpp"
#include "support/temp_dir.hpp"
#include "support/text_lines.hpp"

namespace softsim {
namespace {

nlohmann::json falling_block() {
  return R"json({
    "dim": 2, "gravity": [0, -9.81], "time": {"dt": 1e-3, "steps": 12}, "output": {"every": 5},
    "mpm": {
      "grid": {"origin": [0, 0], "cells": [16, 16], "spacing": 0.0625},
      "materials": [{"E": 1e4, "density": 500}],
      "bodies": [{"box": {"min": [0.4, 0.5], "max": [0.6, 0.7]}, "particles_per_cell": 4}]
    }
  })json"_json;
}

TEST(MpmRun, WritesFramesStatsAndSummary) {
  test::TempDir dir("mpm_run");
  RunOptions options;
  options.out_dir = dir.path();
  options.quiet = true;
  const MpmScene scene = parse_mpm_scene(falling_block(), "block.json");
  const RunReport report = run_mpm(scene, options);
  EXPECT_EQ(report.status, RunStatus::Ok);
  EXPECT_EQ(report.steps_done, 12);
  for (int step : {0, 5, 10, 12}) {
    const auto frame = dir.path() / "frames" / fmt::format("particles_{:05d}.vtu", step);
    ASSERT_TRUE(std::filesystem::exists(frame)) << frame;
    EXPECT_EQ(read_vtu_points(frame).rows(), 6 * 6);  // 0.2 m at a spacing of dx / 2
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "frames" / "particles_00006.vtu"));
  std::ifstream last_frame(dir.path() / "frames" / "particles_00012.vtu");
  std::stringstream text;
  text << last_frame.rdbuf();
  const std::string last = text.str();
  for (const char* field : {"\"velocity\"", "\"plastic_strain\"", "\"J\""}) EXPECT_NE(last.find(field), std::string::npos);
  int listed = 0;
  for (const std::string& line : test::file_lines(dir.path() / "frames" / "simulation.pvd"))
    listed += line.find("\"particles_") != std::string::npos;
  EXPECT_EQ(listed, 4);
  const std::vector<std::string> stats = test::file_lines(dir.path() / "stats.csv");
  ASSERT_EQ(stats.size(), 13u);  // header + 12 steps
  // Free fall inside the grid (no wall reached): momentum_y = -M g t after 12 steps.
  std::stringstream row(stats.back());
  std::vector<double> values;
  for (std::string cell; std::getline(row, cell, ',');) values.push_back(std::stod(cell));
  EXPECT_NEAR(values[4], -500 * 0.04 * 9.81 * 0.012, 1e-9);
  std::ifstream summary_file(dir.path() / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["status"], "ok");
  EXPECT_EQ(summary["method"], "mpm");
  EXPECT_EQ(summary["steps_done"], 12);
  EXPECT_EQ(summary["dim"], 2);
  EXPECT_TRUE(summary.contains("wall_time_s"));
  EXPECT_EQ(stats.front().rfind("step,t,kinetic,", 0), 0u) << stats.front();
}

TEST(MpmRun, AParticleLeavingTheGridFailsTheRunWithItsMessage) {
  test::TempDir dir("mpm_fail");
  nlohmann::json j = falling_block();
  j["mpm"]["walls"] = {{"nodes", 0}};
  j["mpm"]["bodies"][0]["velocity"] = {0, -80};  // leaves through the floor after 6 steps
  RunOptions options;
  options.out_dir = dir.path();
  options.quiet = true;
  const RunReport report = run_mpm(parse_mpm_scene(j, "block.json"), options);
  EXPECT_EQ(report.status, RunStatus::Failed);
  EXPECT_GT(report.steps_done, 0);
  EXPECT_LT(report.steps_done, 12);
  EXPECT_NE(report.message.find("outside the grid"), std::string::npos) << report.message;
  std::ifstream summary_file(dir.path() / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["status"], "failed");
  EXPECT_NE(summary["message"].get<std::string>().find("particle"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "frames" / "particles_00000.vtu"));
  // A failed run leaves no checkpoint: --resume is refused before anything runs.
  options.resume = true;
  EXPECT_THROW(run_mpm(parse_mpm_scene(j, "block.json"), options), InputError);
}

// A snow block thrown at the floor (it lands within the first steps), so that the velocities,
// the affine matrices C (APIC), F and the plastic state all carry over a resume.
nlohmann::json snow_landing(const char* transfer) {
  nlohmann::json j = falling_block();
  j["mpm"]["transfer"] = transfer;
  j["mpm"]["materials"][0]["plasticity"] = "snow";
  j["mpm"]["bodies"][0]["box"] = {{"min", {0.4, 0.13}}, {"max", {0.6, 0.33}}};
  j["mpm"]["bodies"][0]["velocity"] = {0.5, -3.0};
  j["output"]["checkpoint_every"] = 100;  // a checkpoint at the end of each run
  return j;
}

void expect_bit_for_bit_resume(const char* transfer) {
  SCOPED_TRACE(transfer);
  test::TempDir straight(std::string("mpm_straight_") + transfer), broken(std::string("mpm_broken_") + transfer);
  const nlohmann::json j = snow_landing(transfer);
  const MpmScene scene = parse_mpm_scene(j, "block.json");
  {  // The state a lost field would corrupt is there by the stop at step 7.
    MpmSolver<2> probe = build_mpm_solver<2>(scene);
    for (int s = 0; s < 7; ++s) probe.step(scene.dt);
    double plastic = 0.0, log_jp = 0.0, affine = 0.0;
    for (std::size_t i = 0; i < probe.particles().size(); ++i) {
      plastic = std::max(plastic, probe.particles().plastic_strain[i]);
      log_jp = std::min(log_jp, probe.particles().log_volume_correction[i]);
      affine = std::max(affine, probe.particles().C[i].norm());
    }
    EXPECT_GT(plastic, 1e-3);
    EXPECT_LT(log_jp, -1e-4);
    if (std::string(transfer) == "apic") EXPECT_GT(affine, 1.0);
  }
  RunOptions options;
  options.quiet = true;
  options.out_dir = straight.path();
  ASSERT_EQ(run_mpm(scene, options).status, RunStatus::Ok);
  options.out_dir = broken.path();
  options.steps = 7;
  ASSERT_EQ(run_mpm(scene, options).status, RunStatus::Ok);  // a checkpoint at its end, step 7
  options.steps = 12;
  options.resume = true;
  const RunReport resumed = run_mpm(scene, options);
  ASSERT_EQ(resumed.status, RunStatus::Ok) << resumed.message;
  EXPECT_EQ(resumed.steps_done, 12);
  const Checkpoint a = read_checkpoint(checkpoint_path(straight.path()));
  const Checkpoint b = read_checkpoint(checkpoint_path(broken.path()));
  EXPECT_EQ(a.step, 12);
  EXPECT_EQ(b.step, 12);
  EXPECT_TRUE(a.stepper_bytes == b.stepper_bytes) << "the particles differ after the resume";
  EXPECT_EQ(a.state.t, b.state.t);
  // The same rows in stats.csv (the first nine columns: all but the timings) and last frame.
  const auto rows_a = test::file_lines(straight.path() / "stats.csv"), rows_b = test::file_lines(broken.path() / "stats.csv");
  ASSERT_EQ(rows_a.size(), rows_b.size());
  auto physics = [](const std::string& row) {
    std::size_t at = 0;
    for (int comma = 0; comma < 9 && at != std::string::npos; ++comma) at = row.find(',', at + 1);
    return row.substr(0, at);
  };
  for (std::size_t r = 0; r < rows_a.size(); ++r) EXPECT_EQ(physics(rows_a[r]), physics(rows_b[r])) << "row " << r;
  const std::filesystem::path last = std::filesystem::path("frames") / "particles_00012.vtu";
  EXPECT_EQ(test::file_lines(straight.path() / last), test::file_lines(broken.path() / last));
  int listed = 0;  // 0, 5 and 7 (the first run's end), then 10 and 12
  for (const std::string& line : test::file_lines(broken.path() / "frames" / "simulation.pvd"))
    listed += line.find("\"particles_") != std::string::npos;
  EXPECT_EQ(listed, 5);

  // Another scene (here another material) refuses the checkpoint and leaves the outputs alone.
  nlohmann::json other = j;
  other["mpm"]["materials"][0]["E"] = 2e4;
  options.steps = 20;
  try {
    run_mpm(parse_mpm_scene(other, "block.json"), options);
    FAIL() << "a checkpoint of another scene was resumed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("another scene"), std::string::npos) << e.what();
  }
  EXPECT_EQ(test::file_lines(broken.path() / "stats.csv").size(), 13u);
  // Only the run's length may change: a longer continuation of the same scene goes on.
  options.steps = 15;
  EXPECT_EQ(run_mpm(scene, options).steps_done, 15);
  EXPECT_EQ(test::file_lines(broken.path() / "stats.csv").size(), 16u);
}

TEST(MpmRun, AResumedRunEndsBitForBitWhereAnUnbrokenOneDoes) {
  expect_bit_for_bit_resume("flip");
  expect_bit_for_bit_resume("apic");
}

}  // namespace
}  // namespace softsim
