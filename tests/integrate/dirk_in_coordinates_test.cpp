// DIRK, BDF2, Newmark, generalized-alpha and static steps in a subspace's coordinates
// (integrate/dirk.hpp, bdf2.hpp, generalized_alpha.hpp, static_solve.hpp, StageSolver's
// *_in_coordinates): a reduced cantilever evaluated by cubature steps (y, y_dot) and never
// positions. Checked against the same physics stepped in positions (the scene with an obstacle
// far below, which sends it down the positions path: evaluate in positions, pull back), for the
// five DIRK methods, BDF2, Newmark, generalized-alpha and the static solve, with mass damping and
// with stiffness damping; the second order of the trapezoidal rule, BDF2, Newmark (beta 1/4, gamma
// 1/2) and generalized-alpha in coordinates; deferred positions (State::defer_positions)
// left untouched by the steps and written by update_positions to what every-step writing gives;
// and the Newton step-norm bound, never below the exact norm.
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/reduced_incremental_potential.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/solve/newton_options.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

// A 2D cantilever (2 m x 0.25 m, 12 x 2 cells) held at its left end, sagging under gravity from
// rest with mass damping, reduced to 8 modes + derivatives, its elasticity by cubature.
nlohmann::json cantilever(const std::string& integrator, double h, bool far_obstacle) {
  nlohmann::json j = R"json({
    "dim": 2, "gravity": [0, -9.81],
    "bodies": [{"name": "beam",
                "generator": {"type": "rectangle", "size": [2.0, 0.25], "resolution": [12, 2]},
                "fixed": [{"box": [[-1.01, -1.0], [-0.99, 1.0]]}],
                "material": {"model": "neo_hookean", "E": 1e5, "nu": 0.3, "density": 1000},
                "reduction": {"basis": "modes+derivatives", "size": 8, "cubature": {"elements": 12}}}],
    "damping": {"alpha": 0.3},
    "solver": {"tolerance": 1e-9}
  })json"_json;
  j["integrator"] = {{"type", integrator}};
  j["time"] = {{"dt", h}, {"steps", 1}};
  if (far_obstacle) {
    // Never within reach (the beam sags by centimetres): no force, but a term evaluated in
    // positions, so the model takes the positions path.
    j["obstacles"] = nlohmann::json::array({{{"type", "plane"}, {"point", {0.0, -50.0}}, {"normal", {0.0, 1.0}}}});
  } else {
    j["contact"] = {{"enabled", false}};
  }
  return j;
}

struct Trajectory {
  State state;
  int newton = 0;
};

Trajectory run(const nlohmann::json& j, int steps, bool defer) {
  const Scene scene = parse_scene(j, "cantilever.json");
  const Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  Trajectory r;
  r.state = State{model.rest_positions, model.initial_velocity, 0.0};
  r.state.defer_positions = defer;
  for (int n = 0; n < steps; ++n) {
    const StepResult s = stepper->step(r.state, scene.dt);
    EXPECT_TRUE(s.converged) << s.failure;
    r.newton += s.newton_iterations;
  }
  update_positions(model.subspace, r.state);
  return r;
}

class InCoordinates : public testing::TestWithParam<const char*> {};

TEST_P(InCoordinates, StepsAsThePositionsPathDoes) {
  const int steps = 40;
  const Trajectory coordinates = run(cantilever(GetParam(), 0.01, false), steps, false);
  const Trajectory positions = run(cantilever(GetParam(), 0.01, true), steps, false);
  // Which path ran: only a step in coordinates keeps them in the state.
  EXPECT_TRUE(coordinates.state.coordinates_current);
  EXPECT_FALSE(positions.state.coordinates_current);
  const double sag = (coordinates.state.x - build_model(parse_scene(cantilever(GetParam(), 0.01, false), "c.json"))
                                                 .rest_positions)
                         .lpNorm<Eigen::Infinity>();
  EXPECT_GT(sag, 1e-2);  // it moved
  // Both converge each stage to 1e-9 m/s (the coordinates' test is never looser): the same
  // trajectory to far below the sag.
  EXPECT_LT((coordinates.state.x - positions.state.x).lpNorm<Eigen::Infinity>(), 1e-9 * std::max(1.0, sag))
      << GetParam();
  EXPECT_LT((coordinates.state.v - positions.state.v).lpNorm<Eigen::Infinity>(), 1e-7) << GetParam();
  EXPECT_DOUBLE_EQ(coordinates.state.t, positions.state.t);
}

INSTANTIATE_TEST_SUITE_P(Methods, InCoordinates,
                         testing::Values("backward_euler", "implicit_midpoint", "trapezoidal", "tr_bdf2", "sdirk2", "bdf2",
                                         "newmark", "generalized_alpha", "static"));

// Stiffness-proportional damping in coordinates: beta K_r(y^n), the cubature Hessian at the step's
// start (ReducedIncrementalPotential::set_stiffness_damping_start), against the positions path's
// beta B^T K(x^n) B pulled back from the whole mesh. The damping must matter (the trajectory
// without it differs by far more than the paths do).
class StiffnessDampedInCoordinates : public testing::TestWithParam<const char*> {};

TEST_P(StiffnessDampedInCoordinates, StepsAsThePositionsPathDoes) {
  const int steps = 40;
  auto damped = [&](bool far_obstacle) {
    nlohmann::json j = cantilever(GetParam(), 0.01, far_obstacle);
    j["damping"]["beta"] = 0.02;
    return j;
  };
  const Trajectory coordinates = run(damped(false), steps, false);
  const Trajectory positions = run(damped(true), steps, false);
  const Trajectory undamped = run(cantilever(GetParam(), 0.01, false), steps, false);
  EXPECT_TRUE(coordinates.state.coordinates_current);
  EXPECT_FALSE(positions.state.coordinates_current);
  const double effect = (coordinates.state.x - undamped.state.x).lpNorm<Eigen::Infinity>();
  EXPECT_GT(effect, 1e-2) << GetParam();  // 3.8-5.1 cm here
  EXPECT_LT((coordinates.state.x - positions.state.x).lpNorm<Eigen::Infinity>(), 1e-9) << GetParam();
  EXPECT_LT((coordinates.state.v - positions.state.v).lpNorm<Eigen::Infinity>(), 1e-7) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Methods, StiffnessDampedInCoordinates,
                         testing::Values("backward_euler", "trapezoidal", "sdirk2", "bdf2", "newmark", "generalized_alpha"));

// The trapezoidal rule's start-of-step acceleration is taken in coordinates (the Galerkin one,
// -(B^T M B)^-1 (grad P + alpha B^T M B y_dot)), as is the alpha methods' first one, and BDF2's
// history and their carried acceleration are kept there: if any were wrong the method would fall
// to first order. The error at t = 0.4 s against a step 8 times shorter than the finest falls by
// 16 over two halvings of h, 0.01 -> 0.0025 (4.08-4.48 per halving for the four methods, 14.8-19.0
// over both, also with the cubature a round-off change in the tangent picks); a first-order
// method's falls by about 4. Coarser steps are pre-asymptotic (ratios up to 5 per halving).
class InCoordinatesOrder : public testing::TestWithParam<const char*> {};

TEST_P(InCoordinatesOrder, IsSecondOrder) {
  const double t_end = 0.4;
  auto x_at = [&](double h) {
    return run(cantilever(GetParam(), h, false), static_cast<int>(std::lround(t_end / h)), true).state.x;
  };
  const VecX reference = x_at(0.0003125);
  const double e1 = (x_at(0.01) - reference).lpNorm<Eigen::Infinity>();
  const double e3 = (x_at(0.0025) - reference).lpNorm<Eigen::Infinity>();
  EXPECT_GT(e1 / e3, 3.5 * 3.5) << GetParam() << " " << e1 << " " << e3;
  EXPECT_LT(e1 / e3, 4.6 * 4.6) << GetParam() << " " << e1 << " " << e3;
}

INSTANTIATE_TEST_SUITE_P(SecondOrderMethods, InCoordinatesOrder, testing::Values("trapezoidal", "bdf2", "newmark", "generalized_alpha"));

// With deferred positions a step touches neither x nor v (their bytes stay), t advances, and
// update_positions writes what a run writing every step ends with (which takes y from x again
// each step: round-off apart).
TEST(InCoordinatesDeferred, StepsLeavePositionsUntilTheyAreWritten) {
  const nlohmann::json j = cantilever("backward_euler", 0.01, false);
  const Scene scene = parse_scene(j, "cantilever.json");
  const Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  state.defer_positions = true;
  const VecX x0 = state.x, v0 = state.v;
  for (int n = 0; n < 25; ++n) ASSERT_TRUE(stepper->step(state, scene.dt).converged);
  EXPECT_FALSE(state.positions_current);
  EXPECT_TRUE(state.coordinates_current);
  EXPECT_EQ(std::memcmp(state.x.data(), x0.data(), sizeof(double) * x0.size()), 0);
  EXPECT_EQ(std::memcmp(state.v.data(), v0.data(), sizeof(double) * v0.size()), 0);
  EXPECT_NEAR(state.t, 0.25, 1e-15);
  const double* storage = state.x.data();
  update_positions(model.subspace, state);
  EXPECT_TRUE(state.positions_current);
  EXPECT_EQ(state.x.data(), storage);  // written in place
  const Trajectory every_step = run(j, 25, false);
  EXPECT_LT((state.x - every_step.state.x).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT((state.v - every_step.state.v).lpNorm<Eigen::Infinity>(), 1e-10);
  EXPECT_GT((state.x - x0).lpNorm<Eigen::Infinity>(), 1e-3);

  // A driver that changes x while deferring clears coordinates_current: the next step reads x.
  State moved = state;
  moved.x = x0;
  moved.v.setZero();
  moved.coordinates_current = false;
  State restarted{x0, VecX::Zero(x0.size()), state.t};
  ASSERT_TRUE(stepper->step(moved, scene.dt).converged);
  ASSERT_TRUE(stepper->step(restarted, scene.dt).converged);
  update_positions(model.subspace, moved);
  EXPECT_LT((moved.x - restarted.x).lpNorm<Eigen::Infinity>(), 1e-12);
}

// The bound sum_c beta_c |p_c| of a stage posed in coordinates is never below ||B p|| (both
// norms of the convergence test), and equals it for a step along one column.
TEST(InCoordinatesStepNorm, TheBoundIsNeverBelowTheExactNorm) {
  const Scene scene = parse_scene(cantilever("backward_euler", 0.01, false), "cantilever.json");
  const Model model = build_model(scene);
  ModelData data(model);
  IncrementalPotential positions(model, data);
  ReducedIncrementalPotential reduced(positions, model);
  const SubspaceMap& map = model.subspace;
  const int r = map.num_coordinates();
  const VecX y0 = VecX::Zero(r);
  positions.set_step(Stage::step(0.0, 0.01), VecX(), 1.0, 1e-4, VecX(), 0.01);
  reduced.set_coordinate_step(y0, y0);
  for (int vertex_l1_dim : {0, 2}) {
    for (int seed = 1; seed <= 20; ++seed) {
      const VecX p = test::random_perturbation(r, 1.0, static_cast<unsigned>(seed));
      const double exact = newton_step_norm(map.to_positions(p), vertex_l1_dim);
      EXPECT_GE(reduced.step_norm(p, vertex_l1_dim), exact * (1.0 - 1e-14));
      EXPECT_LT(reduced.step_norm(p, vertex_l1_dim), 20.0 * exact);
    }
    for (int c = 0; c < r; ++c) {
      const VecX e = -0.5 * VecX::Unit(r, c);
      EXPECT_NEAR(reduced.step_norm(e, vertex_l1_dim), newton_step_norm(map.to_positions(e), vertex_l1_dim),
                  1e-14 * newton_step_norm(map.to_positions(e), vertex_l1_dim));
    }
  }
  // After a stage posed in positions the norm is exact again.
  positions.set_step(Stage::step(0.0, 0.01), model.rest_positions, 1.0, 1e-4, model.rest_positions, 0.01);
  VecX g;
  reduced.evaluate(y0, &g, nullptr, false);  // takes the positions stage
  const VecX p = test::random_perturbation(r, 1.0, 7u);
  EXPECT_DOUBLE_EQ(reduced.step_norm(p, 0), newton_step_norm(map.to_positions(p), 0));
}

}  // namespace
}  // namespace softsim
