// Whole-scene benchmark for the ball squish (Larionov et al. 2022, §5.2.2, Table 2): one configuration
// per process, so that the peak resident memory (getrusage ru_maxrss) is that configuration's.
// Prints one Markdown table row: elements, kappa_v, solver, steps done, seconds per step (h =
// 0.001 s) over all steps and over the steps once the plates touch (a ball vertex within dhat),
// Newton and linear iterations per step, cavity volume loss (V0 - V) / V0 at the last step,
// peak memory, steps that did not converge.
//
//   bench_ball_squish [--scene scenes/ball_squish.json] [--resolution N] [--layers L]
//                     [--kappa K | --kappa none] [--solver direct|iterative|projected]
//                     [--jacobian exact|sparse] [--steps S] [--minutes M] [--threads T]
//                     [--progress N] [--header]
// --solver direct: residual form, damped Newton with UMFPACK (Larionov et al. 2022, Alg. 1);
// iterative: inexact Newton, BiCGSTAB with matrix-free J p (Alg. 2); projected: the potential
// form's projected Newton with CHOLMOD. --jacobian sparse leaves the volume penalty's rank-one
// part out of direct solves ("inexact J" in Larionov et al. 2022, Table 2). --minutes stops after
// the step that crosses that wall time (the row says how many steps were done). --threads limits
// TBB's worker threads (default: all cores); --progress prints a line to stderr every N steps (long 50K runs).
#include <sys/resource.h>
#include <tbb/global_control.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/integrate/stepper.hpp"
#include "softsim/mesh/surface_components.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/volume/enclosed_volume.hpp"
#include "../tests/support/scene_file.hpp"

using namespace softsim;

namespace {

struct Options {
  std::string scene = test::scene_file("ball_squish.json").string();
  int resolution = 0, layers = 0;  // 0: the scene's
  std::string kappa;               // "" (the scene's), "none" or a number (atm^-1)
  std::string solver = "direct", jacobian = "exact";
  int steps = 0;                   // 0: the scene's
  double minutes = 1e9;
  int threads = 0, progress = 0;  // 0: all cores; no progress lines
  bool header = false;
};

// The cavity of the first body: the inward-facing closed piece of its boundary, flipped.
Eigen::MatrixXi cavity_faces(const Model& model) {
  const Body& ball = model.bodies.front();
  const VecX X = flatten_rows(ball.mesh.vertices);
  for (Eigen::MatrixXi piece : surface_components(ball.surface.faces))
    if (enclosed_volume(piece, X) < 0) {
      piece.col(1).swap(piece.col(2));
      return piece.array() + ball.first_vertex;
    }
  std::fprintf(stderr, "the first body has no cavity\n");
  std::exit(2);
}

double peak_memory_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  // KiB on Linux
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--scene") o.scene = next();
    else if (a == "--resolution") o.resolution = std::stoi(next());
    else if (a == "--layers") o.layers = std::stoi(next());
    else if (a == "--kappa") o.kappa = next();
    else if (a == "--solver") o.solver = next();
    else if (a == "--jacobian") o.jacobian = next();
    else if (a == "--steps") o.steps = std::stoi(next());
    else if (a == "--minutes") o.minutes = std::stod(next());
    else if (a == "--threads") o.threads = std::stoi(next());
    else if (a == "--progress") o.progress = std::stoi(next());
    else if (a == "--header") o.header = true;
    else {
      std::fprintf(stderr, "unknown argument %s (see the comment at the top of bench_ball_squish.cpp)\n", a.c_str());
      return 2;
    }
  }
  if (o.header) {
    std::printf("| tets | kappa_v (1/atm) | solver | J | steps | s/step | s/step in contact | Newton it/step | linear it/step | "
                "volume loss | peak memory (MB) | failed steps |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    return 0;
  }
  std::unique_ptr<tbb::global_control> limit;
  if (o.threads > 0) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, o.threads);
  nlohmann::json j = read_scene_json(o.scene);
  auto& body = j["bodies"][0];
  if (o.resolution) body["generator"]["resolution"] = o.resolution;
  if (o.layers) body["generator"]["layers"] = o.layers;
  if (o.kappa == "none") body.erase("volume_penalty");
  else if (!o.kappa.empty()) body["volume_penalty"]["kappa_v"] = std::stod(o.kappa);
  if (body.contains("volume_penalty")) body["volume_penalty"]["direct_jacobian"] = o.jacobian;
  if (o.solver == "direct") {
    j["integrator"]["form"] = "residual";
    j["integrator"]["nonlinear_solver"] = "damped_newton";
    j["solver"]["linear_solver"] = "umfpack";
  } else if (o.solver == "iterative") {
    j["integrator"]["form"] = "residual";
    j["integrator"]["nonlinear_solver"] = "inexact_newton";
  } else {
    j["solver"]["linear_solver"] = "cholmod";
  }
  j["solver"]["on_failure"] = "continue";
  if (o.steps) j["time"]["steps"] = o.steps;
  const Scene scene = parse_scene(j, o.scene);
  Model model = build_model(scene);
  const Eigen::MatrixXi cavity = cavity_faces(model);
  const double V0 = enclosed_volume(cavity, model.rest_positions);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  long newton = 0, linear = 0;
  int failed = 0, done = 0, touching = 0;
  const auto start = std::chrono::steady_clock::now();
  double seconds = 0.0, contact_seconds = 0.0;
  const double dhat = scene.contact.dhat.value_or(0.0);
  auto in_contact = [&](const VecX& x) {
    for (const auto& e : model.energies())
      if (e->min_contact_distance(x) < dhat) return true;
    return false;
  };
  for (int n = 0; n < scene.steps; ++n) {
    const bool touched = in_contact(state.x);
    const auto step_start = std::chrono::steady_clock::now();
    const StepResult r = stepper->step(state, scene.dt);
    if (touched) {
      contact_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count();
      ++touching;
    }
    newton += r.newton_iterations;
    linear += r.linear_iterations;
    failed += r.converged ? 0 : 1;
    ++done;
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.progress > 0 && done % o.progress == 0)
      std::fprintf(stderr, "step %d: %.1f s, %ld Newton iterations, %d failed\n", done, seconds, newton, failed);
    if (seconds > 60.0 * o.minutes) break;
  }
  const double V = enclosed_volume(cavity, state.x);
  const std::string kappa = body.contains("volume_penalty") ? body["volume_penalty"]["kappa_v"].dump() : "-";
  std::printf("| %d | %s | %s | %s | %d | %.4g | %.4g (%d steps) | %.2f | %.1f | %.2f%% | %.0f | %d |\n",
              static_cast<int>(model.bodies.front().mesh.num_cells()), kappa.c_str(), o.solver.c_str(),
              body.contains("volume_penalty") ? o.jacobian.c_str() : "-", done, seconds / done,
              touching ? contact_seconds / touching : 0.0, touching,
              static_cast<double>(newton) / done, static_cast<double>(linear) / done, 100.0 * (V0 - V) / V0,
              peak_memory_mb(), failed);
  return 0;
}
