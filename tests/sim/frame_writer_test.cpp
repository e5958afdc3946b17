// Output frames with analytic obstacles (sim/frame_writer.hpp): every analytic obstacle is a part
// of its own in simulation.pvd, frames/obstacles/<name>_<frame>.vtu, drawn at the frame's pose
// with the pose's velocity; a static one stays where it is; the .pvd lists one entry per part
// and frame; without .vtu output nothing of it is written.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "softsim/io/vtu.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/sim/simulation.hpp"
#include "support/temp_dir.hpp"

namespace softsim {
namespace {

// A 2D block on a lift (a plane moving up at 0.3 m/s) beside a static sphere (circle).
nlohmann::json lift_scene() {
  return R"json({
    "dim": 2, "time": {"dt": 0.005, "steps": 20}, "gravity": [0, -9.81],
    "bodies": [{"name": "block", "kind": "mass_spring",
                "generator": {"type": "spring_grid", "size": [0.2, 0.2], "resolution": [2, 2]},
                "transform": {"translate": [0, 0.101]},
                "material": {"density": 1000, "stiffness": 1e6}, "contact_area": 0.1}],
    "obstacles": [{"name": "lift", "type": "plane", "point": [0, 0], "normal": [0, 1], "velocity": [0, 0.3]},
                  {"name": "ball", "type": "sphere", "center": [2, 0], "radius": 0.5}],
    "contact": {"dhat": 0.002, "kappa": 1e6},
    "output": {"every": 10, "formats": ["vtu"]}
  })json"_json;
}

// Runs the scene to the end with its outputs in dir.
void run_into(const nlohmann::json& json, const std::filesystem::path& dir) {
  const Scene scene = parse_scene(json, "lift.json");
  const Model model = build_model(scene);
  RunOptions options;
  options.out_dir = dir;
  options.quiet = true;
  ASSERT_EQ(run_simulation(scene, model, options).status, RunStatus::Ok);
}

std::string text_of(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(FrameWriter, AnalyticObstaclesAreMovingPartsOfTheFrames) {
  test::TempDir dir("frame_writer_obstacles");
  run_into(lift_scene(), dir.path());
  const std::filesystem::path frames = dir.path() / "frames";
  for (const int frame : {0, 10, 20}) {
    const double t = 0.005 * frame;
    const auto lift = read_vtu_points(frames / "obstacles" / fmt::format("lift_{:05d}.vtu", frame));
    ASSERT_EQ(lift.rows(), 2);  // a segment of the plane y = 0.3 t
    for (int i = 0; i < 2; ++i) EXPECT_NEAR(lift(i, 1), 0.3 * t, 1e-12) << "frame " << frame;
    EXPECT_NEAR(std::abs(lift(1, 0) - lift(0, 0)), 3.0 * std::hypot(0.2, 0.2), 1e-12);  // 3x the block's rest diagonal
    const auto ball = read_vtu_points(frames / "obstacles" / fmt::format("ball_{:05d}.vtu", frame));
    ASSERT_GT(ball.rows(), 8);
    for (int i = 0; i < ball.rows(); ++i)
      EXPECT_NEAR(std::hypot(ball(i, 0) - 2.0, ball(i, 1)), 0.5, 1e-12) << "frame " << frame;
    EXPECT_TRUE(std::filesystem::exists(frames / fmt::format("frame_{:05d}.vtu", frame)));
  }
  // The pose's velocity rides along as point data.
  const std::string moving = text_of(frames / "obstacles" / "lift_00020.vtu");
  EXPECT_NE(moving.find("Name=\"velocity\""), std::string::npos);
  // One entry per part and frame: the block (part 0), the lift (1), the ball (2).
  const std::string pvd = text_of(frames / "simulation.pvd");
  for (const char* entry : {"part=\"0\" file=\"frame_00020.vtu\"", "part=\"1\" file=\"obstacles/lift_00020.vtu\"",
                            "part=\"2\" file=\"obstacles/ball_00020.vtu\""})
    EXPECT_NE(pvd.find(entry), std::string::npos) << entry << "\n" << pvd;
}

TEST(FrameWriter, WithoutVtuOutputNoObstacleFramesAreWritten) {
  nlohmann::json j = lift_scene();
  j["output"]["formats"] = {"obj"};
  test::TempDir dir("frame_writer_obj_only");
  run_into(j, dir.path());
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "frames" / "obstacles"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "frames" / "simulation.pvd"));
}

}  // namespace
}  // namespace softsim
