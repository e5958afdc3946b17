// A soft block on a slope (gravity tilted by theta, tan theta = 0.2, the ground horizontal):
// with mu > tan theta friction holds it (creep below 1 mm in 2 s with the default eps_v, in 10 s
// with eps_v = 1e-4 m/s), with mu < tan theta it
// accelerates at g (sin theta - mu cos theta). Ground: the analytic plane (obstacle friction)
// and a fixed second box (IPC pairs carry the friction).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {
namespace {

constexpr double kTan = 0.2, kG = 9.81;

// eps_v: the friction's stick-slip velocity (m/s); 0 keeps the default (1e-3).
nlohmann::json slope_scene(double mu, bool box_ground, int iterations = 1, const std::string& mode = "lagged",
                           const std::string& integrator = "backward_euler", const std::string& solver = "",
                           double eps_v = 0.0) {
  const double theta = std::atan(kTan);
  nlohmann::json j = R"json({
    "dim": 3, "time": {"dt": 0.01, "steps": 1},
    "bodies": [
      {"name": "block", "generator": {"type": "box", "size": [0.2, 0.2, 0.2], "resolution": [1, 1, 1]},
       "transform": {"translate": [0, 0.1005, 0]}, "material": {"E": 1e6, "nu": 0.3, "density": 1000}}
    ],
    "contact": {"dhat": 0.001},
    "solver": {"tolerance": 1e-5}
  })json"_json;
  j["gravity"] = {kG * std::sin(theta), -kG * std::cos(theta), 0.0};
  j["contact"]["friction"] = {{"mu", mu}, {"iterations", iterations}, {"mode", mode}};
  if (eps_v > 0.0) j["contact"]["friction"]["eps_v"] = eps_v;
  j["integrator"] = {{"type", integrator}};
  // Multi-stage methods evaluate the start-of-step force explicitly (a0 = M^-1 f(x^n, v^n)): a
  // block starting 0.5 mm inside dhat, where the balanced kappa makes the barrier force orders
  // above its weight, is launched. They start 0.5 mm above dhat and land instead.
  if (integrator != "backward_euler") j["bodies"][0]["transform"]["translate"] = {0, 0.1015, 0};
  // The trapezoidal rule does not damp the stiff normal (barrier) mode, whose oscillation biases
  // the friction force; stiffness-proportional damping removes it without slowing rigid sliding.
  if (integrator == "trapezoidal") j["damping"] = {{"beta", 1e-3}};
  if (!solver.empty()) j["integrator"]["nonlinear_solver"] = solver;
  if (box_ground) {
    j["bodies"].push_back(R"json({"name": "ground", "generator": {"type": "box", "size": [4, 0.2, 1], "resolution": [1, 1, 1]},
       "transform": {"translate": [1.5, -0.1, 0]}, "material": {"E": 1e6, "nu": 0.3, "density": 1000},
       "fixed": [{"box": [[-10, -10, -10], [10, 10, 10]]}]})json"_json);
  } else {
    j["obstacles"] = R"json([{"type": "plane", "point": [0, 0, 0], "normal": [0, 1, 0]}])json"_json;
  }
  return j;
}

struct Run {
  std::vector<double> t, x, vx;  // block's mean x position and velocity
  bool converged = true;
};

Run run(double mu, bool box_ground, double duration, int iterations = 1, const std::string& mode = "lagged",
        const std::string& integrator = "backward_euler", const std::string& solver = "", double eps_v = 0.0) {
  const Scene scene =
      parse_scene(slope_scene(mu, box_ground, iterations, mode, integrator, solver, eps_v), "slope.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  const int nb = model.bodies[0].mesh.num_vertices(), first = model.bodies[0].first_vertex;
  Run r;
  const int steps = static_cast<int>(std::lround(duration / scene.dt));
  for (int s = 0; s <= steps; ++s) {
    if (s > 0) {
      const StepResult res = stepper->step(state, scene.dt);
      if (!res.converged) {
        r.converged = false;
        break;
      }
    }
    double x = 0, v = 0;
    for (int i = 0; i < nb; ++i) {
      x += state.x[3 * (first + i)];
      v += state.v[3 * (first + i)];
    }
    r.t.push_back(state.t);
    r.x.push_back(x / nb);
    r.vx.push_back(v / nb);
  }
  return r;
}

// Smoothed friction has no true sticking: below eps_v the force grows from zero, so a held block
// creeps at the speed where mu f1(v / eps_v) = tan theta (c1: f1 = 2r - r^2, r = v / eps_v):
// v = eps_v (1 - sqrt(1 - tan theta / mu)), 0.225 mm/s with the default eps_v = 1e-3 m/s, 10x
// less with 1e-4. duration (s), eps_v (m/s; 0: the default).
void check_sticks(bool box_ground, const std::string& mode = "lagged", double duration = 2.0, double eps_v = 0.0) {
  const Run r = run(0.5, box_ground, duration, 1, mode, "backward_euler", "", eps_v);
  ASSERT_TRUE(r.converged);
  const double creep = std::abs(r.x.back() - r.x.front());
  std::printf("%s ground, %s, mu 0.5 > tan 0.2, eps_v %g: creep %.3g mm in %.1f s (final speed %.3g mm/s)\n",
              box_ground ? "box (IPC)" : "plane", mode.c_str(), eps_v > 0 ? eps_v : 1e-3, creep * 1e3, r.t.back(),
              r.vx.back() * 1e3);
  EXPECT_LT(creep, 1e-3);
  const double v_creep = (eps_v > 0 ? eps_v : 1e-3) * (1 - std::sqrt(1 - kTan / 0.5));
  EXPECT_NEAR(r.vx.back(), v_creep, 0.05 * v_creep);
}

void check_slides(bool box_ground, int iterations = 1, const std::string& mode = "lagged",
                  const std::string& integrator = "backward_euler", const std::string& solver = "") {
  const double mu = 0.1, theta = std::atan(kTan);
  const double expected = kG * (std::sin(theta) - mu * std::cos(theta));
  const Run r = run(mu, box_ground, 1.0, iterations, mode, integrator, solver);
  ASSERT_TRUE(r.converged);
  // Least-squares slope of v(t) over [0.3 s, 1 s] (after the landing transient).
  double st = 0, sv = 0, stt = 0, stv = 0;
  int n = 0;
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    if (r.t[k] < 0.3 - 1e-9) continue;
    st += r.t[k], sv += r.vx[k], stt += r.t[k] * r.t[k], stv += r.t[k] * r.vx[k], ++n;
  }
  const double a = (n * stv - st * sv) / (n * stt - st * st);
  std::printf("%s ground, %s %s %s, %d iteration(s), mu 0.1 < tan 0.2: acceleration %.4f m/s^2, expected %.4f (error %.2f%%)\n",
              box_ground ? "box (IPC)" : "plane", mode.c_str(), integrator.c_str(), solver.c_str(), iterations, a,
              expected, 100 * (a - expected) / expected);
  EXPECT_NEAR(a, expected, 0.02 * expected);  // the issue: within 2%
}

TEST(FrictionSlope, PlaneObstacleHoldsBlockWhenMuExceedsTanTheta) { check_sticks(false); }
TEST(FrictionSlope, PlaneObstacleSlidingAcceleration) { check_slides(false); }
TEST(FrictionSlope, IpcGroundHoldsBlockWhenMuExceedsTanTheta) { check_sticks(true); }
TEST(FrictionSlope, IpcGroundSlidingAcceleration) { check_slides(true); }
TEST(FrictionSlope, FixedPointIterationsSlidingAcceleration) {
  check_slides(false, 3);
  check_slides(true, 3);
}

// The issue's sticking test: at rest on the slope with mu > tan theta the block moves less than
// 1 mm in 10 s. With the default eps_v = 1e-3 m/s the smoothed model creeps 2.25 mm in 10 s;
// with eps_v = 1e-4 m/s it creeps 0.0225 mm/s, 0.30 mm in all with the first settling
// (docs/friction.md, "Sticking and eps_v").
TEST(FrictionSlope, HoldsTenSecondsWithEpsV1e4) {
  for (const bool box_ground : {false, true})
    for (const std::string mode : {"lagged", "implicit"}) check_sticks(box_ground, mode, 10.0, 1e-4);
}

TEST(ImplicitFrictionSlope, PlaneObstacleHoldsBlock) { check_sticks(false, "implicit"); }
TEST(ImplicitFrictionSlope, PlaneObstacleSlidingAcceleration) { check_slides(false, 1, "implicit"); }
TEST(ImplicitFrictionSlope, IpcGroundHoldsBlock) { check_sticks(true, "implicit"); }
TEST(ImplicitFrictionSlope, IpcGroundSlidingAcceleration) { check_slides(true, 1, "implicit"); }

// Implicit friction with every integrator of issue 6, and with inexact Newton (BiCGSTAB, AD products).
class ImplicitFrictionIntegrators : public ::testing::TestWithParam<const char*> {};
TEST_P(ImplicitFrictionIntegrators, IpcGroundSlidingAcceleration) { check_slides(true, 1, "implicit", GetParam()); }
INSTANTIATE_TEST_SUITE_P(Integrators, ImplicitFrictionIntegrators,
                         ::testing::Values("trapezoidal", "bdf2", "tr_bdf2", "sdirk2"));
TEST(ImplicitFrictionSlope, InexactNewtonSlidingAcceleration) {
  check_slides(true, 1, "implicit", "backward_euler", "inexact_newton");
}
TEST(ImplicitFrictionSlope, InexactNewtonHoldsBlock) {
  const auto r = run(0.5, true, 1.0, 1, "implicit", "backward_euler", "inexact_newton");
  ASSERT_TRUE(r.converged);
  EXPECT_LT(std::abs(r.x.back() - r.x.front()), 1e-3);
}

TEST(FrictionScene, ImplicitModeSelectsTheResidualForm) {
  nlohmann::json j = slope_scene(0.3, false);
  j["contact"]["friction"]["mode"] = "implicit";
  const Scene implicit = parse_scene(j, "slope.json");
  EXPECT_EQ(implicit.integrator.form(), StageForm::residual);
  EXPECT_EQ(implicit.integrator.nonlinear_solver, NonlinearSolver::damped_newton);
  // Implicit friction has no potential: asking for the potential form is an input error.
  j["integrator"] = {{"form", "potential"}};
  try {
    parse_scene(j, "slope.json");
    FAIL() << "implicit friction accepted with the potential form";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("contact.friction.mode"), std::string::npos) << e.what();
  }
  j.erase("integrator");
  j["contact"]["friction"]["mode"] = "lagged";
  j["contact"]["friction"]["smoothing"] = "rational";
  const Scene scene = parse_scene(j, "slope.json");
  EXPECT_EQ(scene.contact.friction.smoothing, FrictionSmoothing::rational);
  EXPECT_EQ(scene.integrator.form(), StageForm::potential);
  EXPECT_DOUBLE_EQ(scene.contact.friction.mu, 0.3);
  EXPECT_DOUBLE_EQ(scene.contact.friction.eps_v, 1e-3);
}

}  // namespace
}  // namespace softsim

namespace softsim {
namespace {

// contact.friction.pairs: two blocks side by side on the slope, the ground a plane obstacle
// named "ground". "sticky" has mu = 0.5 > tan theta with it and stays; "slick" has mu = 0.1 and
// accelerates at g (sin - mu cos); the scene's own mu (0) applies to no pair here. With penalty
// contact the plane acts through the penalty term's analytic-obstacle contacts.
void check_pair_coefficients(const std::string& mode, const std::string& contact_type = "barrier") {
  nlohmann::json j = slope_scene(0.0, false, 1, mode);
  if (contact_type == "penalty") {
    j["contact"].erase("dhat");
    j["contact"]["type"] = "penalty";
    j["contact"]["delta"] = 0.001;
  }
  j["bodies"][0]["name"] = "sticky";
  nlohmann::json slick = j["bodies"][0];
  slick["name"] = "slick";
  slick["transform"]["translate"] = {0, 0.1005, 0.5};
  j["bodies"].push_back(slick);
  j["obstacles"][0]["name"] = "ground";
  j["contact"]["friction"]["pairs"] = {{{"bodies", {"sticky", "ground"}}, {"mu", 0.5}},
                                       {{"bodies", {"ground", "slick"}}, {"mu", 0.1}}};
  const Scene scene = parse_scene(j, "pairs.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  auto mean_x = [&](const Body& b, const VecX& z) {
    double s = 0;
    for (int i = 0; i < b.mesh.num_vertices(); ++i) s += z[3 * (b.first_vertex + i)];
    return s / b.mesh.num_vertices();
  };
  std::vector<double> t, v_slick;
  for (int s = 0; s < 100; ++s) {
    ASSERT_TRUE(stepper->step(state, scene.dt).converged);
    t.push_back(state.t);
    v_slick.push_back(mean_x(model.bodies[1], state.v));
  }
  const double moved = mean_x(model.bodies[0], state.x) - mean_x(model.bodies[0], model.rest_positions);
  const double theta = std::atan(kTan), expected = kG * (std::sin(theta) - 0.1 * std::cos(theta));
  const double a = (v_slick.back() - v_slick[29]) / (t.back() - t[29]);
  std::printf("per-pair mu (%s, %s): sticky block moved %.3g mm in 1 s; slick block accelerates %.4f m/s^2 (expected %.4f)\n",
              mode.c_str(), contact_type.c_str(), moved * 1e3, a, expected);
  EXPECT_LT(std::abs(moved), 1e-3);
  EXPECT_NEAR(a, expected, 0.02 * expected);
}

TEST(FrictionPairs, PerPairCoefficientsLagged) { check_pair_coefficients("lagged"); }
TEST(FrictionPairs, PerPairCoefficientsImplicit) { check_pair_coefficients("implicit"); }
TEST(FrictionPairs, PerPairCoefficientsPenaltyLagged) { check_pair_coefficients("lagged", "penalty"); }
TEST(FrictionPairs, PerPairCoefficientsPenaltyImplicit) { check_pair_coefficients("implicit", "penalty"); }

TEST(FrictionPairs, UnknownNameIsAnInputError) {
  nlohmann::json j = slope_scene(0.2, false);
  j["contact"]["friction"]["pairs"] = {{{"bodies", {"block", "floor"}}, {"mu", 0.5}}};
  try {
    parse_scene(j, "pairs.json");
    FAIL() << "unknown name accepted";
  } catch (const std::exception& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("contact.friction.pairs[0].bodies"), std::string::npos) << m;
    EXPECT_NE(m.find("floor"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace softsim
