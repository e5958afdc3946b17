// Ball in a box (Larionov et al. 2022, §5.1.3): a spinning ball bouncing inside a closed elastic box on
// the ground, fully implicit friction (mu = 0.1), the coupled trapezoidal rule at h = 0.01 s for
// 800 steps, on a coarser mesh than scenes/ball_in_box.json (box 4^3 cells, ball resolution 2).
// Nothing blows up: every step converges (some after a cutback), nothing ever intersects, the
// total energy never rises and the motion dies out.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/contact_scene.hpp"

namespace softsim::test {
namespace {

TEST(BallInBox, CoupledTrapezoidalRuleDissipatesAndNeverBlowsUp) {
  const std::filesystem::path file = scene_file("ball_in_box.json");
  nlohmann::json j = read_scene_json(file);
  j["bodies"][0]["generator"]["resolution"] = {4, 4, 4};
  j["bodies"][1]["generator"]["resolution"] = 2;
  j["bodies"][1]["generator"]["radius"] = 0.05;
  const Scene scene = parse_scene(j, file);
  ASSERT_EQ(scene.steps, 800);
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  // Kinetic plus potential energy, the barrier's at the run's stiffness (none before the first step).
  auto energy = [&](const ModelData& data) {
    return kinetic_energy(model, state.v) + model.potential(EvalContext{Stage(), data}, state.x, AssemblyOutputs{});
  };
  const double E0 = energy(ModelData(model));
  double E_prev = E0, worst_rise = -HUGE_VAL, peak_kinetic = 0.0;
  int cut_back = 0;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult& r, const Stepper& stepper) {
    const double E = energy(stepper.data());
    worst_rise = std::max(worst_rise, E - E_prev);
    E_prev = E;
    peak_kinetic = std::max(peak_kinetic, kinetic_energy(model, state.v));
    cut_back += r.substeps > 1;
  });
  print_stats("ball_in_box (coarse)", s);
  const double kinetic = kinetic_energy(model, state.v);
  std::printf("[ scene ] ball_in_box: energy %.3f -> %.3f J (largest rise in a step %.2e J), kinetic energy peak %.3g J, "
              "final %.3g J, %d steps cut back\n", E0, E_prev, worst_rise, peak_kinetic, kinetic, cut_back);
  EXPECT_EQ(s.steps, 800);
  EXPECT_EQ(s.failed_steps, 0);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_LT(worst_rise, 1e-6 * std::abs(E0));  // measured: no rise at all
  EXPECT_LT(E_prev, E0 - 20.0);                // measured: 32.1 J dissipated
  EXPECT_LT(kinetic, 1e-2 * peak_kinetic);     // measured: 4e-6 of the peak
}

}  // namespace
}  // namespace softsim::test
