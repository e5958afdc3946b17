// Whole-scene benchmark: the beam of Ascher et al. 2022, Fig. 6 (stable neo-Hookean, E = 1e5 Pa,
// nu = 0.4, rho = 1000, fixed at both ends, gravity, from rest) with backward Euler, h = 0.01, at
// ~10K and ~100K tets, for three solver set-ups: projected Newton + CHOLMOD, projected Newton +
// PCG (incomplete Cholesky), and the residual form with inexact Newton (BiCGSTAB, J p by forward
// mode).
// Prints time per step, Newton iterations per step and the per-iteration split into assembly,
// linear solve, line search (NewtonResult/StepResult timings) and the rest of the step, and the
// share of everything but the linear solve.
//
//   bench_beam [--steps-small N] [--steps-large N] [--only small|large] [--solvers a,b,c] [--contact on|off]
// Defaults: 100 steps (1 s) at 9.6K tets, 10 steps at 96K tets, IPC self-contact off.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/solve/solver_timing.hpp"

using namespace softsim;

namespace {

Scene beam_scene(int nx, int ny, int nz, const std::string& config, bool contact) {
  nlohmann::json json = {
      {"dim", 3},
      {"time", {{"dt", 0.01}, {"steps", 1}}},
      {"integrator", {{"type", "backward_euler"}}},
      {"gravity", {0, -9.81, 0}},
      {"bodies",
       {{{"name", "beam"},
         {"generator", {{"type", "box"}, {"size", {1.0, 0.2, 0.15}}, {"resolution", {nx, ny, nz}}}},
         {"material", {{"model", "stable_neo_hookean"}, {"E", 1e5}, {"nu", 0.4}, {"density", 1000}}},
         {"fixed",
          {{{"box", {{-0.51, -1, -1}, {-0.49, 1, 1}}}}, {{"box", {{0.49, -1, -1}, {0.51, 1, 1}}}}}}}}}};
  // The beam of Ascher et al. 2022, Fig. 6, never touches itself; IPC self-contact (on by default
  // in scenes) only adds its broad phase, CCD and stiffness checks to every iteration. --contact
  // on measures that.
  json["contact"] = {{"enabled", contact}};
  if (config == "inexact_newton") {
    json["integrator"]["form"] = "residual";
    json["integrator"]["nonlinear_solver"] = "inexact_newton";
  } else {
    json["solver"] = {{"linear_solver", config}};
  }
  return parse_scene(json, {});
}

struct Row {
  std::string config;
  int tets = 0, dofs = 0, steps = 0, failed = 0;
  // Per Newton iteration (ms); other = the rest of the step (begin_step, end_iteration, the
  // stepper's own vector work) spread over its iterations.
  double step_ms = 0, iters = 0, assembly = 0, solve = 0, factorization = 0, line_search = 0, other = 0,
         linear_iters = 0;
};

Row run(int nx, int ny, int nz, const std::string& config, int steps, bool contact) {
  const Scene scene = beam_scene(nx, ny, nz, config, contact);
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  Row row;
  row.config = config;
  row.tets = 5 * nx * ny * nz;
  row.dofs = model.num_dofs();
  row.steps = steps;
  double total_ms = 0;
  StepResult total;  // summed iterations and timings of all steps
  for (int n = 0; n < steps; ++n) {
    const auto t0 = std::chrono::steady_clock::now();
    const StepResult r = stepper->step(state, scene.dt);
    total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!r.converged) ++row.failed;
    total.add_costs(r);
  }
  const double iters = total.newton_iterations;
  row.step_ms = total_ms / steps;
  row.iters = iters / steps;
  row.linear_iters = iters ? total.linear_iterations / iters : 0.0;
  row.assembly = iters ? total.assembly_ms / iters : 0;
  row.solve = iters ? total.solve_ms / iters : 0;
  row.factorization = iters ? total.factorization_ms / iters : 0;
  row.line_search = iters ? total.line_search_ms / iters : 0;
  row.other = iters ? (total_ms - total.assembly_ms - total.solve_ms - total.line_search_ms) / iters : 0;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  set_phase_timing(true);  // this benchmark reports the Newton phases' times
  int steps_small = 100, steps_large = 10;
  std::string only;
  bool contact = false;
  std::vector<std::string> configs{"cholmod", "pcg", "inexact_newton"};
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--help") || !has_value) {
      std::printf("usage: bench_beam [--steps-small N] [--steps-large N] [--only small|large] [--solvers a,b,c]\n"
                  "                  [--contact on|off]\n"
                  "  solvers: cholmod, pcg, pcg_jacobi, ldlt (projected Newton) and inexact_newton (residual form)\n"
                  "  defaults: 100 steps (1 s) at 9.6K tets, 10 steps at 96K tets, all three solvers, contact off\n");
      return std::strcmp(argv[i], "--help") ? 2 : 0;
    }
    const char* value = argv[++i];
    if (!std::strcmp(argv[i - 1], "--steps-small")) steps_small = std::atoi(value);
    else if (!std::strcmp(argv[i - 1], "--steps-large")) steps_large = std::atoi(value);
    else if (!std::strcmp(argv[i - 1], "--only")) only = value;
    else if (!std::strcmp(argv[i - 1], "--contact")) contact = !std::strcmp(value, "on");
    else if (!std::strcmp(argv[i - 1], "--solvers")) {
      configs.clear();
      std::stringstream ss(value);
      for (std::string s; std::getline(ss, s, ',');) configs.push_back(s);
    } else {
      std::fprintf(stderr, "bench_beam: unknown option %s (see --help)\n", argv[i - 1]);
      return 2;
    }
  }
  struct Size { const char* name; int nx, ny, nz, steps; };
  const std::vector<Size> sizes{{"small", 40, 8, 6, steps_small}, {"large", 80, 20, 12, steps_large}};
  std::printf("contact %s\n", contact ? "on" : "off");
  std::printf("| tets | DOFs | solver | steps | ms/step | Newton it/step | lin it/Newton it | assembly ms/it | "
              "solve ms/it (factor/set-up + solve) | line search ms/it | other ms/it | non-solve share | failed |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& s : sizes) {
    if (!only.empty() && only != s.name) continue;
    for (const auto& c : configs) {
      const Row r = run(s.nx, s.ny, s.nz, c, s.steps, contact);
      const double it = r.assembly + r.solve + r.line_search + r.other;
      std::printf("| %d | %d | %s | %d | %.1f | %.2f | %.1f | %.2f | %.2f (%.2f + %.2f) | %.2f | %.2f | %.0f%% | %d |\n",
                  r.tets, r.dofs, r.config.c_str(), r.steps, r.step_ms, r.iters, r.linear_iters, r.assembly, r.solve,
                  r.factorization, r.solve - r.factorization, r.line_search, r.other,
                  it > 0 ? 100.0 * (it - r.solve) / it : 0.0, r.failed);
      std::fflush(stdout);
    }
  }
  return 0;
}
