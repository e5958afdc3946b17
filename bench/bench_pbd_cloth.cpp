// XPBD cloth against the projected-Newton shell of the same mesh (docs/pbd.md): a 1 x 1 m cloth
// (StVK membrane, E = 1e5 Pa, nu = 0.3, 1 mm, rho = 200 kg/m^3, hinge bending 1e-5 J) pinned
// along its top edge, released flat and swinging under gravity, h = 1/60 s. Each run steps the
// same scene with integrator.type "xpbd" (substeps x sweeps) and "backward_euler" (projected
// Newton, the scene's default solver), and prints steps per second of each, their ratio, and the
// largest distance between the two clouds of vertices after the steps (the "same visual
// outcome" check), relative to the cloth's size.
// --elastic-constraints strain steps XPBD with the strain-based constraints instead of the
// membrane's continuum constraint (then max_distance/size compares two materials that agree
// only for small strains).
//   bench_pbd_cloth [--cells 100,300] [--steps 30] [--substeps 10] [--iterations 1]
//                   [--threads N] [--xpbd-only] [--elastic-constraints energy|strain]
#include <tbb/global_control.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;

using bench::parse_list;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

nlohmann::json cloth(int cells, const std::string& integrator, int substeps, int iterations,
                     const std::string& elastic_constraints = "energy") {
  const double edge = 0.5 - 0.25 / cells;
  return {{"dim", 3},
          {"gravity", {0, -9.81, 0}},
          {"contact", {{"enabled", false}}},
          {"integrator",
           {{"type", integrator}, {"substeps", substeps}, {"iterations", iterations},
            {"elastic_constraints", elastic_constraints}}},
          {"bodies",
           {{{"name", "cloth"},
             {"kind", "shell"},
             {"generator", {{"type", "sheet"}, {"size", {1, 1, 1}}, {"resolution", {cells, 1, cells}}}},
             {"material",
              {{"model", "stvk"}, {"E", 1e5}, {"nu", 0.3}, {"density", 200}, {"thickness", 0.001},
               {"bending_stiffness", 1e-5}}},
             {"fixed", {{{"box", {{-1, -1, -1}, {1, 1, -edge}}}}}}}}}};
}

struct Timing {
  double steps_per_second = 0.0;
  int newton = 0;
  bool converged = true;
  VecX x;
};

Timing time_run(const nlohmann::json& j, int steps) {
  const Scene scene = parse_scene(j, "cloth.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  Timing t;
  const auto start = Clock::now();
  for (int s = 0; s < steps; ++s) {
    const StepResult r = stepper->step(state, 1.0 / 60.0);
    t.newton += r.newton_iterations;
    t.converged = t.converged && r.converged;
  }
  t.steps_per_second = steps / seconds_since(start);
  t.x = state.x;
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> sizes = {100, 300};
  int steps = 30, substeps = 10, iterations = 1, threads = 0;
  bool xpbd_only = false;
  std::string elastic_constraints = "energy";
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--cells" && a + 1 < argc) sizes = parse_list(argv[++a]);
    else if (arg == "--steps" && a + 1 < argc) steps = std::stoi(argv[++a]);
    else if (arg == "--substeps" && a + 1 < argc) substeps = std::stoi(argv[++a]);
    else if (arg == "--iterations" && a + 1 < argc) iterations = std::stoi(argv[++a]);
    else if (arg == "--threads" && a + 1 < argc) threads = std::stoi(argv[++a]);
    else if (arg == "--xpbd-only") xpbd_only = true;
    else if (arg == "--elastic-constraints" && a + 1 < argc) elastic_constraints = argv[++a];
    else {
      std::fprintf(stderr, "usage: bench_pbd_cloth [--cells 100,300] [--steps 30] [--substeps 10] [--iterations 1] "
                           "[--threads N] [--xpbd-only] [--elastic-constraints energy|strain]\n");
      return 2;
    }
  }
  std::unique_ptr<tbb::global_control> control;
  if (threads > 0) control = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
  std::printf("cells,vertices,xpbd_steps_per_s,newton_steps_per_s,xpbd/newton,newton_iters_per_step,max_distance/size\n");
  for (const long size : sizes) {
    const int cells = static_cast<int>(size);
    const Timing x = time_run(cloth(cells, "xpbd", substeps, iterations, elastic_constraints), steps);
    if (xpbd_only) {
      std::printf("%d,%d,%.3f,nan,nan,nan,nan\n", cells, (cells + 1) * (cells + 1), x.steps_per_second);
      continue;
    }
    const Timing n = time_run(cloth(cells, "backward_euler", 1, 1), steps);
    const double distance = (x.x - n.x).reshaped(3, x.x.size() / 3).colwise().norm().maxCoeff();
    std::printf("%d,%d,%.3f,%.3f,%.1f,%.1f%s,%.3f\n", cells, (cells + 1) * (cells + 1), x.steps_per_second,
                n.steps_per_second, x.steps_per_second / n.steps_per_second, static_cast<double>(n.newton) / steps,
                n.converged ? "" : " (not converged)", distance);
    std::fflush(stdout);
  }
  return 0;
}
