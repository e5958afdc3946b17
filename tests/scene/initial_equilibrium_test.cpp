// bodies[i].initial_equilibrium: a pressurised hollow ball starts inflated, in equilibrium, instead
// of in its stress-free shape, so nothing rings; the centre of mass does not move.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "support/evaluation.hpp"

namespace softsim {
namespace {

nlohmann::json pressurised_ball(bool equilibrium) {
  nlohmann::json j = R"json({
    "dim": 3, "time": {"dt": 0.001, "steps": 20}, "gravity": [0, 0, 0],
    "bodies": [{"name": "ball",
      "generator": {"type": "hollow_sphere", "radius": 0.05, "inner_radius": 0.04, "resolution": 2, "layers": 1},
      "transform": {"translate": [0.3, 1.0, -0.2]},
      "material": {"model": "neo_hookean", "E": 1e6, "nu": 0.45, "density": 1000},
      "volume_penalty": {"model": "ideal_gas", "pressure": 2, "region": "cavity"}}],
    "contact": {"enabled": false}
  })json"_json;
  j["bodies"][0]["initial_equilibrium"] = equilibrium;
  return j;
}

Vec3 centre(const Model& model, const VecX& x) {
  const std::vector<double> m = model.vertex_masses();
  Vec3 c = Vec3::Zero();
  double M = 0.0;
  for (int i = 0; i < model.num_vertices(); ++i) {
    c += m[i] * x.segment<3>(3 * i);
    M += m[i];
  }
  return c / M;
}

// Largest kinetic energy over the scene's 20 steps from its initial state.
double peak_kinetic_energy(Model& model, const Scene& scene) {
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double peak = 0.0;
  for (int n = 0; n < scene.steps; ++n) {
    EXPECT_TRUE(stepper->step(state, scene.dt).converged);
    peak = std::max(peak, kinetic_energy(model, state.v));
  }
  return peak;
}

TEST(InitialEquilibrium, PressurisedBallStartsInflatedAndAtRest) {
  const Scene free = parse_scene(pressurised_ball(false), "ball.json");
  const Scene settled = parse_scene(pressurised_ball(true), "ball.json");
  Model rest_model = build_model(free);
  Model model = build_model(settled);
  // The rest shape is the same; only the positions at t = 0 differ.
  VecX g_rest = VecX::Zero(model.num_dofs()), g = VecX::Zero(model.num_dofs());
  test::potential(rest_model, rest_model.rest_positions, AssemblyOutputs{&g_rest});
  test::potential(model, model.rest_positions, AssemblyOutputs{&g});
  const double pressure_force = g_rest.lpNorm<Eigen::Infinity>();
  std::printf("[ equilibrium ] largest nodal force at t = 0: %.3e N at rest shape, %.3e N settled; inflation %.3e m\n",
              pressure_force, g.lpNorm<Eigen::Infinity>(),
              (model.rest_positions - rest_model.rest_positions).lpNorm<Eigen::Infinity>());
  EXPECT_GT(pressure_force, 1.0);  // 1 atm gauge on the cavity: far from equilibrium
  EXPECT_LT(g.lpNorm<Eigen::Infinity>(), 1e-6 * pressure_force);
  // Inflated outwards: every vertex farther from the centre than in the rest shape.
  const Vec3 c0 = centre(rest_model, rest_model.rest_positions), c = centre(model, model.rest_positions);
  EXPECT_LT((c - c0).norm(), 1e-12);
  for (int i = 0; i < model.num_vertices(); ++i)
    EXPECT_GT((model.rest_positions.segment<3>(3 * i) - c).norm(),
              (rest_model.rest_positions.segment<3>(3 * i) - c0).norm());
  // Released: from the stress-free shape the ball rings in its breathing mode; settled, it stays.
  const double ringing = peak_kinetic_energy(rest_model, free), still = peak_kinetic_energy(model, settled);
  std::printf("[ equilibrium ] peak kinetic energy over 20 steps: %.3e J from rest shape, %.3e J settled\n", ringing,
              still);
  EXPECT_LT(still, 1e-8 * ringing);
}

TEST(InitialEquilibrium, WrongTypeNamesTheKey) {
  nlohmann::json j = pressurised_ball(true);
  j["bodies"][0]["initial_equilibrium"] = "yes";
  try {
    parse_scene(j, "ball.json");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bodies[0].initial_equilibrium"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softsim
