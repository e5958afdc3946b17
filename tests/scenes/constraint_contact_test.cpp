// Constraint contact (contact.type "constraint"; Zeng & Courtecuisse 2023) on whole scenes:
// exact stick, the block slide's analytic stop, non-penetration and rest of stacks and balls,
// and the fast update against the standard one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "softsim/contact/constraint/constraint_contact.hpp"
#include "softsim/integrate/constraint/constraint_stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "support/block_slide.hpp"

namespace softsim {
namespace {

using experiments::BlockSlide;

// The block slide's block (Larionov et al. 2022, sec. 5.1.1) resting on the plane y = 0 with
// gravity tilted by 10 degrees, contact by constraints; pgs: contact.constraint overrides.
nlohmann::json slope_scene(double mu, double v0, double h, const nlohmann::json& constraint = nlohmann::json::object()) {
  const double th = BlockSlide::theta(), g = BlockSlide::kG;
  return {{"dim", 3},
          {"time", {{"dt", h}, {"steps", 1}}},
          {"gravity", {g * std::sin(th), -g * std::cos(th), 0.0}},
          {"bodies",
           {{{"name", "block"},
             {"generator", {{"type", "box"}, {"size", {0.2, 0.2, 0.2}}, {"resolution", {1, 1, 1}}}},
             {"transform", {{"translate", {0.0, 0.1, 0.0}}}},
             {"initial_velocity", {v0, 0.0, 0.0}},
             {"material", {{"E", 1e8}, {"nu", 0.3}, {"density", 1000}}}}}},
          {"obstacles", {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}}},
          {"contact", {{"type", "constraint"}, {"friction", {{"mu", mu}}}, {"constraint", constraint}}}};
}

// The smallest signed gap of every contact found afresh at x (not only those the step resolved):
// +infinity when nothing is within the detection distance.
double end_gap(const Model& model, const VecX& x) {
  const ConstraintContact& contact = *model.constraint_contact;
  const VertexRows V = contact.collision_mesh().positions(x);
  double g = HUGE_VAL;
  for (const ContactConstraint& c : contact.detect(x)) g = std::min(g, contact_geometry(c, V, contact.obstacles()).gap);
  return g;
}

struct ConstraintRun {
  Scene scene;
  Model model;
  std::unique_ptr<Stepper> stepper;
  State state;
  explicit ConstraintRun(const nlohmann::json& json)
      : scene(parse_scene(json, "constraint.json")),
        model(build_model(scene)),
        stepper(make_stepper(model, scene.integrator)),
        state{model.rest_positions, model.initial_velocity, 0.0} {}
  StepResult step(double h) { return stepper->step(state, h); }
  double min_gap() const { return end_gap(model, state.x); }
};

double mean_x(const VecX& z) {
  double s = 0;
  const Eigen::Index n = z.size() / 3;
  for (Eigen::Index i = 0; i < n; ++i) s += z[3 * i];
  return s / static_cast<double>(n);
}

// mu = 0.3 > tan 10 degrees: the block sticks. The smoothed friction models creep at a speed
// below their eps_v; exact Coulomb friction solved to the tolerance does not creep at all.
TEST(ConstraintContact, BlockOnSlopeSticksExactly) {
  ConstraintRun run(slope_scene(0.3, 0.0, 0.01));
  ASSERT_TRUE(run.step(0.01).converged);  // the first step settles the elastic shear
  const VecX settled = run.state.x;
  for (int s = 1; s < 1000; ++s) {
    ASSERT_TRUE(run.step(0.01).converged);
    ASSERT_GT(run.min_gap(), -1e-9);
  }
  const double moved = (run.state.x - settled).cwiseAbs().maxCoeff();
  std::printf("block on a 10 degree slope, mu = 0.3: largest vertex motion over 10 s %.3g m\n", moved);
  EXPECT_LT(moved, 1e-6);
  // The friction force carries the weight's slope component m g sin(theta) exactly.
  double tangential = 0.0, normal = 0.0;
  for (const ContactForce& f : *run.stepper->contact_forces()) {
    tangential += f.force[0];
    normal += f.force[1];
  }
  const double weight = run.model.total_mass() * BlockSlide::kG;
  EXPECT_NEAR(tangential, -weight * std::sin(BlockSlide::theta()), 1e-6 * weight);
  EXPECT_NEAR(normal, weight * std::cos(BlockSlide::theta()), 1e-6 * weight);
}

// With the paper's fixed 30 sweeps PGS stops short on this stiff block and the block creeps: the
// test that the tolerance is what makes stick exact (docs/constraint-contact.md).
TEST(ConstraintContact, ThirtySweepsLeaveTheStiffBlockCreeping) {
  ConstraintRun run(slope_scene(0.3, 0.0, 0.01, {{"pgs_iterations", 30}, {"pgs_tolerance", 0}}));
  run.step(0.01);
  const double start = mean_x(run.state.x);
  for (int s = 1; s < 200; ++s) run.step(0.01);
  EXPECT_GT(mean_x(run.state.x) - start, 1e-7);
}

// mu = 0.177, pushed at 0.1 m/s down the slope: stops after 0.769 m at 15.38 s.
class ConstraintBlockSlide : public ::testing::TestWithParam<double> {};

TEST_P(ConstraintBlockSlide, StopsWithinHalfAPercentOfTheAnalyticDistanceAndTime) {
  const double h = GetParam();
  ConstraintRun run(slope_scene(BlockSlide::kMu, BlockSlide::kV0, h));
  const double x0 = mean_x(run.state.x);
  double stop_time = NAN, distance = NAN, deepest = HUGE_VAL;
  const int steps = static_cast<int>(std::ceil(20.0 / h));
  for (int s = 0; s < steps; ++s) {
    ASSERT_TRUE(run.step(h).converged);
    deepest = std::min(deepest, run.min_gap());
    if (mean_x(run.state.v) < 1e-9) {
      stop_time = run.state.t;
      distance = mean_x(run.state.x) - x0;
      break;
    }
  }
  const double dx = (distance - BlockSlide::stop_distance()) / BlockSlide::stop_distance();
  const double dt = (stop_time - BlockSlide::stop_time()) / BlockSlide::stop_time();
  std::printf("constraint contact h = %.3f: stops at %.3f s after %.4f m (errors %+.2f%% / %+.2f%%), deepest gap %.2g m\n",
              h, stop_time, distance, 100 * dt, 100 * dx, deepest);
  EXPECT_LT(std::abs(dx), 0.005);  // the issue asks for 2 %; measured below 0.1 %
  EXPECT_LT(std::abs(dt), 0.005);
  EXPECT_GT(deepest, -1e-9);
}

INSTANTIATE_TEST_SUITE_P(StepSizes, ConstraintBlockSlide, ::testing::Values(0.01, 0.001));

// Boxes dropped onto the plane and onto each other, yawed, with friction.
nlohmann::json stack_scene(const std::string& update, int newton_iterations) {
  auto box = [](const std::string& name, double side, int cells, double yaw, double y) {
    return nlohmann::json{{"name", name},
                          {"generator", {{"type", "box"}, {"size", {side, side, side}}, {"resolution", {cells, cells, cells}}}},
                          {"transform", {{"rotate", {0, yaw, 0}}, {"translate", {0.01, y, 0.0}}}},
                          {"material", {{"E", 1e5}, {"nu", 0.3}, {"density", 1000}}}};
  };
  return {{"dim", 3},
          {"time", {{"dt", 0.01}, {"steps", 1}}},
          {"bodies", {box("bottom", 0.3, 2, 0, 0.16), box("top", 0.2, 2, 30, 0.42)}},
          {"obstacles", {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}}},
          {"contact",
           {{"type", "constraint"},
            {"friction", {{"mu", 0.5}}},
            {"constraint", {{"update", update}, {"newton_iterations", newton_iterations}}}}}};
}

TEST(ConstraintContact, BoxStackComesToRestWithoutPenetration) {
  ConstraintRun run(stack_scene("fast", 5));
  const double size = 0.6;  // the scene's extent (m)
  double deepest = HUGE_VAL;
  for (int s = 0; s < 200; ++s) {
    ASSERT_TRUE(run.step(0.01).converged);
    deepest = std::min(deepest, run.min_gap());
  }
  const double speed = run.state.v.cwiseAbs().maxCoeff();
  std::printf("box stack after 2 s: deepest gap %.3g m, fastest vertex %.3g m/s\n", deepest, speed);
  EXPECT_GT(deepest, -1e-3 * size);
  EXPECT_LT(speed, 1e-3);
  // Resting: the top box sits on the bottom one (its lowest vertex at the bottom box's top), which
  // sits on the plane.
  const auto X = as_rows(run.state.x, 3);
  const Body& top = run.model.bodies[1];
  const Body& bottom = run.model.bodies[0];
  const double top_min = X.middleRows(top.first_vertex, top.mesh.num_vertices()).col(1).minCoeff();
  const double bottom_max = X.middleRows(bottom.first_vertex, bottom.mesh.num_vertices()).col(1).maxCoeff();
  const double bottom_min = X.middleRows(bottom.first_vertex, bottom.mesh.num_vertices()).col(1).minCoeff();
  EXPECT_NEAR(top_min, bottom_max, 2e-3);
  EXPECT_NEAR(bottom_min, 0.0, 1e-6);
}

TEST(ConstraintContact, SoftBallOnPlaneComesToRest) {
  const nlohmann::json json = {
      {"dim", 3},
      {"time", {{"dt", 0.01}, {"steps", 1}}},
      {"bodies",
       {{{"name", "ball"},
         {"generator", {{"type", "sphere"}, {"radius", 0.1}, {"resolution", 3}}},
         {"transform", {{"translate", {0.0, 0.12, 0.0}}}},
         {"material", {{"E", 5e4}, {"nu", 0.4}, {"density", 1000}}}}}},
      {"damping", {{"beta", 0.01}}},
      {"obstacles", {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}}},
      {"contact", {{"type", "constraint"}, {"friction", {{"mu", 0.3}}}}}};
  ConstraintRun run(json);
  double deepest = HUGE_VAL;
  for (int s = 0; s < 200; ++s) {
    ASSERT_TRUE(run.step(0.01).converged);
    deepest = std::min(deepest, run.min_gap());
  }
  const double speed = run.state.v.cwiseAbs().maxCoeff();
  std::printf("soft ball after 2 s: deepest gap %.3g m, fastest vertex %.3g m/s\n", deepest, speed);
  EXPECT_GT(deepest, -1e-3 * 0.24);
  EXPECT_LT(speed, 1e-3);
  // At rest the contact forces carry the weight.
  double normal = 0.0;
  for (const ContactForce& f : *run.stepper->contact_forces()) normal += f.force[1];
  EXPECT_NEAR(normal, run.model.total_mass() * 9.81, 1e-3 * run.model.total_mass() * 9.81);
}

// With A fixed for the step and the barycentric weights fixed, the fast update is the standard
// update rearranged (corrective_motion.hpp): the same trajectory to round-off.
TEST(ConstraintContact, FastUpdateFollowsTheStandardTrajectory) {
  ConstraintRun fast(stack_scene("fast", 5)), standard(stack_scene("standard", 5));
  double largest = 0.0;
  for (int s = 0; s < 60; ++s) {
    ASSERT_TRUE(fast.step(0.01).converged);
    ASSERT_TRUE(standard.step(0.01).converged);
    largest = std::max(largest, (fast.state.x - standard.state.x).cwiseAbs().maxCoeff());
  }
  std::printf("fast vs standard update over 0.6 s: largest position difference %.3g m\n", largest);
  EXPECT_LT(largest, 1e-8);
  EXPECT_GT(fast.stepper->contact_forces()->size(), 8u);  // the boxes touch the plane and each other
}

}  // namespace
}  // namespace softsim

namespace softsim {
namespace {

// Zeng & Courtecuisse 2023, Fig. 2: a soft cube grasped between two plates that squeeze it and
// then turn it about the z axis by 90 degrees in 0.5 s (gravity on, mu = 0.8). One linearisation
// per step (N = 1) leaves the contacts' directions those of the free motion; re-evaluating them
// (N = 5) follows the turning surfaces.
struct GraspResult {
  double deepest = HUGE_VAL;  // smallest contact gap after any step (m)
  double lag = 0.0;           // largest distance of the cube's centre from the plates' axis (m)
  double slip = 0.0;          // the cube's turn minus the plates' at the end (degrees)
};

GraspResult run_grasp(int newton_iterations, double turn_time, const std::string& update = "fast") {
  const double side = 0.1, plate = 0.02, squeeze = 0.004, squeeze_time = 0.2;
  auto box = [](const std::string& name, const Vec3& size, const Eigen::Vector3i& cells, const Vec3& at, double E) {
    return nlohmann::json{{"name", name},
                          {"generator", {{"type", "box"}, {"size", {size.x(), size.y(), size.z()}}, {"resolution", {cells.x(), cells.y(), cells.z()}}}},
                          {"transform", {{"translate", {at.x(), at.y(), at.z()}}}},
                          {"material", {{"E", E}, {"nu", 0.3}, {"density", 1000}}}};
  };
  const double px = 0.5 * side + 0.5 * plate + 1e-4;
  const nlohmann::json json = {
      {"dim", 3},
      {"time", {{"dt", 0.01}, {"steps", 1}}},
      {"bodies",
       {box("cube", Vec3::Constant(side), Eigen::Vector3i::Constant(3), Vec3::Zero(), 5e4),
        box("left", Vec3(plate, 0.14, 0.14), {1, 2, 2}, Vec3(-px, 0, 0), 1e8),
        box("right", Vec3(plate, 0.14, 0.14), {1, 2, 2}, Vec3(px, 0, 0), 1e8)}},
      {"contact",
       {{"type", "constraint"},
        {"friction", {{"mu", 0.8}}},
        {"constraint", {{"update", update}, {"newton_iterations", newton_iterations}}}}}};
  const Scene scene = parse_scene(json, "grasp.json");
  Model model = build_model(scene);
  const int dim = 3;
  for (int b = 1; b <= 2; ++b) {
    const Body& body = model.bodies[static_cast<std::size_t>(b)];
    const double inward = b == 1 ? 1.0 : -1.0;
    for (int i = 0; i < body.mesh.num_vertices(); ++i) {
      const int v = body.first_vertex + i;
      const Vec3 X = model.rest_positions.segment<3>(dim * v);
      PrescribedMotion motion;
      motion.vertices = {v};
      motion.offset = [=](double t) -> VecX {
        const double s = squeeze * std::min(1.0, t / squeeze_time);
        const double angle = 0.5 * M_PI * std::clamp((t - squeeze_time) / turn_time, 0.0, 1.0);
        const Vec3 moved = Eigen::AngleAxisd(angle, Vec3::UnitZ()) * (X + Vec3(inward * s, 0, 0));
        return moved - X;
      };
      model.boundary.add_motion(motion);
    }
  }
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  GraspResult r;
  const Body& cube = model.bodies[0];
  const int steps = static_cast<int>(std::lround((squeeze_time + turn_time + 0.2) / 0.01));
  for (int s = 0; s < steps; ++s) {
    EXPECT_TRUE(stepper->step(state, 0.01).converged);
    r.deepest = std::min(r.deepest, end_gap(model, state.x));
    Vec3 centre = Vec3::Zero();
    for (int i = 0; i < cube.mesh.num_vertices(); ++i) centre += state.x.segment<3>(dim * (cube.first_vertex + i));
    centre /= cube.mesh.num_vertices();
    r.lag = std::max(r.lag, centre.head<2>().norm());
  }
  // The cube's turn about z: the least-squares rotation of its vertices about their centre.
  Vec3 centre = Vec3::Zero(), rest_centre = Vec3::Zero();
  const int n = cube.mesh.num_vertices();
  for (int i = 0; i < n; ++i) {
    centre += state.x.segment<3>(dim * (cube.first_vertex + i)) / n;
    rest_centre += model.rest_positions.segment<3>(dim * (cube.first_vertex + i)) / n;
  }
  double cross = 0.0, dot = 0.0;
  for (int i = 0; i < n; ++i) {
    const Vec3 a = model.rest_positions.segment<3>(dim * (cube.first_vertex + i)) - rest_centre;
    const Vec3 b = state.x.segment<3>(dim * (cube.first_vertex + i)) - centre;
    cross += a.x() * b.y() - a.y() * b.x();
    dot += a.x() * b.x() + a.y() * b.y();
  }
  r.slip = std::atan2(cross, dot) * 180.0 / M_PI - 90.0;
  return r;
}

TEST(ConstraintContact, RecursiveCorrectionFollowsARotatingGrasp) {
  for (double turn_time : {0.5, 0.2}) {
    const GraspResult standard = run_grasp(1, turn_time), recursive = run_grasp(5, turn_time);
    std::printf("grasp turned 90 degrees in %.1f s: N = 1: deepest gap %.3g m, centre off axis %.3g m, slip %.3g deg; "
                "N = 5: %.3g m, %.3g m, %.3g deg\n",
                turn_time, standard.deepest, standard.lag, standard.slip, recursive.deepest, recursive.lag, recursive.slip);
    EXPECT_GT(recursive.deepest, -1e-3 * 0.14);
    EXPECT_GT(standard.deepest, -1e-3 * 0.14);
    // Re-evaluated directions cut the penetration left by one linearisation at least tenfold
    // (measured: 80x; docs/constraint-contact.md).
    EXPECT_LT(standard.deepest, 0.0);
    EXPECT_GT(recursive.deepest, 0.1 * standard.deepest);
    // The cube turns with the plates (friction holds it) in both.
    EXPECT_LT(std::abs(recursive.slip), 0.1);
    EXPECT_NEAR(standard.slip, recursive.slip, 0.01);
  }
}

}  // namespace
}  // namespace softsim

namespace softsim {
namespace {

double largest_motion(const VecX& a, const VecX& b, const Body& body) {
  return (a.segment(3 * body.first_vertex, 3 * body.mesh.num_vertices()) -
          b.segment(3 * body.first_vertex, 3 * body.mesh.num_vertices()))
      .cwiseAbs()
      .maxCoeff();
}

// contact.friction.pairs: the same slope, one block on a pair with mu = 0.1 < tan 10 degrees
// (slides), one with mu = 0.3 (sticks).
TEST(ConstraintContact, FrictionCoefficientsPerPair) {
  nlohmann::json json = slope_scene(0.0, 0.0, 0.01);
  nlohmann::json grip = json["bodies"][0];
  grip["name"] = "grip";
  grip["transform"]["translate"] = {0.0, 0.1, 0.5};
  json["bodies"][0]["name"] = "slider";
  json["bodies"].push_back(grip);
  json["obstacles"][0]["name"] = "ground";
  json["contact"]["friction"]["pairs"] = {{{"bodies", {"slider", "ground"}}, {"mu", 0.1}},
                                          {{"bodies", {"grip", "ground"}}, {"mu", 0.3}}};
  ConstraintRun run(json);
  run.step(0.01);
  const VecX settled = run.state.x;
  for (int s = 1; s < 100; ++s) {
    ASSERT_TRUE(run.step(0.01).converged);
    ASSERT_GT(run.min_gap(), -1e-9);
  }
  // The slider accelerates at a = g (sin - 0.1 cos) = 0.74 m/s^2; backward Euler's velocity after
  // n steps is a n h, so from step 1 to step 100 it moves a h^2 (100 * 101 / 2 - 1) = 0.372 m.
  const double slid = largest_motion(run.state.x, settled, run.model.bodies[0]);
  const double gripped = largest_motion(run.state.x, settled, run.model.bodies[1]);
  std::printf("per-pair friction, 1 s: mu = 0.1 block moved %.3g m, mu = 0.3 block %.3g m\n", slid, gripped);
  const double a = BlockSlide::kG * (std::sin(BlockSlide::theta()) - 0.1 * std::cos(BlockSlide::theta()));
  const double expected = a * 0.01 * 0.01 * (100.0 * 101.0 / 2.0 - 1.0);
  EXPECT_NEAR(slid, expected, 1e-3 * expected);
  EXPECT_LT(gripped, 1e-6);
}

// A box dropped on a static triangle-mesh ground (scenes/meshes/plate.obj, scaled to 2 m).
TEST(ConstraintContact, BoxRestsOnAMeshObstacle) {
  const nlohmann::json json = {
      {"dim", 3},
      {"time", {{"dt", 0.01}, {"steps", 1}}},
      {"bodies",
       {{{"name", "box"},
         {"generator", {{"type", "box"}, {"size", {0.2, 0.2, 0.2}}, {"resolution", {2, 2, 2}}}},
         {"transform", {{"rotate", {0, 20, 0}}, {"translate", {0.1, 0.11, 0.05}}}},
         {"material", {{"E", 1e5}, {"nu", 0.3}, {"density", 1000}}}}}},
      {"obstacles",
       {{{"name", "ground"}, {"type", "mesh"}, {"mesh", "meshes/plate.obj"}, {"transform", {{"scale", 2.0}}}}}},
      {"contact", {{"type", "constraint"}, {"friction", {{"mu", 0.5}}}}}};
  const Scene scene = parse_scene(json, std::string(SOFTSIM_SOURCE_DIR) + "/scenes/mesh_ground.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  double deepest = HUGE_VAL;
  for (int s = 0; s < 100; ++s) {
    ASSERT_TRUE(stepper->step(state, 0.01).converged);
    deepest = std::min(deepest, end_gap(model, state.x));
  }
  const auto X = as_rows(state.x, 3);
  std::printf("box on a mesh ground after 1 s: lowest vertex y = %.3g m, deepest gap %.3g m, fastest %.3g m/s\n",
              X.col(1).minCoeff(), deepest, state.v.cwiseAbs().maxCoeff());
  EXPECT_GT(deepest, -1e-3 * 0.3);
  EXPECT_NEAR(X.col(1).minCoeff(), 0.0, 1e-6);
  EXPECT_LT(state.v.cwiseAbs().maxCoeff(), 1e-3);
  // The force on the box: a box vertex against the ground takes f, a ground vertex against a box
  // face gives the box -f.
  double normal = 0.0;
  for (const ContactForce& f : *stepper->contact_forces())
    normal += f.stencil.ids[0] < model.num_vertices() ? f.force[1] : -f.force[1];
  EXPECT_NEAR(normal, model.total_mass() * 9.81, 1e-3 * model.total_mass() * 9.81);
}

// Self-contact: a hollow box (a closed box with a flat cavity) crushed from above until its
// cavity's ceiling meets its floor; the cavity's faces must not pass through each other.
TEST(ConstraintContact, CrushedCavityClosesWithoutSelfPenetration) {
  const nlohmann::json json = {
      {"dim", 3},
      {"time", {{"dt", 0.01}, {"steps", 1}}},
      {"gravity", {0, 0, 0}},
      {"bodies",
       {{{"name", "hollow"},
         {"generator",
          {{"type", "hollow_box"}, {"size", {0.2, 0.1, 0.2}}, {"resolution", {5, 3, 5}}, {"wall", 1}}},
         {"transform", {{"translate", {0, 0.05, 0}}}},
         {"material", {{"model", "stable_neo_hookean"}, {"E", 1e5}, {"nu", 0.3}, {"density", 1000}}},
         {"fixed",
          {{{"box", {{-1, -0.01, -1}, {1, 0.001, 1}}}},
           {{"box", {{-1, 0.099, -1}, {1, 0.11, 1}}}, {"path", {{0.0, 0.0, 0.0, 0.0}, {0.5, 0.0, -0.045, 0.0}}}}}}}}},
      {"contact", {{"type", "constraint"}}}};
  ConstraintRun run(json);
  double deepest = HUGE_VAL;
  int self_contacts = 0;
  for (int s = 0; s < 60; ++s) {
    ASSERT_TRUE(run.step(0.01).converged);
    deepest = std::min(deepest, run.min_gap());
    for (const ContactForce& f : *run.stepper->contact_forces())
      if (f.normal_force > 0.0) ++self_contacts;  // one body, no obstacle: every contact is self-contact
  }
  std::printf("crushed cavity: %d loaded self-contacts over the run, deepest gap %.3g m\n", self_contacts, deepest);
  EXPECT_GT(self_contacts, 0);
  EXPECT_GT(deepest, -1e-3 * 0.2);
}

}  // namespace
}  // namespace softsim
