// Reduced deformable bodies against the full simulation (docs/subspace-bodies.md): a 3D
// cantilever 1 x 0.1 x 0.1 m (neo-Hookean, E = 1e6 Pa, nu = 0.3, rho = 1000 kg/m^3) held at one
// end and sagging under gravity, backward Euler, h = 0.01, at three mesh sizes (900, 9800 and
// 102400 tetrahedra). For each: the time to make the basis, the time per step of the full model
// and of the reduced one (r coordinates), their ratio, Newton iterations per step, and the largest
// distance of a reduced vertex from the full run's after the steps.
//   bench_reduced_body [--levels 0,1,2] [--steps 5] [--size 20] [--basis modes|modes+derivatives]
//                      [--cubature T] [--modal] [--reduced-only] [--write-positions] [--ground GAP]
//                      [--threads N] [--integrator NAME] [--beta B]
// --cubature T: the reduced body evaluates at most T elements, weighted (0: all elements).
// --modal: the reduced body is stepped by integrator.type "modal" (its dynamics linearised at
// rest, in closed form) instead of backward Euler; "basis s" then includes the decomposition.
// --write-positions: every step writes the positions, also where the reduced model is stepped in
// its coordinates (cubature): by default they are written once, after the timed steps ("write
// ms", the products x = offset + B y, v = B y_dot), as a run writes them for its frames only.
// --ground GAP: a ground plane GAP m below the beam, with IPC contact (dhat 1 mm, frictionless;
// self-contact on, as by default): the sagging tip lands on it after a few steps. A reduced body
// then evaluates its cubature in coordinates and the contact in positions.
// --integrator NAME: integrator.type of both runs (default backward_euler; e.g. bdf2, trapezoidal).
// --beta B: stiffness-proportional (Rayleigh) damping beta K(x^n) in both runs (s).
// --reduced-only: skip the full model (its columns print nan; "basis s" includes the mesh), to
// time many reduced steps or profile them.
#include <tbb/global_control.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

nlohmann::json cantilever(int nx, int ny, int nz, double ground_gap) {
  nlohmann::json j = {{"dim", 3},
                      {"gravity", {0, -9.81, 0}},
                      {"contact", {{"enabled", false}}},
                      {"integrator", {{"type", "backward_euler"}}}};
  if (ground_gap > 0.0) {
    j["contact"] = {{"dhat", 1e-3}};
    j["obstacles"] = {{{"name", "ground"}, {"type", "plane"}, {"point", {0.0, -0.05 - ground_gap, 0.0}},
                       {"normal", {0.0, 1.0, 0.0}}}};
  }
  j["bodies"] = nlohmann::json::array({{{"name", "beam"},
                                        {"generator", {{"type", "box"}, {"size", {1.0, 0.1, 0.1}}, {"resolution", {nx, ny, nz}}}},
                                        {"material", {{"model", "neo_hookean"}, {"E", 1e6}, {"nu", 0.3}, {"density", 1000}}},
                                        {"fixed", {{{"box", {{-0.51, -1, -1}, {-0.49, 1, 1}}}}}}}});
  return j;
}

struct Run {
  double build_seconds = 0.0, step_seconds = 0.0, write_seconds = 0.0;
  int newton = 0, failed = 0, unknowns = 0;
  VecX x;
};

Run run(const nlohmann::json& j, int steps, bool write_positions) {
  Run r;
  auto t = Clock::now();
  const Scene scene = parse_scene(j, "cantilever.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  r.build_seconds = seconds_since(t);
  r.unknowns = model.subspace.empty() ? model.num_dofs() : model.subspace.num_coordinates();
  State state{model.rest_positions, model.initial_velocity, 0.0};
  // A model stepped in its coordinates (reduced bodies by cubature) writes its positions only
  // after the timed steps, as a run writes them only for its frames (State::defer_positions).
  state.defer_positions = !write_positions;
  t = Clock::now();
  for (int s = 0; s < steps; ++s) {
    const StepResult step = stepper->step(state, 0.01);
    r.newton += step.newton_iterations;
    r.failed += step.converged ? 0 : 1;
  }
  r.step_seconds = seconds_since(t) / steps;
  t = Clock::now();
  update_positions(model.subspace, state);
  r.write_seconds = seconds_since(t);
  r.x = state.x;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const int resolutions[3][3] = {{20, 3, 3}, {40, 7, 7}, {80, 16, 16}};
  std::vector<int> levels{0, 1, 2};
  int steps = 5, size = 20, threads = 0, cubature = 0;
  double ground_gap = 0.0, beta = 0.0;
  bool modal = false, reduced_only = false, write_positions = false;
  std::string basis = "modes", integrator = "backward_euler";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--levels") && i + 1 < argc) {
      levels.clear();
      std::stringstream list(argv[++i]);
      for (std::string item; std::getline(list, item, ',');) levels.push_back(std::stoi(item));
    } else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--size") && i + 1 < argc) {
      size = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--basis") && i + 1 < argc) {
      basis = argv[++i];
    } else if (!std::strcmp(argv[i], "--cubature") && i + 1 < argc) {
      cubature = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--modal")) {
      modal = true;
    } else if (!std::strcmp(argv[i], "--reduced-only")) {
      reduced_only = true;
    } else if (!std::strcmp(argv[i], "--write-positions")) {
      write_positions = true;
    } else if (!std::strcmp(argv[i], "--ground") && i + 1 < argc) {
      ground_gap = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--integrator") && i + 1 < argc) {
      integrator = argv[++i];
    } else if (!std::strcmp(argv[i], "--beta") && i + 1 < argc) {
      beta = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "unknown or incomplete argument %s (see the comment at the top of bench_reduced_body.cpp)\n",
                   argv[i]);
      return 2;
    }
  }
  std::unique_ptr<tbb::global_control> limit;
  if (threads > 0) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
  std::printf("threads %s, %d steps of %s, reduced (%s): %s r = %d, cubature %s\n",
              threads > 0 ? std::to_string(threads).c_str() : "all", steps, integrator.c_str(),
              modal ? "modal, closed form" : integrator.c_str(), basis.c_str(), size,
              cubature > 0 ? ("at most " + std::to_string(cubature) + " elements").c_str() : "none");
  if (ground_gap > 0.0) std::printf("ground %g m below the beam, IPC contact (dhat 1 mm)\n", ground_gap);
  if (beta > 0.0) std::printf("stiffness damping beta %g s\n", beta);
  std::printf("%8s %8s | %10s %8s %6s | %10s %10s %8s %6s %9s | %8s %10s\n", "tets", "DOFs", "full ms", "Newton", "failed",
              "basis s", "reduced ms", "Newton", "failed", "write ms", "speed-up", "x diff m");
  for (int level : levels) {
    if (level < 0 || level > 2) continue;
    const int* res = resolutions[level];
    nlohmann::json full = cantilever(res[0], res[1], res[2], ground_gap);
    full["integrator"]["type"] = integrator;
    if (beta > 0.0) full["damping"] = {{"beta", beta}};
    nlohmann::json reduced = full;
    reduced["bodies"][0]["reduction"] = {{"basis", basis}, {"size", size}};
    if (cubature > 0) reduced["bodies"][0]["reduction"]["cubature"] = {{"elements", cubature}};
    if (modal) reduced["integrator"]["type"] = "modal";
    Run a, b;
    try {
      if (reduced_only) a.step_seconds = std::nan("");
      else a = run(full, steps, true);
      b = run(reduced, steps, write_positions);
    } catch (const std::exception& e) {  // e.g. an --integrator the scene reader does not know
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    }
    if (reduced_only) a.x = VecX::Constant(b.x.size(), std::nan(""));
    const int tets = 5 * res[0] * res[1] * res[2];
    // The largest distance of a reduced vertex from its full-run position after the steps.
    const double difference = (a.x - b.x).lpNorm<Eigen::Infinity>();
    std::printf("%8d %8d | %10.1f %8.1f %6d | %10.2f %10.2f %8.1f %6d %9.3f | %8.1f %10.2e\n", tets, a.unknowns,
                1e3 * a.step_seconds, double(a.newton) / steps, a.failed, b.build_seconds - a.build_seconds,
                1e3 * b.step_seconds, double(b.newton) / steps, b.failed, 1e3 * b.write_seconds,
                a.step_seconds / b.step_seconds, difference);
    std::fflush(stdout);
  }
  return 0;
}
