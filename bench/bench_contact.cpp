// IPC contact cost inside a Newton iteration: a box of 53,240 tetrahedra (22^3 cells, NH E 1e6)
// resting under gravity on a fixed slab (1,440 tets), gap dhat / 2 at t = 0 so that its whole
// bottom face is in contact (thousands of active point-triangle and edge-edge pairs). Built
// through the production path (parse_scene -> build_model -> make_stepper).
//
// Per Newton iteration the solver calls the contact term: evaluate with gradient and Hessian
// (broad phase + barrier assembly), max_step_fraction (swept broad phase + ACCD), evaluate
// energy-only in the line search (on the cached candidates; once per trial, usually one trial)
// and end_iteration (min_contact_distance, on the cached candidates). Each is timed
// directly at the settled state with a representative step direction; the iteration's wall time
// comes from whole steps (NewtonResult timings via StepResult). Printed at the end:
//   contact share = (eval_full + max_step + eval_value + min_distance) / (step time / iterations).
// Target: below 30%.
#include <benchmark/benchmark.h>

#include <chrono>
#include <functional>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace {

using namespace softsim;

constexpr int kCells = 22;
constexpr double kDhat = 0.01;

nlohmann::json scene_json();

struct Setup {
  // The model is built in place (terms keep a reference to it: it must never move).
  Setup() : scene(parse_scene(scene_json(), "bench_contact.json")), model(build_model(scene)) {}
  Scene scene;
  Model model;
  std::unique_ptr<Stepper> stepper;
  State state;
  const IpcContact* ipc = nullptr;
  VecX p;  // a representative step: the last step's displacement
  double step_ms = 0.0;
  int steps = 0, iterations = 0;
  StepResult totals;
};

nlohmann::json scene_json() {
  using nlohmann::json;
  json top = {{"name", "box"},
              {"generator", {{"type", "box"}, {"size", {1, 1, 1}}, {"resolution", {kCells, kCells, kCells}}}},
              {"transform", {{"translate", {0, 0.5 + 0.5 * kDhat, 0}}}},
              {"material", {{"E", 1e6}, {"nu", 0.3}, {"density", 1000}}}};
  json slab = {{"name", "slab"},
               {"generator", {{"type", "box"}, {"size", {1.2, 0.2, 1.2}}, {"resolution", {12, 2, 12}}}},
               {"transform", {{"translate", {0.013, -0.1, 0.007}}}},
               {"material", {{"E", 1e6}, {"nu", 0.3}, {"density", 1000}}},
               {"fixed", {{{"box", {{-1, -1, -1}, {1, 0.01, 1}}}}}}};
  return {{"description", "bench_contact"},
          {"dim", 3},
          {"time", {{"dt", 0.01}, {"steps", 3}}},
          {"solver", {{"tolerance", 0.01}}},
          {"bodies", {top, slab}},
          {"contact", {{"dhat", kDhat}}},
          {"output", {{"formats", json::array()}}}};
}

Setup& setup() {
  static Setup* s = [] {
    auto* s = new Setup;
    for (const auto& e : s->model.energies())
      if (auto* c = dynamic_cast<const IpcContact*>(e.get())) s->ipc = c;
    s->stepper = make_stepper(s->model, s->scene.integrator);
    s->state = State{s->model.rest_positions, s->model.initial_velocity, 0.0};
    std::printf("bench_contact: %ld tets in the box + slab, %d vertices, %d DOFs\n",
                static_cast<long>(s->model.bodies[0].mesh.cells.rows() + s->model.bodies[1].mesh.cells.rows()),
                s->model.num_vertices(), s->model.num_dofs());
    for (int n = 0; n < s->scene.steps; ++n) {
      const VecX x0 = s->state.x;
      const auto t0 = std::chrono::steady_clock::now();
      const StepResult r = s->stepper->step(s->state, s->scene.dt);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      s->p = s->state.x - x0;
      s->step_ms += ms;
      s->iterations += r.newton_iterations;
      ++s->steps;
      s->totals.assembly_ms += r.assembly_ms;
      s->totals.solve_ms += r.solve_ms;
      s->totals.line_search_ms += r.line_search_ms;
      std::printf("  step %d: %s, %d Newton iterations, %.0f ms (assembly %.0f, solve %.0f, line search %.0f), "
                  "active pairs %d, kappa %.3g\n",
                  n, r.converged ? "converged" : r.failure.c_str(), r.newton_iterations, ms, r.assembly_ms, r.solve_ms,
                  r.line_search_ms, s->ipc->active_pairs(s->state.x), s->ipc->stiffness(s->stepper->data()));
    }
    return s;
  }();
  return *s;
}

double time_ms(const std::function<void()>& f, int reps) {
  f();  // warm-up
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps;
}

// The contact term as the last step's solver saw it (its stiffness and CCD candidates).
EvalContext context(const Setup& s) {
  static const Stage stage = Stage::step(0.0, 0.01);
  return {stage, s.stepper->data()};
}
void eval_full(Setup& s) {
  VecX g = VecX::Zero(s.state.x.size());
  std::vector<Triplet> triplets;
  AssemblyOutputs out{&g, nullptr, 1.0, true, &triplets};
  benchmark::DoNotOptimize(s.ipc->evaluate(context(s), s.state.x, out));
}
void max_step(Setup& s) { benchmark::DoNotOptimize(s.ipc->max_step_fraction(context(s), s.state.x, s.p)); }
void eval_value(Setup& s) {
  // As in the line search: right after max_step_fraction, on its cached candidates.
  benchmark::DoNotOptimize(s.ipc->evaluate(context(s), s.state.x + 0.5 * s.p, AssemblyOutputs{}));
}
// As in end_iteration: on the run's data, after max_step_fraction cached the candidates.
void min_distance(Setup& s) { benchmark::DoNotOptimize(s.ipc->min_contact_distance(s.state.x, &s.stepper->data())); }
void broad_phase(Setup& s) {
  benchmark::DoNotOptimize(proximity_candidates(s.ipc->collision_mesh(), s.state.x, kDhat).vertex_face.size());
}

void BM_ContactEvaluateFull(benchmark::State& st) {
  Setup& s = setup();
  for (auto _ : st) eval_full(s);
}
void BM_ContactMaxStepFraction(benchmark::State& st) {
  Setup& s = setup();
  for (auto _ : st) max_step(s);
}
void BM_ContactEvaluateValueAfterCcd(benchmark::State& st) {
  Setup& s = setup();
  max_step(s);
  for (auto _ : st) eval_value(s);
}
void BM_ContactMinDistance(benchmark::State& st) {
  Setup& s = setup();
  max_step(s);
  for (auto _ : st) min_distance(s);
}
void BM_ContactProximityBroadPhase(benchmark::State& st) {
  Setup& s = setup();
  for (auto _ : st) broad_phase(s);
}
BENCHMARK(BM_ContactEvaluateFull)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ContactMaxStepFraction)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ContactEvaluateValueAfterCcd)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ContactMinDistance)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ContactProximityBroadPhase)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  set_phase_timing(true);  // this benchmark reports the Newton phases' times
  benchmark::Initialize(&argc, argv);
  Setup& s = setup();
  const Candidates c = proximity_candidates(s.ipc->collision_mesh(), s.state.x, kDhat);
  std::printf("settled state: %d active contact pairs (of %zu vertex-face + %zu edge-edge candidates within dhat)\n",
              s.ipc->active_pairs(s.state.x), c.vertex_face.size(), c.edge_edge.size());
  benchmark::RunSpecifiedBenchmarks();
  const int reps = 5;
  const double t_bp = time_ms([&] { broad_phase(s); }, reps);
  const double t_full = time_ms([&] { eval_full(s); }, reps);
  const double t_ccd = time_ms([&] { max_step(s); }, reps);
  max_step(s);
  const double t_val = time_ms([&] { eval_value(s); }, reps);
  const double t_min = time_ms([&] { min_distance(s); }, reps);
  const double per_it = s.step_ms / std::max(1, s.iterations);
  const double contact = t_full + t_ccd + t_val + t_min;
  std::printf("\nper Newton iteration (%d steps, %d iterations): whole iteration %.1f ms (assembly %.1f, linear solve "
              "%.1f, line search %.1f, rest %.1f)\n",
              s.steps, s.iterations, per_it, s.totals.assembly_ms / s.iterations, s.totals.solve_ms / s.iterations,
              s.totals.line_search_ms / s.iterations,
              per_it - (s.totals.assembly_ms + s.totals.solve_ms + s.totals.line_search_ms) / s.iterations);
  std::printf("contact: evaluate with derivatives %.2f ms (of which proximity broad phase %.2f), max_step_fraction "
              "(swept broad phase + ACCD) %.2f ms, energy-only evaluate %.2f ms, min_contact_distance %.2f ms\n",
              t_full, t_bp, t_ccd, t_val, t_min);
  std::printf("contact share of the iteration: %.1f%% (target < 30%%); broad phase + CCD + barrier assembly alone "
              "(evaluate full + max_step_fraction): %.1f%%\n",
              100.0 * contact / per_it, 100.0 * (t_full + t_ccd) / per_it);
  return 0;
}
