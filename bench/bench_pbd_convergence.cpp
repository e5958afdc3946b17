// XPBD against the static FEM equilibrium (docs/pbd.md), two tables. One thread; CPU times.
//
// 2d: the 2D cantilever of the PBD tests (1 x 0.2 m, stable neo-Hookean, E = 2e4 Pa, nu = 0.3,
// rho = 100, 10 x 2 cells, clamped at x = 0) sags under gravity to rest; the tip sag after 4 s of
// XPBD (h = 0.01 s, drag 10% of the velocity per step, spread over the substeps) against
// integrator "static", for each count of substeps and sweeps. Also the same table for plain PBD
// (stiffness 1), whose rest shape does not depend on the material's modulus at all.
//
// 3d: a 3D neo-Hookean cantilever (1 x 0.1 x 0.1 m, nu = 0.3, rho = 1000, 5 x 1 x 1 cubes of 5
// tetrahedra, clamped at x = 0) released from its rest shape: E from 1e4 Pa (it hangs) to 1e7 Pa
// x substeps x sweeps, 4 s with drag 5% per step, for the block projection of the elements
// (elastic_constraints "energy") and the scalar constraint sqrt(2 E_e) ("energy_scalar"): the
// end's mean sag against "static", and the largest change of it from frame to frame over the last
// 0.2 s relative to the static sag (at rest: below 1e-5).
//
// cycle: why the scalar constraint fails there. A 3 MPa cantilever of 10 x 1 x 1 cubes released at
// 5, 10 and 20 substeps (drag 10% per step, 3 s): rest sag and last motion, for both projections
// and the strain-based constraints;
// then, from its static state, one substep of h_s = 2, 1, 0.5 and 0.25 ms with N sweeps: the
// backward Euler residual max |M (x - x*) + h_s^2 grad E(x)| over m g h_s^2, for N from 1 to 257.
//   bench_pbd_convergence [--table 2d|3d|cycle] [--steps 400]
#include <tbb/global_control.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/integrate/stepper.hpp"
#include "softsim/pbd/energy_elements.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;

namespace {

nlohmann::json cantilever_2d(const std::string& type) {
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

nlohmann::json cantilever_3d(const std::string& type, double E, int cells = 5) {
  return {{"dim", 3},
          {"gravity", {0, -9.81, 0}},
          {"contact", {{"enabled", false}}},
          {"integrator", {{"type", type}}},
          {"solver", {{"tolerance", 1e-10}, {"max_iterations", 200}}},
          {"bodies",
           {{{"name", "beam"},
             {"generator", {{"type", "box"}, {"size", {1.0, 0.1, 0.1}}, {"resolution", {cells, 1, 1}}}},
             {"transform", {{"translate", {0.5, 0.0, 0.0}}}},
             {"material", {{"model", "neo_hookean"}, {"E", E}, {"nu", 0.3}, {"density", 1000}}},
             {"fixed", {{{"box", {{-0.01, -1, -1}, {0.01, 1, 1}}}}}}}}}};
}

// 2D: the vertical displacement of the tip (the vertex at x = 1, y = 0.1); 3D: the mean vertical
// displacement of the vertices at x = 1.
double tip_sag(const Model& model, const VecX& x) {
  const int dim = model.dim();
  double best = -1.0, sag = 0.0, sum = 0.0;
  int count = 0;
  for (int i = 0; i < model.num_vertices(); ++i) {
    const double* X = model.rest_positions.data() + dim * i;
    if (dim == 3 && X[0] > 1.0 - 1e-9) {
      sum += x[3 * i + 1] - X[1];
      ++count;
    }
    if (dim == 2 && X[0] + X[1] > best) {
      best = X[0] + X[1];
      sag = x[2 * i + 1] - X[1];
    }
  }
  return dim == 3 ? sum / count : sag;
}

struct Rest {
  double sag = 0.0, motion = 0.0, cpu_ms_per_step = 0.0;
};

// Runs `steps` steps of h from the rest shape (or from `start`); motion: the largest change of the
// sag between frames over the last 20. `end`, when given, receives the last state.
Rest run(const nlohmann::json& j, int steps, const State* start = nullptr, State* end = nullptr, double h = 0.01) {
  const Scene scene = parse_scene(j, "cantilever.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  if (start) state = *start;
  Rest r;
  double previous = 0.0;
  const std::clock_t clock_start = std::clock();
  for (int s = 0; s < steps; ++s) {
    stepper->step(state, h);
    const double sag = tip_sag(model, state.x);
    if (s >= steps - 20) r.motion = std::max(r.motion, std::abs(sag - previous));
    previous = sag;
  }
  r.cpu_ms_per_step = 1e3 * static_cast<double>(std::clock() - clock_start) / CLOCKS_PER_SEC / steps;
  r.sag = previous;
  if (end) *end = state;
  return r;
}

void table_2d(int steps) {
  const double reference = run(cantilever_2d("static"), 1).sag;
  std::printf("2d: static tip sag %.6f m\nmethod,substeps,sweeps,tip_sag_m,relative_error\n", reference);
  for (const std::string type : {"xpbd", "pbd"})
    for (const int substeps : {1, 2, 5, 10, 20})
      for (const int sweeps : {1, 4, 16, 64}) {
        nlohmann::json j = cantilever_2d(type);
        j["integrator"]["substeps"] = substeps;
        j["integrator"]["iterations"] = sweeps;
        j["integrator"]["velocity_damping"] = 1.0 - std::pow(0.9, 1.0 / substeps);
        const double sag = run(j, steps).sag;
        std::printf("%s,%d,%d,%.6f,%.2e\n", type.c_str(), substeps, sweeps, sag, std::abs(sag / reference - 1.0));
        std::fflush(stdout);
      }
}

void table_3d(int steps) {
  std::printf("3d: constraints,E,substeps,sweeps,static_sag_m,sag_m,relative_error,motion_over_sag,cpu_ms_per_step\n");
  for (const std::string constraints : {"energy", "energy_scalar"})
    for (const double E : {1e4, 1e5, 1e6, 1e7}) {
      const double reference = run(cantilever_3d("static", E), 1).sag;
      for (const int substeps : {2, 5, 10, 20, 40})
        for (const int sweeps : {4, 16, 64}) {
          nlohmann::json j = cantilever_3d("xpbd", E);
          j["integrator"]["substeps"] = substeps;
          j["integrator"]["iterations"] = sweeps;
          j["integrator"]["elastic_constraints"] = constraints;
          j["integrator"]["velocity_damping"] = 1.0 - std::pow(0.95, 1.0 / substeps);
          const Rest r = run(j, steps);
          std::printf("%s,%.0e,%d,%d,%.6f,%.6f,%+.2e,%.1e,%.2f\n", constraints.c_str(), E, substeps, sweeps, reference,
                      r.sag, r.sag / reference - 1.0, r.motion / std::abs(reference), r.cpu_ms_per_step);
          std::fflush(stdout);
        }
    }
}

// max over free DOFs of |M (x - x*) + h^2 grad E(x)| / (m g h^2), x* = x0 + h v0 + h^2 g.
double backward_euler_residual(const nlohmann::json& j, const State& start, const VecX& x, double h) {
  const Scene scene = parse_scene(j, "cantilever.json");
  Model model = build_model(scene);
  const EnergyElements elements(model);
  const std::vector<double> mass = model.vertex_masses();
  const std::vector<char>& fixed = model.boundary.fixed_dofs();
  VecX r = VecX::Zero(x.size());
  std::vector<double> g(static_cast<std::size_t>(elements.max_vertices() * 3));
  for (int e = 0; e < elements.size(); ++e) {
    elements.energy(x, e, g.data());
    const auto vs = elements.vertices(e);
    for (std::size_t a = 0; a < vs.size(); ++a)
      for (int c = 0; c < 3; ++c) r[vs[a] * 3 + c] += h * h * g[a * 3 + static_cast<std::size_t>(c)];
  }
  double worst = 0.0, weight = 0.0;
  for (int i = 0; i < model.num_vertices(); ++i)
    for (int c = 0; c < 3; ++c) {
      if (!fixed.empty() && fixed[static_cast<std::size_t>(3 * i + c)]) continue;
      const double predicted = start.x[3 * i + c] + h * start.v[3 * i + c] + (c == 1 ? -9.81 * h * h : 0.0);
      worst = std::max(worst, std::abs(r[3 * i + c] + mass[static_cast<std::size_t>(i)] * (x[3 * i + c] - predicted)));
      weight = std::max(weight, mass[static_cast<std::size_t>(i)] * 9.81 * h * h);
    }
  return worst / weight;
}

void table_cycle() {
  const double E = 3e6;
  const int cells = 10;
  State statics;
  const double reference = run(cantilever_3d("static", E, cells), 1, nullptr, &statics).sag;
  statics.v.setZero();
  std::printf("cycle: 3 MPa, %d cubes, static sag %.6f m\nconstraints,substeps,sweeps,sag_m,relative_error,last_motion_m\n",
              cells, reference);
  for (const std::string constraints : {"energy", "energy_scalar", "strain"})
    for (const int substeps : {5, 10, 20})
      for (const int sweeps : {4, 16, 64}) {
        nlohmann::json j = cantilever_3d("xpbd", E, cells);
        j["integrator"]["substeps"] = substeps;
        j["integrator"]["iterations"] = sweeps;
        j["integrator"]["elastic_constraints"] = constraints;
        j["integrator"]["velocity_damping"] = 1.0 - std::pow(0.9, 1.0 / substeps);
        const Rest r = run(j, 300);
        std::printf("%s,%d,%d,%.6f,%+.2e,%.1e\n", constraints.c_str(), substeps, sweeps, r.sag, r.sag / reference - 1.0,
                    r.motion);
        std::fflush(stdout);
      }
  std::printf("constraints,h_s_ms,sweeps,residual_over_m_g_h2\n");
  for (const std::string constraints : {"energy", "energy_scalar"})
    for (const double h : {2e-3, 1e-3, 5e-4, 2.5e-4})
      for (const int sweeps : {1, 2, 4, 8, 16, 32, 33, 64, 65, 66, 128, 129, 256, 257}) {
        nlohmann::json j = cantilever_3d("xpbd", E, cells);
        j["integrator"]["substeps"] = 1;
        j["integrator"]["iterations"] = sweeps;
        j["integrator"]["elastic_constraints"] = constraints;
        State end;
        run(j, 1, &statics, &end, h);
        std::printf("%s,%.2f,%d,%.3e\n", constraints.c_str(), 1e3 * h, sweeps, backward_euler_residual(j, statics, end.x, h));
        std::fflush(stdout);
      }
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 400;
  std::string table = "all";
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string key = argv[a];
    if (key == "--steps") steps = std::stoi(argv[a + 1]);
    else if (key == "--table") table = argv[a + 1];
  }
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  if (table == "all" || table == "2d") table_2d(steps);
  if (table == "all" || table == "3d") table_3d(steps);
  if (table == "all" || table == "cycle") table_cycle();
  return 0;
}
