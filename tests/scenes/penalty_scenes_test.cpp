// Penalty contact (contact.type "penalty", Larionov et al. 2022, §3.2 and §4.4) through the production path
// (JSON -> parse_scene -> build_model -> stepper): interpenetrating starts are pushed apart, a
// dropped block settles with no penetration after the adaptive stiffness steps, kappa never
// decreases while in contact, lagged friction acts on penalty contacts, and bad keys are rejected.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "support/contact_scene.hpp"
#include "softsim/contact/penalty/penalty_contact.hpp"
#include "softsim/core/errors.hpp"

namespace softsim::test {
namespace {

const PenaltyContact* find_penalty(const Model& model) {
  for (const auto& e : model.energies())
    if (auto* c = dynamic_cast<const PenaltyContact*>(e.get())) return c;
  return nullptr;
}

nlohmann::json block(const char* name, double size, int cells, const Vec3& at, double E = 1e6) {
  return {{"name", name},
          {"generator", {{"type", "box"}, {"size", {size, size, size}}, {"resolution", {cells, cells, cells}}}},
          {"transform", {{"translate", {at.x(), at.y(), at.z()}}}},
          {"material", {{"E", E}, {"nu", 0.3}, {"density", 1000}}}};
}

nlohmann::json penalty_scene(double dt, int steps, nlohmann::json bodies, nlohmann::json obstacles) {
  return {{"dim", 3},
          {"time", {{"dt", dt}, {"steps", steps}}},
          {"bodies", std::move(bodies)},
          {"obstacles", std::move(obstacles)},
          {"contact", {{"type", "penalty"}, {"delta", 1e-3}}}};
}

const nlohmann::json kGround = {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}};

struct PenaltyRun {
  double deepest = HUGE_VAL;     // smallest end-of-step signed gap over the run
  double lowest = HUGE_VAL;      // smallest end-of-step vertex height
  std::vector<double> kappa;     // after each step
  int bumps = 0;                 // stiffness increases over the run
  int newton_iterations = 0, failed = 0;
  double seconds = 0.0;
};

PenaltyRun run_penalty(const Scene& scene, Model& model, State& state, int steps) {
  const PenaltyContact* penalty = find_penalty(model);
  EXPECT_NE(penalty, nullptr);
  auto stepper = make_stepper(model, scene.integrator);
  PenaltyRun run;
  const auto t0 = std::chrono::steady_clock::now();
  for (int n = 0; n < steps; ++n) {
    const StepResult r = stepper->step(state, scene.dt);
    run.newton_iterations += r.newton_iterations;
    if (!r.converged) {
      ++run.failed;
      ADD_FAILURE() << "step " << n << ": " << r.failure;
    }
    run.deepest = std::min(run.deepest, penalty->min_contact_distance(state.x));
    run.lowest = std::min(run.lowest, as_rows(state.x, 3).col(1).minCoeff());
    run.kappa.push_back(penalty->stiffness(stepper->data()));
    run.bumps = penalty->stiffness_bumps(stepper->data());
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return run;
}

// "step:kappa" at every change of kappa.
std::string kappa_history(const PenaltyContact& penalty, const std::vector<double>& kappa) {
  std::string s = "0:" + std::to_string(penalty.initial_stiffness());
  for (std::size_t n = 0; n < kappa.size(); ++n)
    if (n == 0 ? kappa[0] != penalty.initial_stiffness() : kappa[n] != kappa[n - 1])
      s += " " + std::to_string(n + 1) + ":" + std::to_string(kappa[n]);
  return s;
}

TEST(PenaltyScenes, BlocksStartingInterpenetratedArePushedApart) {
  // A 0.2 m block 20% (4 cm) below the ground plane, a 0.1 m block 20% (2 cm) inside it.
  const Scene scene = parse_scene(penalty_scene(0.01, 30,
                                                {block("lower", 0.2, 3, Vec3(0, 0.06, 0)),
                                                 block("upper", 0.1, 2, Vec3(0.01, 0.19, 0.0))},
                                                kGround),
                                  "interpenetrating.json");
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const PenaltyContact& penalty = *find_penalty(model);
  const double d0 = penalty.min_contact_distance(state.x);
  const Eigen::MatrixXi prims = surface_primitives(model);
  const std::size_t crossings0 = count_intersections(model, prims, state.x);
  const PenaltyRun run = run_penalty(scene, model, state, 30);
  const std::size_t crossings = count_intersections(model, prims, state.x);
  std::printf("[ penalty ] interpenetrating blocks: deepest gap at t = 0 %.4f m, %zu crossing triangle pairs; after "
              "every step deepest gap >= %.3e m, lowest vertex %.3e m; %zu crossings at the end; %d Newton "
              "iterations, %d bumps, %.2f s\n",
              d0, crossings0, run.deepest, run.lowest, crossings, run.newton_iterations, run.bumps,
              run.seconds);
  std::printf("[ penalty ] kappa history (step:kappa): %s\n", kappa_history(penalty, run.kappa).c_str());
  EXPECT_NEAR(d0, -0.04, 1e-9);
  EXPECT_GT(crossings0, 0u);
  // The step is repeated until no contact point has d < 0: exactly, not up to a tolerance.
  EXPECT_GE(run.deepest, 0.0);
  EXPECT_GE(run.lowest, 0.0);
  EXPECT_EQ(crossings, 0u);
  EXPECT_EQ(run.failed, 0);
}

void drop_block_and_settle(const nlohmann::json& obstacle, const char* what) {
  // A 0.2 m block (E = 1e6 Pa) released 2 cm above the surface y = 0: it hits at 0.63 m/s.
  nlohmann::json j = penalty_scene(0.01, 100, {block("block", 0.2, 3, Vec3(0, 0.12, 0))}, {obstacle});
  j["solver"] = {{"tolerance", 1e-4}};
  const Scene scene = parse_scene(j, "drop.json");
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const PenaltyContact& penalty = *find_penalty(model);
  const PenaltyRun run = run_penalty(scene, model, state, 100);
  const double speed = max_speed(model, state.v), bottom = as_rows(state.x, 3).col(1).minCoeff();
  std::printf("[ penalty ] block dropped on a %s: after every step deepest gap >= %.3e m; final bottom %.3e m (delta "
              "%.0e), max speed %.2e m/s; %d Newton iterations in 100 steps, %d bumps, %.2f s\n",
              what, run.deepest, bottom, scene.contact.delta.value(), speed, run.newton_iterations,
              run.bumps, run.seconds);
  std::printf("[ penalty ] kappa history (step:kappa): %s\n", kappa_history(penalty, run.kappa).c_str());
  EXPECT_GE(run.deepest, 0.0);  // penetration <= 0 at the end of every step
  EXPECT_GE(bottom, 0.0);
  EXPECT_LT(bottom, scene.contact.delta.value());  // resting in the penalty layer
  EXPECT_LT(speed, 0.02);
  for (std::size_t n = 1; n < run.kappa.size(); ++n) EXPECT_GE(run.kappa[n], run.kappa[n - 1]) << "step " << n + 1;
  EXPECT_GE(run.bumps, 1);
}

TEST(PenaltyScenes, DroppedBlockSettlesOnAPlane) { drop_block_and_settle(kGround[0], "plane"); }

TEST(PenaltyScenes, DroppedBlockSettlesOnABox) {
  drop_block_and_settle({{"type", "box"}, {"center", {0.05, -0.5, 0}}, {"size", {2, 1, 2}}}, "box");
}

TEST(PenaltyScenes, InterpenetratingStackSceneFile) {
  const Scene scene = read_scene(scene_file("penalty_interpenetrating_stack.json"));
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const PenaltyContact& penalty = *find_penalty(model);
  const Eigen::MatrixXi prims = surface_primitives(model);
  const PenaltyRun run = run_penalty(scene, model, state, scene.steps);
  const Eigen::MatrixXd lower = body_rows(model, state.x, 0), upper = body_rows(model, state.x, 1);
  const Eigen::RowVector3d cl = lower.colwise().mean(), cu = upper.colwise().mean();
  std::printf("[ penalty ] penalty_interpenetrating_stack.json: after every step deepest gap >= %.3e m, lowest vertex "
              "%.3e m; final centres lower (%.3f %.3f %.3f), upper (%.3f %.3f %.3f), max speed %.2e m/s; %d Newton "
              "iterations in %d steps, %d bumps, %.2f s\n",
              run.deepest, run.lowest, cl.x(), cl.y(), cl.z(), cu.x(), cu.y(), cu.z(), max_speed(model, state.v),
              run.newton_iterations, scene.steps, run.bumps, run.seconds);
  std::printf("[ penalty ] kappa history (step:kappa): %s\n", kappa_history(penalty, run.kappa).c_str());
  EXPECT_GE(run.deepest, 0.0);
  EXPECT_GE(run.lowest, 0.0);
  EXPECT_EQ(count_intersections(model, prims, state.x), 0u);
  EXPECT_LT(max_speed(model, state.v), 0.02);
  // Both rest on the ground (bottoms within the penalty layer, centres at about half their
  // heights): the upper block was thrown off sideways (see the scene's description).
  EXPECT_LT(lower.col(1).minCoeff(), scene.contact.delta.value());
  EXPECT_LT(upper.col(1).minCoeff(), scene.contact.delta.value());
  EXPECT_NEAR(cl.y(), 0.1, 0.005);
  EXPECT_NEAR(cu.y(), 0.05, 0.005);
}

// The 2D C shape squeezed between penalty-driven plates (scenes/self_touch_c_shape.json),
// with penalty contact instead of IPC: the arms touch through self-contact and never cross.
TEST(PenaltyScenes, CShapeSelfContact2D) {
  const std::filesystem::path file = scene_file("self_touch_c_shape.json");
  nlohmann::json j = read_scene_json(file);
  j["contact"] = {{"type", "penalty"}, {"delta", 0.003}};
  const Scene scene = parse_scene(j, file);
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  std::vector<int> upper, lower;  // inner faces of the slot: rest y = 0.3 and 0.2, x >= 0.3
  const MatX& X = model.bodies[0].mesh.vertices;
  for (int i = 0; i < X.rows(); ++i) {
    if (X(i, 0) < 0.3 - 1e-9) continue;
    if (std::abs(X(i, 1) - 0.3) < 1e-9) upper.push_back(i);
    if (std::abs(X(i, 1) - 0.2) < 1e-9) lower.push_back(i);
  }
  const PenaltyContact& penalty = *find_penalty(model);
  double min_gap = HUGE_VAL, deepest = HUGE_VAL;
  int self_contacts = 0, bumps = 0;
  double kappa = 0.0;
  const RunStats s = run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper& stepper) {
    const Eigen::MatrixXd V = body_rows(model, state.x, 0);
    for (int a : upper)
      for (int b : lower) min_gap = std::min(min_gap, (V.row(a) - V.row(b)).norm());
    deepest = std::min(deepest, penalty.min_contact_distance(state.x));
    int n = 0;
    const int end = model.bodies[0].mesh.num_vertices();
    const Stage stage;
    for (const PenaltyContactPoint& c : penalty.contacts(EvalContext{stage, stepper.data()}, state.x))
      n += c.stencil.ids[0] < end && c.stencil.ids[1] < end;
    self_contacts = std::max(self_contacts, n);
    bumps = penalty.stiffness_bumps(stepper.data());
    kappa = penalty.stiffness(stepper.data());
  });
  print_stats("penalty self_touch_c_shape", s);
  std::printf("[ penalty ] C shape: slot (rest 0.1 m) closed to %.3e m between inner-face vertices, up to %d self "
              "contacts, deepest gap after every step >= %.3e m (delta %.3g), %d bumps, kappa %.3e\n",
              min_gap, self_contacts, deepest, scene.contact.delta.value(), bumps, kappa);
  EXPECT_EQ(s.max_intersections, 0u);
  EXPECT_GE(deepest, 0.0);
  EXPECT_GT(self_contacts, 0);
  EXPECT_LT(min_gap, 2 * scene.contact.delta.value()) << "the arms should touch";
}

// Lagged friction on penalty contacts: a block on the plane y = 0 under gravity tilted by
// atan(0.2) slides at g (sin theta - mu cos theta) for mu = 0.1 and sticks for mu = 0.3. Returns
// the block's travel and its mean down-slope velocity at the given times.
struct Slope {
  std::vector<double> travel, velocity;
};

Slope slope_run(double mu, const std::vector<int>& at_steps) {
  const double g = 9.81, theta = std::atan(0.2);
  nlohmann::json j = penalty_scene(0.01, at_steps.back(), {block("block", 0.1, 2, Vec3(0, 0.05 + 0.0005, 0))}, kGround);
  j["gravity"] = {g * std::sin(theta), -g * std::cos(theta), 0.0};
  j["contact"]["friction"] = {{"mu", mu}};
  const Scene scene = parse_scene(j, "slope.json");
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const double x0 = body_rows(model, state.x, 0).col(0).mean();
  const PenaltyContact& penalty = *find_penalty(model);
  auto stepper = make_stepper(model, scene.integrator);
  Slope out;
  double deepest = HUGE_VAL;
  for (int n = 1, k = 0; n <= at_steps.back(); ++n) {
    const StepResult r = stepper->step(state, scene.dt);
    EXPECT_TRUE(r.converged) << r.failure;
    deepest = std::min(deepest, penalty.min_contact_distance(state.x));
    if (n != at_steps[static_cast<std::size_t>(k)]) continue;
    ++k;
    out.travel.push_back(body_rows(model, state.x, 0).col(0).mean() - x0);
    out.velocity.push_back(body_rows(model, state.v, 0).col(0).mean());
  }
  EXPECT_GE(deepest, 0.0);
  return out;
}

TEST(PenaltyScenes, LaggedFrictionOnPenaltyContacts) {
  const double theta = std::atan(0.2);
  const double expected = 9.81 * (std::sin(theta) - 0.1 * std::cos(theta));
  // The block starts at delta/2 with kappa_min and first sinks into its penalty layer (the lagged
  // normal forces are short of its weight for a few steps); the acceleration is measured after.
  const Slope slide = slope_run(0.1, {20, 70});
  const double a = (slide.velocity[1] - slide.velocity[0]) / 0.5;
  const Slope stick = slope_run(0.3, {100});
  std::printf("[ penalty ] slope tan = 0.2: mu = 0.1 accelerates at %.4f m/s^2 between 0.2 and 0.7 s (analytic %.4f, "
              "error %.2f%%), travels %.4f m in 0.7 s (analytic from rest %.4f); mu = 0.3 moves %.2e m in 1 s\n",
              a, expected, 100 * (a / expected - 1), slide.travel[1], 0.5 * expected * 0.49, stick.travel[0]);
  EXPECT_NEAR(a, expected, 0.02 * expected);
  EXPECT_LT(std::abs(stick.travel[0]), 1e-3);
}

TEST(PenaltyScenes, BadKeysAreRejected) {
  auto message = [](nlohmann::json contact) -> std::string {
    nlohmann::json j = penalty_scene(0.01, 1, {block("block", 0.1, 1, Vec3(0, 0.1, 0))}, kGround);
    j["contact"] = std::move(contact);
    try {
      parse_scene(j, "bad.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "(accepted)";
  };
  struct Case {
    nlohmann::json contact;
    const char* expected;
  };
  const Case cases[] = {
      {{{"type", "penalties"}}, "bad.json: contact.type: expected one of"},
      {{{"type", 3}}, "bad.json: contact.type: expected a string"},
      {{{"type", "penalty"}, {"delta", -0.001}}, "bad.json: contact.delta: expected a positive number, got -0.001"},
      {{{"type", "penalty"}, {"delta", 0}}, "bad.json: contact.delta: expected a positive number"},
      {{{"type", "penalty"}, {"delta", "1e-3"}}, "bad.json: contact.delta: expected a number"},
      {{{"type", "penalty"}, {"search_radius", -1}}, "bad.json: contact.search_radius: expected a positive number"},
      {{{"type", "penalty"}, {"kappa", -5}}, "bad.json: contact.kappa: expected a positive number"},
      {{{"type", "penalty"}, {"dhat", 0.001}}, "bad.json: contact.dhat: applies to contact.type \"barrier\""},
      {{{"type", "penalty"}, {"thickness", 0.001}}, "bad.json: contact.thickness: applies to contact.type \"barrier\""},
      {{{"delta", 0.001}}, "bad.json: contact.delta: applies to contact.type \"penalty\""},
      {{{"type", "barrier"}, {"search_radius", 0.1}},
       "bad.json: contact.search_radius: applies to contact.type \"penalty\""},
      {{{"type", "penalty"}, {"delt", 0.001}}, "bad.json: contact.delt: unknown key"},
  };
  for (const Case& c : cases) {
    const std::string m = message(c.contact);
    EXPECT_NE(m.find(c.expected), std::string::npos) << c.contact.dump() << " gave: " << m;
  }
  // NaN cannot be written in JSON; an absurd value in a valid number is taken as given.
  const Scene ok = parse_scene(penalty_scene(0.01, 1, {block("block", 0.1, 1, Vec3(0, 0.1, 0))}, kGround), "ok.json");
  EXPECT_EQ(ok.contact.type, ContactType::penalty);
  EXPECT_EQ(ok.contact.delta.value(), 1e-3);
}

}  // namespace
}  // namespace softsim::test
