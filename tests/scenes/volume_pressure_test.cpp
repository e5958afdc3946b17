// Physical check of the volume penalty: a sealed elastic box filled with gas (or fluid), its
// bottom fixed, every other vertex sliding vertically, pressed by a traction t on its top. The
// static equilibrium has the penalty's gauge pressure -W'(V) equal to t (its nodal forces
// W'(V) dV/dy_i balance the traction's t A_f / 3 per face corner exactly, face by face), so V
// must be the one the law predicts for pressure t:
//   ideal gas V = V0 P0 / (P0 + t), quadratic V = V0 (1 - kappa_v t), nearly incompressible
//   V = V0 exp(-kappa_v t).
// The box's own elasticity (E = 1 Pa) adds at most E x strain ~ 0.5 Pa next to t = 50662.5 Pa:
// 1e-5 relative, so the tolerance is 1e-4.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/volume/volume_penalty.hpp"

namespace softsim {
namespace {

struct Outcome {
  double volume = 0.0, gauge_pressure = 0.0;
  int newton_iterations = 0;
  bool converged = false;
};

Outcome press_box(const std::string& law, double kappa_v, double traction, const std::string& jacobian) {
  nlohmann::json penalty = {{"model", law}, {"direct_jacobian", jacobian}};
  if (law != "ideal_gas") penalty["kappa_v"] = kappa_v;
  const nlohmann::json j = {
      {"dim", 3},
      {"gravity", {0, 0, 0}},
      {"time", {{"dt", 1.0}, {"steps", 1}}},
      {"integrator", {{"type", "static"}}},
      {"solver", {{"max_iterations", 200}}},
      {"contact", {{"enabled", false}}},
      {"bodies",
       {{{"generator", {{"type", "box"}, {"size", {1, 1, 1}}, {"resolution", {2, 2, 2}}}},
         {"material", {{"model", "neo_hookean"}, {"E", 1.0}, {"nu", 0.3}}},
         {"fixed", {{{"box", {{-1, -0.51, -1}, {1, -0.49, 1}}}}}},
         {"slip", {{{"box", {{-1, -0.49, -1}, {1, 1, 1}}}, {"direction", {0, 1, 0}}}}},
         {"tractions", {{{"box", {{-1, 0.49, -1}, {1, 0.51, 1}}}, {"traction", {0, -traction, 0}}}}},
         {"volume_penalty", penalty}}}}};
  const Scene scene = parse_scene(j, "sealed_box.json");
  Model model = build_model(scene);
  const VolumePenalty* term = nullptr;
  for (const auto& e : model.energies())
    if (auto* v = dynamic_cast<const VolumePenalty*>(e.get())) term = v;
  EXPECT_NE(term, nullptr);
  EXPECT_NEAR(term->law().rest_volume, 1.0, 1e-12);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const StepResult r = stepper->step(state, scene.dt);
  Outcome o;
  o.converged = r.converged;
  o.newton_iterations = r.newton_iterations;
  o.volume = term->volume(state.x);
  o.gauge_pressure = term->law().gauge_pressure(o.volume);
  return o;
}

TEST(VolumePressure, SealedBoxSettlesAtThePressureOfTheLaw) {
  const double t = 0.5 * kAtmosphere;
  struct Case {
    std::string model;
    double kappa_v, expected_volume;
  };
  const Case cases[] = {{"ideal_gas", 0.0, 1.0 / 1.5},
                        {"quadratic", 1.0, 0.5},
                        {"quadratic", 0.1, 0.95},
                        {"nearly_incompressible", 1.0, std::exp(-0.5)},
                        {"nearly_incompressible", 0.01, std::exp(-0.005)}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.model + " kappa_v " + std::to_string(c.kappa_v));
    const Outcome o = press_box(c.model, c.kappa_v, t, "exact");
    ASSERT_TRUE(o.converged);
    EXPECT_NEAR(o.gauge_pressure / t, 1.0, 1e-4);
    EXPECT_NEAR(o.volume / c.expected_volume, 1.0, 1e-4);
    // With the rank-one part applied by Sherman-Morrison-Woodbury, Newton converges quickly.
    EXPECT_LE(o.newton_iterations, 20);
  }
  // Without it (the sparse "inexact J") the box's soft elasticity is all the Newton matrix
  // has: projected Newton crawls.
  const Outcome sparse = press_box("quadratic", 1.0, t, "sparse");
  EXPECT_TRUE(!sparse.converged || sparse.newton_iterations > 100);
}

}  // namespace
}  // namespace softsim
