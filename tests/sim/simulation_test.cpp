// Simulation, the run loop one step at a time: driven step by step it ends where run_simulation
// ends, bit for bit; its state keeps its buffers across steps (views stay valid); without an
// output folder it writes nothing; interrupt() ends the run with a checkpoint as Ctrl-C does.
#include <gtest/gtest.h>

#include <filesystem>
#include <utility>
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

// A cantilever reduced to 8 modes + derivatives, its elasticity by cubature: stepped in its
// coordinates, so the run defers its positions (RunOptions::defer_positions).
nlohmann::json reduced_cantilever_scene() {
  return R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 30}, "gravity": [0, -9.81, 0],
    "bodies": [{"name": "beam", "generator": {"type": "box", "size": [1.0, 0.2, 0.2], "resolution": [6, 1, 1]},
                "fixed": [{"box": [[-0.51, -1, -1], [-0.49, 1, 1]]}],
                "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000},
                "reduction": {"basis": "modes+derivatives", "size": 8, "cubature": {"elements": 12}}}],
    "contact": {"enabled": false},
    "output": {"every": 10, "checkpoint_every": 30, "formats": ["vtu"]}
  })json"_json;
}

// Deferred positions change nothing a run reports: the stats' energies (taken in coordinates)
// and the state at every frame and at the end are those of a run that writes its positions every
// step, to round-off; state() brings them up to date between steps, and a change made through it
// is what the next step starts from.
TEST(Simulation, DeferredPositionsReportWhatEveryStepPositionsReport) {
  const Scene scene = parse_scene(reduced_cantilever_scene(), "reduced.json");
  const Model model = build_model(scene);
  test::TempDir dir("simulation_deferred");
  auto options = [&](const char* name, bool defer) {
    RunOptions o;
    o.out_dir = dir.path() / name;
    o.quiet = true;
    o.defer_positions = defer;
    return o;
  };
  Simulation deferred(scene, model, options("deferred", true));
  Simulation every_step(scene, model, options("every_step", false));
  double largest_sag = 0.0;
  for (int n = 1; n <= 30; ++n) {
    ASSERT_TRUE(deferred.step() || n == 30);
    ASSERT_TRUE(every_step.step() || n == 30);
    const StepStats &a = deferred.last(), &b = every_step.last();
    EXPECT_NEAR(a.kinetic, b.kinetic, 1e-12 * std::max(1.0, std::abs(b.kinetic))) << "step " << n;
    EXPECT_NEAR(a.potential, b.potential, 1e-12 * std::max(1.0, std::abs(b.potential))) << "step " << n;
    EXPECT_EQ(a.min_distance, b.min_distance);
    if (n % 7 == 0) {  // read between steps: up to date
      const State& sa = std::as_const(deferred).state();
      EXPECT_TRUE(sa.positions_current);
      EXPECT_LT((sa.x - every_step.state().x).lpNorm<Eigen::Infinity>(), 1e-12) << "step " << n;
      largest_sag = std::max(largest_sag, (sa.x - model.rest_positions).lpNorm<Eigen::Infinity>());
    }
  }
  EXPECT_GT(largest_sag, 1e-3);
  EXPECT_GT(deferred.last().kinetic, 0.0);
  deferred.finish();
  every_step.finish();
  const Checkpoint a = read_checkpoint(checkpoint_path(dir.path() / "deferred"));
  const Checkpoint b = read_checkpoint(checkpoint_path(dir.path() / "every_step"));
  EXPECT_LT((a.state.x - b.state.x).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT((a.state.v - b.state.v).lpNorm<Eigen::Infinity>(), 1e-10);
}

TEST(Simulation, AStateChangedBetweenDeferredStepsIsWhatTheNextStepReads) {
  nlohmann::json j = reduced_cantilever_scene();
  const Scene scene = parse_scene(j, "reduced.json");
  const Model model = build_model(scene);
  Simulation a(scene, model, RunOptions{.out_dir = {}, .quiet = true});
  Simulation b(scene, model, RunOptions{.out_dir = {}, .quiet = true, .defer_positions = false});
  for (int n = 0; n < 5; ++n) {
    a.step();
    b.step();
  }
  // Both thrown back to rest at the step-5 time: the next steps start from there.
  for (Simulation* s : {&a, &b}) {
    s->state().x = model.rest_positions;
    s->state().v.setZero();
  }
  for (int n = 0; n < 5; ++n) {
    a.step();
    b.step();
  }
  const VecX& xa = std::as_const(a).state().x;
  EXPECT_LT((xa - b.state().x).lpNorm<Eigen::Infinity>(), 1e-12);
  // And the same as 5 steps from rest at t = 0 (gravity is constant): the reset took effect.
  Simulation c(scene, model, RunOptions{.out_dir = {}, .quiet = true});
  for (int n = 0; n < 5; ++n) c.step();
  EXPECT_LT((xa - std::as_const(c).state().x).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_GT((xa - model.rest_positions).lpNorm<Eigen::Infinity>(), 1e-4);
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
