// Reduced deformable bodies (bodies[i].reduction, docs/subspace-bodies.md): positions
// x = x0 + U q solved for the r coordinates q by the implicit stages, every energy, load and
// contact term evaluated in positions.
//  - All modes (r = the free DOF count) reproduce the full simulation to solver tolerance.
//  - A POD basis of a run's own states reproduces that run (its trajectory lies in the basis,
//    so it solves the Galerkin-projected equations), through a basis file.
//  - The book's 2D cantilever (Li & Jiang 2025, ch. 26: E = 5e7 Pa, nu = 0.3, rho = 500 kg/m^3,
//    15 m x 1 m): its first two frequencies converge to Euler-Bernoulli under refinement.
//  - The same cantilever sagging under a load (tip deflection 8% of its length) over 2 s: 20
//    modes mixed with modal derivatives track the full nonlinear run to about 1%, also with
//    cubature (a few of the 480 elements, weighted); 20 linear modes lock (they cannot shorten the beam's projection as it bends: the book's large-deflection
//    test), which is why the derivatives are there.
//  - A free reduced square (rigid modes included) falls onto the ground: lands, settles, no
//    intersection.
//  - Refusals: explicit integrators, moving fixed vertices, a held body with an initial velocity,
//    a basis file of another body.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numbers>

#include "softsim/core/errors.hpp"
#include "softsim/integrate/reduced_incremental_potential.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/reduced_basis_file.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/subspace/body_bases.hpp"
#include "support/contact_scene.hpp"
#include "support/temp_dir.hpp"

namespace softsim {
namespace {

// A 2D cantilever held at its left end, released from rest under gravity g.
nlohmann::json cantilever(double length, double height, int nx, int ny, double E, double density, double g,
                          double tolerance = 1e-10) {
  nlohmann::json j = R"json({
    "dim": 2, "integrator": {"type": "implicit_midpoint"},
    "bodies": [{"name": "beam", "generator": {"type": "rectangle"},
                "material": {"model": "neo_hookean", "nu": 0.3}}]
  })json"_json;
  j["gravity"] = {0.0, -g};
  j["solver"]["tolerance"] = tolerance;
  auto& body = j["bodies"][0];
  body["generator"]["size"] = {length, height};
  body["generator"]["resolution"] = {nx, ny};
  body["material"]["E"] = E;
  body["material"]["density"] = density;
  body["fixed"] = nlohmann::json::array({{{"box", {{-0.5 * length - 0.01, -height}, {-0.5 * length + 0.01, height}}}}});
  return j;
}

// Positions after each of `steps` steps of h.
std::vector<VecX> trajectory(const nlohmann::json& j, int steps, double h) {
  const Scene scene = parse_scene(j, "cantilever.json");
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  auto stepper = make_stepper(model, scene.integrator);
  std::vector<VecX> out;
  for (int n = 0; n < steps; ++n) {
    const StepResult r = stepper->step(state, h);
    EXPECT_TRUE(r.converged) << "step " << n << ": " << r.failure;
    out.push_back(state.x);
  }
  return out;
}

double largest_difference(const std::vector<VecX>& a, const std::vector<VecX>& b) {
  double worst = 0.0;
  for (std::size_t n = 0; n < a.size(); ++n) worst = std::max(worst, (a[n] - b[n]).lpNorm<Eigen::Infinity>());
  return worst;
}

TEST(ReducedBody, AllModesReproduceTheFullRun) {
  const nlohmann::json full = cantilever(4.0, 0.5, 16, 2, 1e6, 1000, 9.81);
  nlohmann::json reduced = full;
  reduced["bodies"][0]["reduction"] = {{"basis", "modes"}, {"size", 1000}};  // clamped to the 96 free DOFs
  const Model model = build_model(parse_scene(reduced, "cantilever.json"));
  EXPECT_EQ(model.subspace.num_coordinates(), 17 * 3 * 2 - 3 * 2);
  const std::vector<VecX> a = trajectory(full, 50, 0.01), b = trajectory(reduced, 50, 0.01);
  const double sag = (a.back() - model.rest_positions).lpNorm<Eigen::Infinity>();
  const double difference = largest_difference(a, b);
  std::printf("all modes against the full run: largest difference %.3g m (sag %.3g m)\n", difference, sag);
  EXPECT_GT(sag, 0.01);
  EXPECT_LT(difference, 1e-8 * 4.0);
}

TEST(ReducedBody, PodOfARunReproducesItThroughABasisFile) {
  const nlohmann::json full = cantilever(4.0, 0.5, 16, 2, 1e6, 1000, 9.81);
  const int steps = 30;
  const std::vector<VecX> a = trajectory(full, steps, 0.01);
  const Model model = build_model(parse_scene(full, "cantilever.json"));
  MatX snapshots(model.num_dofs(), steps);
  for (int n = 0; n < steps; ++n) snapshots.col(n) = a[n];
  const ReducedBasis pod = pod_basis(model, 0, snapshots, steps);
  test::TempDir dir("pod_basis");
  const auto file = dir.path() / "beam.basis.json";
  write_reduced_basis(file, "beam", pod);
  const ReducedBasis back = read_reduced_basis(file);
  EXPECT_EQ(back.columns, pod.columns);  // 17 significant digits: the same doubles
  EXPECT_EQ(back.kind, ReducedBasisKind::pod);
  nlohmann::json reduced = full;
  reduced["bodies"][0]["reduction"] = {{"file", file.string()}};
  const std::vector<VecX> b = trajectory(reduced, steps, 0.01);
  const double difference = largest_difference(a, b);
  const double sag = (a.back() - model.rest_positions).lpNorm<Eigen::Infinity>();
  std::printf("POD of the run (%d columns) against the run: largest difference %.3g m (sag %.3g m)\n", pod.size(),
              difference, sag);
  // Mass-PCA drops the directions with less than 1e-12 of the first's energy (1e-6 of its
  // amplitude): the run is reproduced to about that.
  EXPECT_GE(pod.size(), 5);
  EXPECT_LT(difference, 1e-5 * sag);
}

TEST(ReducedBody, BookCantileverFrequenciesConvergeToEulerBernoulli) {
  // Plane strain: the beam's modulus is E / (1 - nu^2); I = H^3 / 12 and A = H per unit depth.
  const double E = 5e7 / (1.0 - 0.3 * 0.3), L = 15.0, H = 1.0, rho = 500.0;
  const double scale = std::sqrt(E * H * H * H / 12.0 / (rho * H * std::pow(L, 4))) / (2.0 * std::numbers::pi);
  const double f1 = 1.87510407 * 1.87510407 * scale, f2 = 4.69409113 * 4.69409113 * scale;
  double previous = HUGE_VAL;
  for (int level = 0; level < 4; ++level) {
    const int nx = 15 << level, ny = 1 << level;
    // The basis a reduced body with {"basis": "modes", "size": 4} gets.
    const Model model = build_model(parse_scene(cantilever(L, H, nx, ny, 5e7, rho, 0.0), "book_cantilever.json"));
    const ReducedBasis modes = modal_basis(model, 0, 4);
    const VecX hz = modes.values.cwiseSqrt() / (2.0 * std::numbers::pi);
    const double error1 = std::abs(hz[0] - f1) / f1, error2 = std::abs(hz[1] - f2) / f2;
    std::printf("%3d x %d cells: f1 %.4f Hz (Euler-Bernoulli %.4f, error %.2f%%), f2 %.4f Hz (%.4f, %.2f%%)\n", nx, ny,
                hz[0], f1, 100 * error1, hz[1], f2, 100 * error2);
    // Linear triangles are stiff in bending: the error falls by about 4 per halving of the cells.
    EXPECT_LT(error1, previous / 3.0);
    previous = error1;
    if (level == 3) {
      EXPECT_LT(error1, 0.025);
      EXPECT_LT(error2, 0.02);
    }
  }
}

TEST(ReducedBody, ModalDerivativesTrackTheNonlinearCantileverWhereLinearModesLock) {
  const nlohmann::json full = cantilever(15.0, 1.0, 60, 4, 5e7, 500, 0.981, 1e-6);
  nlohmann::json modes = full, derivatives = full, cubature = full;
  modes["bodies"][0]["reduction"] = {{"basis", "modes"}, {"size", 20}};
  derivatives["bodies"][0]["reduction"] = {{"basis", "modes+derivatives"}, {"size", 20}};
  cubature["bodies"][0]["reduction"] = {{"basis", "modes+derivatives"}, {"size", 20}, {"cubature", {{"elements", 200}, {"tolerance", 0.001}}}};
  const int steps = 200;  // 2 s
  const std::vector<VecX> a = trajectory(full, steps, 0.01);
  const std::vector<VecX> b = trajectory(modes, steps, 0.01), c = trajectory(derivatives, steps, 0.01),
                          d = trajectory(cubature, steps, 0.01);
  const Model model = build_model(parse_scene(full, "cantilever.json"));
  double deflection = 0.0;
  for (const VecX& x : a) deflection = std::max(deflection, (x - model.rest_positions).lpNorm<Eigen::Infinity>());
  const double error_modes = largest_difference(a, b) / deflection, error_derivatives = largest_difference(a, c) / deflection,
               error_cubature = largest_difference(a, d) / deflection;
  std::printf("largest deflection %.3f m; largest error relative to it over 2 s: 20 modes %.3g, 20 modes+derivatives "
              "%.3g, the same with cubature %.3g\n",
              deflection, error_modes, error_derivatives, error_cubature);
  EXPECT_GT(deflection, 1.0);
  EXPECT_LT(error_derivatives, 0.03);
  EXPECT_LT(error_cubature, 0.05);
  EXPECT_GT(error_modes, 0.3);
}

TEST(ReducedBody, FreeReducedSquareLandsWithoutIntersection) {
  const nlohmann::json j = R"json({
    "dim": 2, "gravity": [0, -9.81], "time": {"dt": 0.01, "end": 0.6},
    "bodies": [{"name": "square", "generator": {"type": "rectangle", "size": [0.4, 0.4], "resolution": [4, 4]},
                "material": {"E": 1e5, "nu": 0.3, "density": 1000}, "transform": {"translate": [0, 0.5]},
                "reduction": {"basis": "modes", "size": 10}}],
    "obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 1]}],
    "contact": {"dhat": 0.002}
  })json"_json;
  const Scene scene = parse_scene(j, "square.json");
  Model model = build_model(scene);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  double lowest = HUGE_VAL;
  const test::RunStats stats = test::run_scene(scene, model, state, scene.steps, [&](int, const StepResult&, const Stepper&) {
    lowest = std::min(lowest, as_rows(state.x, 2).col(1).minCoeff());
  });
  test::print_stats("reduced square drop", stats);
  const double speed = test::max_speed(model, state.v);
  std::printf("largest vertex speed at the end: %.3g m/s\n", speed);
  EXPECT_EQ(stats.failed_steps, 0);
  EXPECT_EQ(stats.max_intersections, 0u);
  // Falls 0.3 m (0.25 s), lands and stays on the ground, above it; 0.35 s later it is settling
  // (largest vertex speed 0.05 m/s, against 2.4 m/s at landing).
  EXPECT_GT(lowest, 0.0);
  EXPECT_LT(as_rows(state.x, 2).col(1).minCoeff(), 0.002);
  EXPECT_LT(speed, 0.2);
  EXPECT_LT(model.subspace.distance_from_range(state.x), 1e-10);
}

// A handle: the free end of a clamped beam (no gravity) pulled up by a penalty-driven motion at
// 0.5 m/s for 0.1 s. The end's vertices stay free in the reduced basis (modes and their
// derivatives, cubature), which follows them: both ends rise the 0.05 m of the motion's limit (the
// penalty re-solves until its targets are met within the solver's tolerance x h).
TEST(ReducedBody, PenaltyDrivenHandleDragsTheReducedBodyAsTheFullOne) {
  nlohmann::json full = cantilever(2.0, 0.25, 12, 2, 1e5, 1000, 0.0, 1e-6);
  full["integrator"]["type"] = "backward_euler";
  full["bodies"][0]["fixed"].push_back(
      {{"box", {{0.99, -1.0}, {1.01, 1.0}}}, {"method", "penalty"}, {"velocity", {0.0, 0.5}}, {"limit", 0.05}});
  nlohmann::json reduced = full;
  reduced["bodies"][0]["reduction"] = {{"basis", "modes+derivatives"}, {"size", 12}, {"cubature", {{"elements", 24}}}};
  const Model model = build_model(parse_scene(full, "handle.json"));
  const std::vector<VecX> a = trajectory(full, 10, 0.01), b = trajectory(reduced, 10, 0.01);
  auto end_rise = [&](const VecX& x) {  // mean rise of the vertices at x = 1
    double sum = 0.0;
    int count = 0;
    for (int v = 0; v < model.num_vertices(); ++v)
      if (model.rest_positions[2 * v] > 0.99) {
        sum += x[2 * v + 1] - model.rest_positions[2 * v + 1];
        ++count;
      }
    return sum / count;
  };
  const double rise_full = end_rise(a.back()), rise_reduced = end_rise(b.back());
  std::printf("handle: end rises %.6g m (full), %.6g m (reduced), target 0.05 m\n", rise_full, rise_reduced);
  EXPECT_NEAR(rise_full, 0.05, 1e-4);
  EXPECT_NEAR(rise_reduced, rise_full, 1e-4);
  // Evaluated in coordinates, the handle's penalty in positions and pulled back.
  EXPECT_EQ(reduced_evaluation_obstacle(build_model(parse_scene(reduced, "handle.json"))), "");
}

TEST(ReducedBody, RefusesWhatLeavesTheSubspace) {
  const nlohmann::json base = [] {
    nlohmann::json j = cantilever(4.0, 0.5, 8, 1, 1e6, 1000, 9.81);
    j["bodies"][0]["reduction"] = {{"basis", "modes"}, {"size", 6}};
    return j;
  }();
  auto message = [](const nlohmann::json& j) -> std::string {
    try {
      build_model(parse_scene(j, "r.json"));
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  nlohmann::json explicit_integrator = base;
  explicit_integrator["integrator"]["type"] = "symplectic_euler";
  EXPECT_NE(message(explicit_integrator).find("a reduced body needs an implicit integrator"), std::string::npos);
  nlohmann::json moving = base;
  moving["bodies"][0]["fixed"][0]["velocity"] = {0.1, 0.0};
  EXPECT_NE(message(moving).find("cannot move them (drive them with \"method\": \"penalty\")"), std::string::npos)
      << message(moving);
  nlohmann::json thrown = base;
  thrown["bodies"][0]["initial_velocity"] = {1.0, 0.0};
  EXPECT_NE(message(thrown).find("initial velocity is not a motion of its basis"), std::string::npos);
  nlohmann::json pod = base;
  pod["bodies"][0]["reduction"] = {{"basis", "pod"}, {"size", 6}};
  EXPECT_NE(message(pod).find("bodies[0].reduction.basis"), std::string::npos);
  // A basis of another mesh.
  test::TempDir dir("other_basis");
  const Model other = build_model(parse_scene(cantilever(4.0, 0.5, 16, 2, 1e6, 1000, 9.81), "other.json"));
  write_reduced_basis(dir.path() / "other.json", "beam", modal_basis(other, 0, 4));
  nlohmann::json mismatched = base;
  mismatched["bodies"][0]["reduction"] = {{"file", (dir.path() / "other.json").string()}};
  const std::string m = message(mismatched);
  EXPECT_NE(m.find("other.json: a basis of 51 vertices in 2D"), std::string::npos) << m;
}

}  // namespace
}  // namespace softsim
