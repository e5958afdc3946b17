// A pile of rigid affine boxes (docs/subspace-bodies.md): N boxes of 0.1 m (one cell, 8 vertices,
// 5 tetrahedra, 12 coordinates each), slightly turned, dropped in a lattice into an open
// container (a static mesh obstacle), IPC contact with friction mu 0.3, backward Euler, h = 0.01.
// Every frame is checked for intersections with the exact test of the test suite (the boxes'
// surfaces and the container's triangles). Prints one row per N: time per step, Newton
// iterations per step, intersections, and how far the boxes are from rest at the end; exits 1
// if a frame intersected or a step failed. The scene is tests/support/affine_pile.hpp.
//   bench_affine_pile [--bodies 50,200,800] [--steps 150] [--threads N] [--rigid-tolerance 1e-6]
//                     [--stiffness kappa] [--mu 0.3] [--newton-tolerance v] [--smoothing c1|rational]
//                     [--eps-v v] [--project-psd 0|1] [--moving K]
// --rigid-tolerance: the boxes' affine.tolerance (1 in effect turns the stiffening off);
// --stiffness: the boxes' starting affine.stiffness (Pa; default the scene format's, 1e8);
// --mu: the friction coefficient (0: frictionless).
// --newton-tolerance: solver.tolerance (m/s; default the scene format's: eps_v / 10 with friction,
// 1e-2 without), so that piles with and without friction can be compared at one tolerance;
// --smoothing, --eps-v: contact.friction.smoothing and eps_v (default c1, 1e-3 m/s).
// --project-psd 0: solver.project_psd false (the Hessian unprojected while it factorizes).
// --moving K: every 50 steps, how many boxes move faster than 0.05 m/s; at the end, the K fastest
// boxes (centre, speed, distance to the nearest wall), to see which boxes keep a pile from rest.
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../tests/support/affine_pile.hpp"
#include "../tests/support/contact_scene.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;

namespace {

struct PileResult {
  int bodies = 0, steps = 0, newton = 0, failed = 0;
  std::size_t intersections = 0;
  double seconds = 0.0, check_seconds = 0.0, final_speed = 0.0;
  int coordinates = 0;
};

// What the command line changes in the scene; a value left at its default leaves the scene's.
struct PileOptions {
  int steps = 150;
  double rigid_tolerance = 1e-6, stiffness = 0.0, mu = -1.0, newton_tolerance = 0.0, eps_v = 0.0;
  std::string smoothing;
  int project_psd = -1;  // -1: the scene format's default
  int moving = 0;
};

constexpr int kBoxVertices = 8;  // one cell each, the boxes' vertices in order

// Box b's largest vertex speed.
double box_speed(const VecX& v, int b) {
  double fastest = 0.0;
  for (int k = 0; k < kBoxVertices; ++k) fastest = std::max(fastest, v.segment<3>(3 * (kBoxVertices * b + k)).norm());
  return fastest;
}

// Every box's speed (box_speed).
void box_speeds(const VecX& v, std::vector<double>& speeds) {
  for (std::size_t b = 0; b < speeds.size(); ++b) speeds[b] = box_speed(v, static_cast<int>(b));
}

// The K fastest boxes at the end (`speeds`: box_speeds of state.v): where they are and how fast
// they move.
void print_moving(const test::AffinePile& pile, const State& state, const std::vector<double>& speeds, int k) {
  const int n = static_cast<int>(speeds.size());
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int b = 0; b < n; ++b) order[static_cast<std::size_t>(b)] = b;
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return speeds[static_cast<std::size_t>(a)] > speeds[static_cast<std::size_t>(b)]; });
  const double half = pile.container_vertices.col(0).maxCoeff();
  std::printf("  fastest boxes at t = %.2f s (box, centre x y z, speed m/s, distance to the nearest wall m):\n", state.t);
  for (int i = 0; i < std::min(k, n); ++i) {
    const int b = order[static_cast<std::size_t>(i)];
    Vec3 centre = Vec3::Zero();
    for (int v = 0; v < kBoxVertices; ++v) centre += state.x.segment<3>(3 * (kBoxVertices * b + v)) / kBoxVertices;
    const double wall = half - std::max(std::abs(centre.x()), std::abs(centre.z()));
    std::printf("    %4d  %7.3f %7.3f %7.3f  %.3g  %.3f\n", b, centre.x(), centre.y(), centre.z(),
                speeds[static_cast<std::size_t>(b)], wall);
  }
}

PileResult run_pile(int n, const PileOptions& o, const std::filesystem::path& dir) {
  test::AffinePile pile = test::affine_pile(n, o.steps, o.rigid_tolerance, dir);
  nlohmann::json& friction = pile.scene["contact"]["friction"];
  if (o.mu >= 0.0) friction["mu"] = o.mu;
  if (o.eps_v > 0.0) friction["eps_v"] = o.eps_v;
  if (!o.smoothing.empty()) friction["smoothing"] = o.smoothing;
  if (o.newton_tolerance > 0.0) pile.scene["solver"]["tolerance"] = o.newton_tolerance;
  if (o.project_psd >= 0) pile.scene["solver"]["project_psd"] = o.project_psd == 1;
  if (o.stiffness > 0.0)
    for (auto& b : pile.scene["bodies"]) b["affine"]["stiffness"] = o.stiffness;
  const Scene scene = parse_scene(pile.scene, (dir / "pile.json").string());
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const Eigen::MatrixXi boxes = test::surface_primitives(model);
  PileResult r;
  r.bodies = n;
  r.coordinates = model.subspace.num_coordinates();
  std::vector<double> speeds(static_cast<std::size_t>(n), 0.0), previous_speeds = speeds;
  for (int s = 0; s < o.steps; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    const StepResult step = stepper->step(state, scene.dt);
    const auto t1 = std::chrono::steady_clock::now();
    r.seconds += std::chrono::duration<double>(t1 - t0).count();
    r.newton += step.newton_iterations;
    r.failed += step.converged ? 0 : 1;
    ++r.steps;
    r.intersections = std::max(r.intersections, test::pile_intersections(model, boxes, pile, state.x));
    r.check_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    if (!step.converged) break;
    if (o.moving == 0) continue;
    previous_speeds.swap(speeds);
    box_speeds(state.v, speeds);
    for (int b = 0; b < n; ++b) {  // a box that was nearly at rest and is kicked
      const double before = previous_speeds[static_cast<std::size_t>(b)], now = speeds[static_cast<std::size_t>(b)];
      if (before < 0.05 && now > 0.2)
        std::printf("  step %d (t = %.2f s): box %d from %.3g to %.3g m/s (%d Newton iterations, step %.3g)\n", s + 1,
                    state.t, b, before, now, step.newton_iterations, step.residual);
    }
    if ((s + 1) % 50 == 0) {
      const auto fast = std::count_if(speeds.begin(), speeds.end(), [](double v) { return v > 0.05; });
      std::printf("  step %d (t = %.2f s): %d boxes faster than 0.05 m/s, fastest %.3g m/s\n", s + 1, state.t,
                  static_cast<int>(fast), test::max_speed(model, state.v));
      std::fflush(stdout);
    }
  }
  r.final_speed = test::max_speed(model, state.v);
  if (o.moving > 0) {
    box_speeds(state.v, speeds);  // a failed last step left the loop before its speeds
    print_moving(pile, state, speeds, o.moving);
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> counts{50, 200, 800};
  int threads = 0;
  PileOptions options;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--bodies") && i + 1 < argc) {
      counts.clear();
      std::stringstream list(argv[++i]);
      for (std::string item; std::getline(list, item, ',');) counts.push_back(std::stoi(item));
    } else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) {
      options.steps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--rigid-tolerance") && i + 1 < argc) {
      options.rigid_tolerance = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--mu") && i + 1 < argc) {
      options.mu = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--stiffness") && i + 1 < argc) {
      options.stiffness = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--newton-tolerance") && i + 1 < argc) {
      options.newton_tolerance = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--eps-v") && i + 1 < argc) {
      options.eps_v = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--project-psd") && i + 1 < argc) {
      options.project_psd = std::atoi(argv[++i]) != 0 ? 1 : 0;
    } else if (!std::strcmp(argv[i], "--smoothing") && i + 1 < argc) {
      options.smoothing = argv[++i];
    } else if (!std::strcmp(argv[i], "--moving") && i + 1 < argc) {
      options.moving = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "unknown or incomplete argument %s (see the comment at the top of bench_affine_pile.cpp)\n",
                   argv[i]);
      return 2;
    }
  }
  std::unique_ptr<tbb::global_control> limit;
  if (threads > 0) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "softsim_affine_pile";
  std::filesystem::create_directories(dir);
  std::printf("| boxes | coordinates | steps | ms per step | Newton its per step | failed steps | max intersections | "
              "final max speed (m/s) |\n|---|---|---|---|---|---|---|---|\n");
  bool all_sound = true;
  for (int n : counts) {
    PileResult r;
    try {
      r = run_pile(n, options, dir);
    } catch (const std::exception& e) {  // a bad option value reaches the scene's reader
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    }
    all_sound = all_sound && r.intersections == 0 && r.failed == 0;
    std::printf("| %d | %d | %d | %.1f | %.2f | %d | %zu | %.3g |\n", r.bodies, r.coordinates, r.steps,
                1e3 * r.seconds / r.steps, double(r.newton) / r.steps, r.failed, r.intersections, r.final_speed);
    std::fflush(stdout);
  }
  std::filesystem::remove_all(dir);
  // A pile that intersected or failed a step is not a figure to report: exit non-zero.
  return all_sound ? 0 : 1;
}
