// Simulation, the run loop one step at a time: driven step by step it ends where run_simulation
// ends, bit for bit; its state keeps its buffers across steps (views stay valid); without an
// output folder it writes nothing; interrupt() ends the run with a checkpoint as Ctrl-C does.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/sim/checkpoint.hpp"
#include "softsim/sim/simulation.hpp"
#include "softsim/sim/steering.hpp"
#include "support/temp_dir.hpp"

namespace softsim {
namespace {

// A box dropped on the ground with IPC contact and friction, BDF2 (history carried by the stepper).
nlohmann::json drop_scene() {
  return R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 12},
    "integrator": {"type": "bdf2"},
    "bodies": [{"name": "box", "generator": {"type": "box", "size": [0.1, 0.1, 0.1], "resolution": [2, 2, 2]},
                "transform": {"translate": [0, 0.052, 0]}, "initial_velocity": [0.3, 0, 0],
                "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000}}],
    "obstacles": [{"type": "plane", "name": "ground"}],
    "contact": {"dhat": 0.002, "friction": {"mu": 0.5}},
    "output": {"every": 4, "formats": ["vtu"]}
  })json"_json;
}

TEST(Simulation, StepByStepEqualsTheWholeRunAndKeepsItsBuffers) {
  const Scene scene = parse_scene(drop_scene(), "drop.json");
  const Model model = build_model(scene);
  test::TempDir dir("simulation_step_by_step");
  RunOptions options;
  options.out_dir = dir.path() / "whole";
  options.quiet = true;
  {
    nlohmann::json j = drop_scene();
    j["output"]["checkpoint_every"] = 12;  // the final state, to compare with
    const Scene with_checkpoint = parse_scene(j, "drop.json");
    const Model m = build_model(with_checkpoint);
    ASSERT_EQ(run_simulation(with_checkpoint, m, options).status, RunStatus::Ok);
  }
  const State whole = read_checkpoint(checkpoint_path(options.out_dir)).state;

  options.out_dir.clear();  // nothing written
  Simulation sim(scene, model, options);
  const double* x = sim.state().x.data();
  const double* v = sim.state().v.data();
  int steps = 0;
  while (sim.step()) ++steps;
  ++steps;  // the last step returns false
  EXPECT_EQ(steps, 12);
  EXPECT_EQ(sim.last().step, 12);
  EXPECT_TRUE(sim.last().converged);
  EXPECT_LT(sim.last().min_distance, 0.002);
  EXPECT_EQ(sim.state().x.data(), x) << "the state's buffers moved";
  EXPECT_EQ(sim.state().v.data(), v);
  EXPECT_FALSE(sim.running());
  EXPECT_EQ(sim.finish().steps_done, 12);
  EXPECT_EQ(sim.state().x, whole.x);
  EXPECT_EQ(sim.state().v, whole.v);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "whole" / "frames" / "frame_00012.vtu"));
}

TEST(Simulation, WithoutAnOutputFolderNothingIsWritten) {
  const Scene scene = parse_scene(drop_scene(), "drop.json");
  const Model model = build_model(scene);
  test::TempDir dir("simulation_no_output");
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  RunOptions options;
  options.out_dir.clear();
  options.quiet = true;
  Simulation sim(scene, model, options);
  sim.step();
  sim.write_frame();
  sim.interrupt();
  sim.finish();
  std::filesystem::current_path(cwd);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  EXPECT_EQ(sim.report().status, RunStatus::Interrupted);
  EXPECT_EQ(sim.report().message, "interrupted after step 1");
}

TEST(Simulation, InterruptWritesACheckpointThatResumesBitwise) {
  const Scene scene = parse_scene(drop_scene(), "drop.json");
  const Model model = build_model(scene);
  test::TempDir dir("simulation_interrupt");
  RunOptions options;
  options.out_dir = dir.path();
  options.quiet = true;
  {
    Simulation sim(scene, model, options);
    for (int k = 0; k < 5; ++k) ASSERT_TRUE(sim.step());
    sim.interrupt();
    EXPECT_FALSE(sim.step());
    const RunReport r = sim.finish();
    EXPECT_EQ(r.status, RunStatus::Interrupted);
    EXPECT_EQ(r.steps_done, 5);
  }
  EXPECT_EQ(read_checkpoint(checkpoint_path(dir.path())).step, 5);
  options.resume = true;
  Simulation resumed(scene, model, options);
  EXPECT_EQ(resumed.last().step, 5);
  while (resumed.step()) {
  }
  RunOptions plain;
  plain.out_dir.clear();
  plain.quiet = true;
  Simulation whole(scene, model, plain);
  while (whole.step()) {
  }
  EXPECT_EQ(resumed.state().x, whole.state().x);
  EXPECT_EQ(resumed.state().v, whole.state().v);
}

TEST(Steering, MotionsAndObstaclesByNameWithClearMessages) {
  nlohmann::json j = drop_scene();
  j["bodies"][0]["fixed"] = R"([{"box": [[-1, 0.1, -1], [1, 1, 1]]}])"_json;
  const Scene scene = parse_scene(j, "drop.json");
  Model model = build_model(scene);
  EXPECT_EQ(motion_labels(model), std::vector<std::string>{"bodies[0].fixed[0]"});
  steer_motion(model, "bodies[0].fixed[0]", 0.0, 0.1, Vec3(0, 0.01, 0));
  EXPECT_LT((motion_offset(model, "bodies[0].fixed[0]", 0.05) - Vec3(0, 0.005, 0)).norm(), 1e-15);
  try {
    steer_motion(model, "bodies[0].fixed[3]", 0.0, 0.1, Vec3::Zero());
    ADD_FAILURE() << "no throw";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "no prescribed motion \"bodies[0].fixed[3]\" (the scene's are: bodies[0].fixed[0])");
  }
  EXPECT_THROW(steer_motion(model, "bodies[0].fixed[0]", 0.0, 0.1, Vec2::Zero()), InputError);
  EXPECT_THROW(steer_motion(model, "bodies[0].fixed[0]", 0.1, 0.1, Vec3::Zero()), InputError);
  EXPECT_TRUE(moving_obstacle_names(model).empty());
  try {
    set_obstacle_velocity(model, "ground", Vec3::Zero());
    ADD_FAILURE() << "no throw";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "no moving mesh obstacle \"ground\" (the scene's are: none)");
  }
}

}  // namespace
}  // namespace softsim
