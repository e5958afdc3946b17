// XPBD against the static FEM equilibrium (docs/pbd.md): the 2D cantilever of the PBD tests
// (1 x 0.2 m, stable neo-Hookean, E = 2e4 Pa, nu = 0.3, rho = 100, 10 x 2 cells, clamped at
// x = 0) sags under gravity to rest; the tip sag after 4 s of XPBD (h = 0.01 s, drag 10% of the
// velocity per step, spread over the substeps) against integrator "static", for each count of
// substeps and sweeps. Also the same table for plain PBD (stiffness 1), whose rest shape does not
// depend on the material's modulus at all. One thread.
//   bench_pbd_convergence [--steps 400]
#include <tbb/global_control.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;

namespace {

nlohmann::json cantilever(const std::string& type) {
  return {{"dim", 2},
          {"gravity", {0, -9.81}},
          {"integrator", {{"type", type}}},
          {"solver", {{"tolerance", 1e-10}, {"max_iterations", 200}}},
          {"bodies",
           {{{"name", "beam"},
             {"generator", {{"type", "rectangle"}, {"size", {1.0, 0.2}}, {"resolution", {10, 2}}}},
             {"transform", {{"translate", {0.5, 0.0}}}},
             {"material", {{"model", "stable_neo_hookean"}, {"E", 2e4}, {"nu", 0.3}, {"density", 100}}},
             {"fixed", {{{"box", {{-0.01, -1}, {0.01, 1}}}}}}}}}};
}

double tip_sag(const nlohmann::json& j, int steps) {
  const Scene scene = parse_scene(j, "cantilever.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  for (int s = 0; s < steps; ++s) stepper->step(state, 0.01);
  double best = -1.0, sag = 0.0;
  for (int i = 0; i < model.num_vertices(); ++i) {
    const double score = model.rest_positions[2 * i] + model.rest_positions[2 * i + 1];
    if (score > best) {
      best = score;
      sag = state.x[2 * i + 1] - model.rest_positions[2 * i + 1];
    }
  }
  return sag;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 400;
  if (argc == 3 && std::string(argv[1]) == "--steps") steps = std::stoi(argv[2]);
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  const double reference = tip_sag(cantilever("static"), 1);
  std::printf("static tip sag %.6f m\nmethod,substeps,sweeps,tip_sag_m,relative_error\n", reference);
  for (const std::string type : {"xpbd", "pbd"})
    for (const int substeps : {1, 2, 5, 10, 20})
      for (const int sweeps : {1, 4, 16, 64}) {
        nlohmann::json j = cantilever(type);
        j["integrator"]["substeps"] = substeps;
        j["integrator"]["iterations"] = sweeps;
        j["integrator"]["velocity_damping"] = 1.0 - std::pow(0.9, 1.0 / substeps);
        const double sag = tip_sag(j, steps);
        std::printf("%s,%d,%d,%.6f,%.2e\n", type.c_str(), substeps, sweeps, sag, std::abs(sag / reference - 1.0));
        std::fflush(stdout);
      }
  return 0;
}
