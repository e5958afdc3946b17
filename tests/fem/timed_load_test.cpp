// Loads switched on and off (fem/timed_load.hpp; a body's loads with `from` / `until`): the term
// acts in the steps whose start time lies in [from, until), and nowhere else; a free body takes
// exactly the impulse F (number of those steps) h whatever the integrator; a clamped bar under the
// static integrator deflects only in the steps the load covers.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"

#include "softsim/fem/timed_load.hpp"
#include "softsim/scene/scene.hpp"
#include "support/evaluation.hpp"

namespace softsim {
namespace {

TEST(TimedLoad, ActsInTheStepsThatStartInItsInterval) {
  const TimedLoad load(Vec2(1.0, -2.0), 0.1, 0.3);
  test::Evaluation e(load);
  const VecX x = Vec2(0.5, 0.75);  // x . f = -1
  for (const auto& [t0, acts] : std::vector<std::pair<double, bool>>{
           {0.0, false}, {0.05, false}, {0.1, true}, {0.2, true}, {0.2999, true}, {0.3, false}, {1.0, false}}) {
    e.stage = Stage::step(t0, 0.05);
    e.stage.fraction = 0.5;  // a stage inside the step reads the step's start as well
    VecX g = VecX::Zero(2);
    const double value = load.evaluate(e.ctx(), x, AssemblyOutputs{&g, nullptr, 2.0});
    EXPECT_EQ(load.acts(e.stage), acts) << t0;
    // weight 2: -2 x . f and its gradient -2 f; nothing when off
    EXPECT_DOUBLE_EQ(value, acts ? 2.0 : 0.0) << t0;
    EXPECT_EQ(g, acts ? VecX(Vec2(-2.0, 4.0)) : VecX(VecX::Zero(2))) << t0;
  }
  EXPECT_THROW(TimedLoad(Vec2(1.0, 0.0), 0.3, 0.3), std::invalid_argument);
}

// A 2D square of 3 x 3 cells, no gravity; its right column pushed by `load` (N per vertex).
nlohmann::json pushed_square(const char* integrator, const nlohmann::json& load) {
  nlohmann::json j = R"json({
    "dim": 2, "time": {"dt": 0.05, "steps": 10}, "gravity": [0, 0], "contact": {"enabled": false},
    "bodies": [{"name": "square", "generator": {"type": "rectangle", "size": [1, 1], "resolution": [3, 3]},
                "material": {"model": "neo_hookean", "E": 1e4, "nu": 0.3, "density": 100}}]
  })json"_json;
  j["integrator"]["type"] = integrator;
  j["bodies"][0]["loads"] = nlohmann::json::array({load});
  return j;
}

Vec2 momentum(const Model& model, const VecX& v) {
  const std::vector<double> m = model.vertex_masses();
  Vec2 p = Vec2::Zero();
  for (int i = 0; i < model.num_vertices(); ++i) p += m[i] * v.segment<2>(2 * i);
  return p;
}

TEST(TimedLoad, AFreeBodyTakesTheImpulseOfTheStepsTheLoadCovers) {
  // Steps of 0.05 s starting at 0.1, 0.15, 0.2, 0.25: 4 of them, an impulse of 0.2 s x F. The
  // interval's ends lie between step starts (summed step times are not exact multiples of h).
  const nlohmann::json load = R"json({"box": [[0.49, -1], [0.51, 1]], "force": [3, 1], "from": 0.09, "until": 0.29})json"_json;
  for (const char* integrator : {"backward_euler", "tr_bdf2", "implicit_midpoint"}) {
    const Scene scene = parse_scene(pushed_square(integrator, load), "pushed.json");
    const Model model = build_model(scene);
    auto stepper = make_stepper(model, scene.integrator);
    State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
    const Vec2 total_force = 4 * Vec2(3.0, 1.0);  // the 4 vertices of the column x = 0.5
    for (int n = 0; n < 10; ++n) {
      ASSERT_TRUE(stepper->step(state, scene.dt).converged) << integrator << " step " << n;
      const int covered = std::clamp(n - 1, 0, 4);  // steps 2..5 (from 0.1 to 0.25) have the load
      const Vec2 expected = covered * scene.dt * total_force;
      EXPECT_LT((momentum(model, state.v) - expected).norm(), 1e-9 * total_force.norm()) << integrator << " step " << n;
    }
  }
}

TEST(TimedLoad, LoadsSharingAnIntervalAreOneTerm) {
  // An IPC NBC converts to a load per vertex: a term each would cost O(vertices x DOFs).
  nlohmann::json j = pushed_square("backward_euler", R"json({"ids": [0], "force": [1, 0], "from": 0.1, "until": 0.2})json"_json);
  j["bodies"][0]["loads"].push_back(R"json({"ids": [1], "force": [2, 0], "from": 0.1, "until": 0.2})json"_json);
  j["bodies"][0]["loads"].push_back(R"json({"ids": [2], "force": [3, 0], "from": 0.1})json"_json);
  j["bodies"][0]["loads"].push_back(R"json({"ids": [3], "force": [4, 0]})json"_json);
  const Model model = build_model(parse_scene(j, "loads.json"));
  int terms = 0;
  for (const auto& term : model.energies()) terms += term->name() == "timed_load";
  EXPECT_EQ(terms, 2);
  EXPECT_EQ(model.nodal_forces[6], 4.0);  // the load for the whole run stays a constant force
  test::Evaluation e(model);
  e.stage = Stage::step(0.15, 0.05);
  VecX g = VecX::Zero(model.num_dofs());
  for (const auto& term : model.energies())
    if (term->name() == "timed_load") term->evaluate(e.ctx(), model.rest_positions, AssemblyOutputs{&g});
  EXPECT_EQ(g[0], -1.0);
  EXPECT_EQ(g[2], -2.0);
  EXPECT_EQ(g[4], -3.0);
  EXPECT_EQ(g[6], 0.0);
}

TEST(TimedLoad, TheStaticIntegratorDeflectsOnlyWhileTheLoadActs) {
  nlohmann::json j = pushed_square("static", R"json({"box": [[0.49, -1], [0.51, 1]], "force": [0, -5],
                                                     "from": 0.09, "until": 0.19})json"_json);
  j["bodies"][0]["fixed"] = R"json([{"box": [[-0.51, -1], [-0.49, 1]]}])json"_json;
  const Scene scene = parse_scene(j, "clamped.json");
  const Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  for (int n = 0; n < 6; ++n) {
    ASSERT_TRUE(stepper->step(state, scene.dt).converged) << n;
    const double deflection = (state.x - model.rest_positions).lpNorm<Eigen::Infinity>();
    if (n == 2 || n == 3)  // the steps from 0.1 and 0.15 s
      EXPECT_GT(deflection, 1e-3) << "step " << n;
    else
      EXPECT_LT(deflection, 1e-9) << "step " << n;
  }
}

TEST(TimedLoad, SceneKeysAreCheckedByName) {
  nlohmann::json j = pushed_square("backward_euler", R"json({"ids": [0], "force": [1, 0], "from": 0.2, "until": 0.1})json"_json);
  try {
    parse_scene(j, "bad.json");
    FAIL() << "accepted until < from";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bodies[0].loads[0].until"), std::string::npos) << e.what();
  }
  j["bodies"][0]["loads"][0] = R"json({"ids": [0], "force": [1, 0], "from": -1})json"_json;
  EXPECT_THROW(parse_scene(j, "bad.json"), InputError);
}

}  // namespace
}  // namespace softsim
