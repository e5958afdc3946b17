// The exponential integrators' costs (Ascher et al. 2022, Fig. 4 and sec. 3.5.2):
//  1. A swinging cantilever (one end clamped, released straight under gravity: it swings down and
//     oscillates) at Young's moduli over three decades: time per step of ERE, SIERE (s = 10),
//     SI and BE, and ERE's Krylov work per step (Arnoldi products with J, sub-steps, largest
//     dimension). Fig. 4's claim: ERE's cost grows with stiffness, SIERE's stays nearly flat.
//  2. The cost split of a SIERE step on the beam of Fig. 6 (2560 tets): eigen-decomposition
//     (once, or every step), subspace ERE, sparse factorization, sparse solves, SMW correction,
//     assembly; and SIERE's step time over SI's ("slightly more expensive").
//
//   bench_exponential [--steps N] [--only swing|split]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/integrate/exponential/exponential_stepper.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;

namespace {

Scene beam_scene(const Eigen::Vector3i& cells, const Vec3& size, double E, bool both_ends) {
  nlohmann::json fixed = nlohmann::json::array();
  const double x = size.x() / 2;
  fixed.push_back({{"box", {{-x - 0.01, -1, -1}, {-x + 0.01, 1, 1}}}});
  if (both_ends) fixed.push_back({{"box", {{x - 0.01, -1, -1}, {x + 0.01, 1, 1}}}});
  nlohmann::json json = {
      {"dim", 3},
      {"time", {{"dt", 0.01}, {"steps", 1}}},
      {"integrator", {{"type", "backward_euler"}}},
      {"gravity", {0, -9.81, 0}},
      {"contact", {{"enabled", false}}},
      {"bodies",
       {{{"name", "beam"},
         {"generator", {{"type", "box"}, {"size", {size.x(), size.y(), size.z()}}, {"resolution", {cells.x(), cells.y(), cells.z()}}}},
         {"material", {{"model", "stable_neo_hookean"}, {"E", E}, {"nu", 0.4}, {"density", 1000}}},
         {"fixed", fixed}}}}};
  return parse_scene(json, {});
}

struct RunStats {
  double ms_per_step = 0.0, products = 0.0, substeps = 0.0;
  int max_dimension = 0;
  bool ok = true;
};

RunStats run(const Scene& scene, const std::string& type, bool semi_implicit, int steps, int modes = 10) {
  Model model = build_model(scene);
  StepperOptions options = scene.integrator;
  options.type = *value_named<IntegratorType>(type);
  options.semi_implicit = semi_implicit;
  options.exponential.modes = modes;
  auto stepper = make_stepper(model, options);
  State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
  RunStats stats;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < steps && stats.ok; ++i) {
    const StepResult r = stepper->step(state, scene.dt);
    stats.ok = r.converged && state.x.allFinite();
    if (!stats.ok) std::fprintf(stderr, "%s failed at step %d: %s\n", type.c_str(), i + 1, r.failure.c_str());
    if (type == "ere") {
      stats.products += r.linear_iterations;
      stats.substeps += r.newton_iterations;
      stats.max_dimension = std::max(stats.max_dimension, r.krylov_dimension);
    }
  }
  stats.ms_per_step = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / steps;
  stats.products /= steps;
  stats.substeps /= steps;
  return stats;
}

void swing(int steps) {
  std::printf("## Swinging cantilever, 1 x 0.1 x 0.1 m, 20x2x2 cells (320 tets, 189 free vertices), h = 0.01, %d steps\n\n",
              steps);
  std::printf("| E (Pa) | ERE ms/step | ERE products/step | ERE sub-steps/step | ERE max dim | SIERE(10) ms/step | SI ms/step | BE ms/step | ERE/SIERE |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (double E : {1e4, 1e5, 1e6, 1e7, 1e8}) {
    const Scene scene = beam_scene(Eigen::Vector3i(20, 2, 2), Vec3(1.0, 0.1, 0.1), E, false);
    const RunStats ere = run(scene, "ere", false, steps);
    const RunStats siere = run(scene, "siere", false, steps);
    const RunStats si = run(scene, "backward_euler", true, steps);
    const RunStats be = run(scene, "backward_euler", false, steps);
    std::printf("| %.0e | %.2f%s | %.0f | %.1f | %d | %.2f%s | %.2f%s | %.2f%s | %.1f |\n", E, ere.ms_per_step,
                ere.ok ? "" : " (failed)", ere.products, ere.substeps, ere.max_dimension, siere.ms_per_step,
                siere.ok ? "" : " (failed)", si.ms_per_step, si.ok ? "" : " (failed)", be.ms_per_step,
                be.ok ? "" : " (failed)", ere.ms_per_step / siere.ms_per_step);
    std::fflush(stdout);
  }
}

void split(int steps) {
  const Scene scene = beam_scene(Eigen::Vector3i(32, 4, 4), Vec3(1.0, 0.125, 0.125), 1e5, true);
  std::printf("\n## SIERE step cost split, beam of Fig. 6 (2560 tets), s = 10, h = 0.01, %d steps (ms per step)\n\n",
              steps);
  std::printf("| refresh | step | eigen | assembly | factorization | sparse solves | SMW | subspace ERE | SI step | SIERE/SI |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  const RunStats si = run(scene, "backward_euler", true, steps);
  for (int refresh : {0, 1}) {
    Model model = build_model(scene);
    StepperOptions options = scene.integrator;
    options.type = IntegratorType::siere;
    options.exponential.refresh_every = refresh;
    ExponentialStepper stepper(model, options);
    State state{model.rest_positions, VecX::Zero(model.num_dofs()), 0.0};
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) stepper.step(state, scene.dt);
    const double total = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const ExponentialCosts c = stepper.costs();
    std::printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.3f | %.2f | %.2f |\n",
                refresh == 0 ? "once" : "every step", total / steps, c.eigen_ms / steps, c.assembly_ms / steps,
                c.split.factorization_ms / steps, c.split.solve_ms / steps, c.split.smw_ms / steps,
                c.split.subspace_ms / steps, si.ms_per_step, total / steps / si.ms_per_step);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 50;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) steps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
  }
  if (only.empty() || only == "swing") swing(steps);
  if (only.empty() || only == "split") split(steps);
  return 0;
}
