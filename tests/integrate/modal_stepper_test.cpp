// The modal integrator (integrator.type "modal"): reduced linear dynamics stepped in closed form.
//  - One mode released from rest follows u(t) = a cos(omega t), with Rayleigh damping the damped
//    oscillator's solution, to round-off, whatever the step (even a step longer than the period).
//  - No time-step error: 1 step of 0.8 s, 8 of 0.1 s and 80 of 0.01 s end in the same state.
//  - A linear material's reduced dynamics is linear, so the trapezoidal rule on the same reduced
//    scene converges to the modal result at second order.
//  - Gravity and damping: the damped motion settles on the static stepper's equilibrium.
//  - Refusals: a body without reduction, obstacles, contact asked for.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/integrate/modal_stepper.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

// A 2D cantilever strip, clamped at x = 0, linear elasticity, 6 reduced modes.
nlohmann::json strip(const char* integrator) {
  nlohmann::json j = R"json({
    "dim": 2, "time": {"dt": 0.01, "steps": 1}, "gravity": [0, 0],
    "bodies": [{"name": "strip", "generator": {"type": "rectangle", "size": [2, 0.2], "resolution": [10, 2]},
                "transform": {"translate": [1, 0]},
                "material": {"model": "linear", "E": 1e5, "nu": 0.3, "density": 1000},
                "fixed": [{"box": [[-0.01, -1], [0.01, 1]]}],
                "reduction": {"basis": "modes", "size": 6}}]
  })json"_json;
  j["integrator"]["type"] = integrator;
  return j;
}

struct ModalRun {
  Scene scene;
  Model model;
  std::unique_ptr<Stepper> stepper;
  explicit ModalRun(const nlohmann::json& j)
      : scene(parse_scene(j, "modal.json")), model(build_model(scene)), stepper(make_stepper(model, scene.integrator)) {}
  ModalStepper& modal() { return dynamic_cast<ModalStepper&>(*stepper); }
};

// State with reduced coordinates y0 + amplitude * (mode k), at rest.
State mode_state(const Model& model, const ModalStepper& modal, int k, double amplitude) {
  const VecX y = modal.rest_coordinates() + amplitude * modal.modes().col(k);
  return State{model.subspace.positions(y), VecX::Zero(model.num_dofs()), 0.0};
}

double max_abs(const VecX& v) { return v.lpNorm<Eigen::Infinity>(); }

TEST(ModalStepper, OneModeOscillatesAsTheCosineOfItsFrequencyWhateverTheStep) {
  ModalRun run(strip("modal"));
  ModalStepper& modal = run.modal();
  ASSERT_EQ(modal.eigenvalues().size(), 6);
  EXPECT_GT(modal.eigenvalues()[0], 0.0);  // clamped: no rigid mode
  std::printf("[ modal ] omega_1..3 = %.4g, %.4g, %.4g rad/s\n", std::sqrt(modal.eigenvalues()[0]),
              std::sqrt(modal.eigenvalues()[1]), std::sqrt(modal.eigenvalues()[2]));
  const int k = 1;
  const double omega = std::sqrt(modal.eigenvalues()[k]), period = 2 * M_PI / omega, a = 0.05;
  State state = mode_state(run.model, modal, k, a);
  const VecX shape = state.x - run.model.rest_positions;  // a times the mode in positions
  const double h = 1.3 * period;                          // longer than the period
  for (int n = 0; n < 7; ++n) ASSERT_TRUE(run.stepper->step(state, h).converged);
  const double t = state.t;
  EXPECT_LT(max_abs(state.x - run.model.rest_positions - std::cos(omega * t) * shape), 1e-10 * max_abs(shape));
  EXPECT_LT(max_abs(state.v + omega * std::sin(omega * t) * shape), 1e-10 * omega * max_abs(shape));
}

TEST(ModalStepper, RayleighDampingGivesTheDampedOscillatorsSolution) {
  nlohmann::json j = strip("modal");
  j["damping"] = {{"alpha", 0.4}, {"beta", 0.002}};
  ModalRun run(j);
  ModalStepper& modal = run.modal();
  const int k = 0;
  const double lambda = modal.eigenvalues()[k], c = 0.4 + 0.002 * lambda;
  const double omega_d = std::sqrt(lambda - c * c / 4), a = 0.05;
  ASSERT_GT(lambda, c * c / 4) << "the test wants an under-damped mode";
  State state = mode_state(run.model, modal, k, a);
  const VecX shape = state.x - run.model.rest_positions;
  for (int n = 0; n < 40; ++n) ASSERT_TRUE(run.stepper->step(state, 0.05).converged);
  const double t = state.t;
  const double u = std::exp(-c * t / 2) * (std::cos(omega_d * t) + c / (2 * omega_d) * std::sin(omega_d * t));
  EXPECT_LT(max_abs(state.x - run.model.rest_positions - u * shape), 1e-10 * max_abs(shape));
  EXPECT_LT(std::abs(u), 0.9);  // it did decay: the check is not against the start
}

TEST(ModalStepper, HasNoTimeStepError) {
  nlohmann::json j = strip("modal");
  j["gravity"] = {0.0, -9.81};
  j["damping"] = {{"alpha", 0.5}, {"beta", 0.0}};
  auto run_with = [&](double h, int steps) {
    ModalRun run(j);
    State state{run.model.rest_positions, VecX::Zero(run.model.num_dofs()), 0.0};
    for (int n = 0; n < steps; ++n) EXPECT_TRUE(run.stepper->step(state, h).converged);
    return state;
  };
  const State one = run_with(0.8, 1), eight = run_with(0.1, 8), eighty = run_with(0.01, 80);
  const double sag = max_abs(one.x - ModalRun(j).model.rest_positions);
  ASSERT_GT(sag, 1e-3);
  EXPECT_LT(max_abs(one.x - eight.x), 1e-11 * sag);
  EXPECT_LT(max_abs(one.x - eighty.x), 1e-11 * sag);
  EXPECT_LT(max_abs(one.v - eighty.v), 1e-10 * sag);
}

TEST(ModalStepper, TheTrapezoidalRuleOnTheSameReducedSceneConvergesToItAtSecondOrder) {
  // Linear elasticity: the reduced potential is quadratic, so the implicit integrators solve the
  // same linear ODE the modal flow solves exactly.
  nlohmann::json j = strip("modal");
  j["gravity"] = {0.0, -9.81};
  const double end = 0.4;
  auto final_state = [&](const char* type, int steps) {
    nlohmann::json scene = j;
    scene["integrator"]["type"] = type;
    scene["solver"] = {{"tolerance", 1e-12}};
    ModalRun run(scene);
    State state{run.model.rest_positions, VecX::Zero(run.model.num_dofs()), 0.0};
    for (int n = 0; n < steps; ++n) EXPECT_TRUE(run.stepper->step(state, end / steps).converged);
    return state.x;
  };
  const VecX exact = final_state("modal", 1);
  const double e1 = max_abs(final_state("trapezoidal", 20) - exact), e2 = max_abs(final_state("trapezoidal", 40) - exact);
  std::printf("[ modal ] trapezoidal against the modal flow at t = %.1f s: %.3g (20 steps), %.3g (40 steps), ratio %.2f\n",
              end, e1, e2, e1 / e2);
  EXPECT_GT(e1 / e2, 3.5);
  EXPECT_LT(e1 / e2, 4.5);
  EXPECT_LT(e2, 0.05 * max_abs(exact - ModalRun(j).model.rest_positions));
}

TEST(ModalStepper, DampedMotionUnderGravitySettlesOnTheStaticEquilibrium) {
  nlohmann::json j = strip("modal");
  j["gravity"] = {0.0, -9.81};
  j["damping"] = {{"alpha", 1.0}, {"beta", 0.0}};  // below critical for every mode (omega_1 = 0.79 rad/s)
  ModalRun modal(j);
  State state{modal.model.rest_positions, VecX::Zero(modal.model.num_dofs()), 0.0};
  ASSERT_TRUE(modal.stepper->step(state, 100.0).converged);  // every mode decays at least as e^{-0.5 t}
  nlohmann::json s = j;
  s["integrator"]["type"] = "static";
  s["solver"] = {{"tolerance", 1e-9}};  // the sag is 58 m (linear elasticity): 1e-12 is below round-off
  ModalRun statics(s);
  State equilibrium{statics.model.rest_positions, VecX::Zero(statics.model.num_dofs()), 0.0};
  ASSERT_TRUE(statics.stepper->step(equilibrium, 1.0).converged);
  const double sag = max_abs(equilibrium.x - statics.model.rest_positions);
  ASSERT_GT(sag, 1e-3);
  EXPECT_LT(max_abs(state.x - equilibrium.x), 1e-8 * sag);
  EXPECT_LT(max_abs(state.v), 1e-8);
}

TEST(ModalStepper, AnOverDampedModeCreepsBackAsTheAnalyticSolutionSays) {
  nlohmann::json j = strip("modal");
  j["damping"] = {{"alpha", 3.0}, {"beta", 0.0}};  // c = 3 > 2 omega_1 = 1.58
  ModalRun run(j);
  ModalStepper& modal = run.modal();
  const double lambda = modal.eigenvalues()[0], c = 3.0, a = 0.05;
  ASSERT_GT(c * c, 4 * lambda) << "the test wants an over-damped mode";
  State state = mode_state(run.model, modal, 0, a);
  const VecX shape = state.x - run.model.rest_positions;
  for (int n = 0; n < 10; ++n) ASSERT_TRUE(run.stepper->step(state, 0.3).converged);
  // u(0) = 1, u'(0) = 0: u = (r2 e^{r1 t} - r1 e^{r2 t}) / (r2 - r1), r = (-c -+ sqrt(c^2 - 4 lambda)) / 2.
  const double root = std::sqrt(c * c - 4 * lambda), r1 = (-c - root) / 2, r2 = (-c + root) / 2, t = state.t;
  const double u = (r2 * std::exp(r1 * t) - r1 * std::exp(r2 * t)) / (r2 - r1);
  EXPECT_LT(max_abs(state.x - run.model.rest_positions - u * shape), 1e-10 * max_abs(shape));
  EXPECT_GT(u, 0.0);  // over-damped: it never crosses
  EXPECT_LT(u, 0.8);
}

TEST(ModalStepper, AFreeBodyFallsAtExactlyGOnItsRigidModes) {
  // No fixed vertex: the basis holds the 3 rigid modes (lambda = 0), on which gravity acts alone
  // (the elastic modes are M-orthogonal to a uniform translation). One long step, exact.
  nlohmann::json j = strip("modal");
  j["bodies"][0].erase("fixed");
  j["gravity"] = {0.0, -9.81};
  ModalRun run(j);
  EXPECT_NEAR(run.modal().eigenvalues()[0], 0.0, 1e-6 * run.modal().eigenvalues()[3]);
  State state{run.model.rest_positions, VecX::Zero(run.model.num_dofs()), 0.0};
  ASSERT_TRUE(run.stepper->step(state, 0.7).converged);
  const std::vector<double> m = run.model.vertex_masses();
  Vec2 shift = Vec2::Zero();
  double total = 0.0;
  for (int i = 0; i < run.model.num_vertices(); ++i) {
    shift += m[i] * (state.x.segment<2>(2 * i) - run.model.rest_positions.segment<2>(2 * i));
    total += m[i];
  }
  shift /= total;
  EXPECT_NEAR(shift.x(), 0.0, 1e-12);
  EXPECT_NEAR(shift.y(), -0.5 * 9.81 * 0.7 * 0.7, 1e-10);
  const double spread = (state.x - run.model.rest_positions).reshaped(2, run.model.num_vertices()).row(1).maxCoeff() -
                        (state.x - run.model.rest_positions).reshaped(2, run.model.num_vertices()).row(1).minCoeff();
  EXPECT_LT(spread, 1e-10);  // no deformation: every vertex fell as far
}

TEST(ModalStepper, TheStepperRefusesAModelWithoutReducedCoordinates) {
  // The scene rules refuse such a scene first; a Model built by code meets the stepper's own check.
  nlohmann::json j = strip("backward_euler");
  j["bodies"][0].erase("reduction");
  const Scene scene = parse_scene(j, "full.json");
  const Model model = build_model(scene);
  EXPECT_THROW(ModalStepper stepper(model), std::invalid_argument);
}

std::string refusal(const nlohmann::json& j) {
  try {
    ModalRun run(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ModalStepper, RefusesWhatIsNotLinearReducedDynamics) {
  nlohmann::json full = strip("modal");
  full["bodies"][0].erase("reduction");
  EXPECT_NE(refusal(full).find("bodies[0]: integrator.type \"modal\" steps reduced bodies only"), std::string::npos)
      << refusal(full);
  nlohmann::json obstacle = strip("modal");
  obstacle["obstacles"] = R"json([{"type": "plane", "point": [0, -1], "normal": [0, 1]}])json"_json;
  EXPECT_NE(refusal(obstacle).find("obstacles: integrator.type \"modal\" steps linear dynamics, without contact"),
            std::string::npos);
  nlohmann::json contact = strip("modal");
  contact["contact"] = {{"dhat", 0.01}};
  EXPECT_NE(refusal(contact).find("contact: integrator.type \"modal\""), std::string::npos) << refusal(contact);
  nlohmann::json timed = strip("modal");
  timed["bodies"][0]["loads"] = R"json([{"box": [[1.9, -1], [2.1, 1]], "force": [0, -1], "until": 0.5}])json"_json;
  EXPECT_NE(refusal(timed).find("bodies[0].loads[0]: integrator.type \"modal\" linearises the model once"),
            std::string::npos)
      << refusal(timed);
  // A model built by code meets the stepper's own check: no term that reads the time.
  timed["integrator"]["type"] = "backward_euler";
  const Scene scene = parse_scene(timed, "timed.json");
  const Model model = build_model(scene);
  try {
    ModalStepper stepper(model);
    FAIL() << "accepted a load switched off at 0.5 s";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the term 'timed_load' changes with time"), std::string::npos) << e.what();
  }
  timed["bodies"][0]["loads"][0].erase("until");  // a load for the whole run is a constant force
  const Scene constant = parse_scene(timed, "constant.json");
  const Model constant_model = build_model(constant);
  EXPECT_NO_THROW(ModalStepper stepper(constant_model));
}

}  // namespace
}  // namespace softsim
