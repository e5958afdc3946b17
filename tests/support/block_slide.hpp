#pragma once
// The block slide of Larionov et al. 2022, §5.1.1: a stiff elastic block (0.2 m cube, E = 1e8 Pa) on a
// 10 degree slope (the ground plane y = 0, gravity tilted by 10 degrees), mu = 0.177 > tan 10,
// pushed down the slope at 0.1 m/s. It decelerates at a = g (mu cos - sin) = 6.50e-3 m/s^2 and
// stops after v0^2 / (2a) = 0.769 m at t = v0 / a = 15.38 s. Shared by the test (implicit BE)
// and bench/bench_block_slide (the table of docs/friction.md).
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "evaluation.hpp"

namespace softsim::experiments {

struct BlockSlide {
  static constexpr double kG = 9.81, kThetaDegrees = 10.0, kMu = 0.177, kV0 = 0.1;
  static constexpr double kEpsV = 1e-4;       // m/s, stick-slip velocity of the smoothing
  static constexpr double kStopSpeed = 2e-4;  // m/s: "stopped" (2 eps_v; the creep is below eps_v)
  static double theta() { return kThetaDegrees * M_PI / 180.0; }
  static double deceleration() { return kG * (kMu * std::cos(theta()) - std::sin(theta())); }
  static double stop_time() { return kV0 / deceleration(); }
  static double stop_distance() { return kV0 * kV0 / (2.0 * deceleration()); }
};

struct BlockSlideResult {
  bool converged = true;  // every step's solve converged
  bool stopped = false;
  double stop_time = NAN, distance = NAN;  // at the first step with speed < kStopSpeed
  int steps = 0, newton_iterations = 0;
  double seconds = 0;  // wall time
};

// contact: "barrier" (the barrier of Li & Jiang 2025 on the plane, dhat = 1 mm) or "penalty"
// (the cubic penalty of Larionov et al. 2022, delta = 1 mm, adaptive kappa).
inline nlohmann::json block_slide_scene(const std::string& mode, int iterations, const std::string& integrator, double h,
                                        double gap = 2e-4, const std::string& contact = "barrier") {
  const double th = BlockSlide::theta(), g = BlockSlide::kG;
  nlohmann::json j = {
      {"dim", 3},
      {"time", {{"dt", h}, {"steps", 1}}},
      {"gravity", {g * std::sin(th), -g * std::cos(th), 0.0}},
      {"integrator", {{"type", integrator == "trapezoidal_damped" ? "trapezoidal" : integrator}}},
      {"bodies",
       {{{"name", "block"},
         {"generator", {{"type", "box"}, {"size", {0.2, 0.2, 0.2}}, {"resolution", {1, 1, 1}}}},
         {"transform", {{"translate", {0.0, 0.1 + gap, 0.0}}}},
         {"initial_velocity", {BlockSlide::kV0, 0.0, 0.0}},
         {"material", {{"E", 1e8}, {"nu", 0.3}, {"density", 1000}}}}}},
      {"obstacles", {{{"type", "plane"}, {"point", {0, 0, 0}}, {"normal", {0, 1, 0}}}}},
      {"contact",
       {{"dhat", 1e-3},
        {"friction", {{"mu", BlockSlide::kMu}, {"eps_v", BlockSlide::kEpsV}, {"mode", mode}, {"iterations", iterations}}}}}};
  // "trapezoidal_damped": TR with Rayleigh stiffness damping beta = 1e-3 s, which damps the stiff
  // normal contact mode that TR leaves undamped but not the rigid slide.
  if (integrator == "trapezoidal_damped") j["damping"] = {{"beta", 1e-3}};
  if (contact == "penalty") {
    j["contact"].erase("dhat");
    j["contact"]["type"] = "penalty";
    j["contact"]["delta"] = 1e-3;
  }
  return j;
}

// The gap at which the plane's barrier carries the block's weight component m g cos(theta), so
// the slide starts in normal equilibrium (a block dropped from elsewhere would first bounce,
// and lagged friction would freeze the bounce's contact force).
inline double block_slide_equilibrium_gap(const std::string& contact = "barrier") {
  const double g0 = 2e-4;
  const Scene scene =
      parse_scene(block_slide_scene("lagged", 1, "backward_euler", 0.01, g0, contact), "block_slide.json");
  Model model = build_model(scene);
  const Energy* barrier = nullptr;
  for (const auto& e : model.energies())
    if (e->name() == "obstacle_barrier" || e->name() == "penalty_contact") barrier = e.get();
  const double weight = model.total_mass() * BlockSlide::kG * std::cos(BlockSlide::theta());
  const test::Evaluation evaluation(model);
  auto normal_force = [&](double gap) {
    VecX x = model.rest_positions, grad = VecX::Zero(x.size());
    for (int i = 0; i < model.num_vertices(); ++i) x[3 * i + 1] += gap - g0;
    barrier->evaluate(evaluation.ctx(), x, AssemblyOutputs{&grad, nullptr, 1.0, false});
    double f = 0;
    for (int i = 0; i < model.num_vertices(); ++i) f -= grad[3 * i + 1];
    return f;
  };
  double lo = 1e-9, hi = 1e-3 * (1 - 1e-9);  // the force decreases with the gap, 0 at dhat
  for (int it = 0; it < 100; ++it) {
    const double mid = 0.5 * (lo + hi);
    (normal_force(mid) > weight ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// Runs until the block stops or t_max; speed and distance are the block's mean along x.
inline BlockSlideResult run_block_slide(const std::string& mode, int iterations, const std::string& integrator,
                                        double h, double t_max = 30.0, const std::string& contact = "barrier") {
  const auto start = std::chrono::steady_clock::now();
  const double gap = block_slide_equilibrium_gap(contact);
  const Scene scene =
      parse_scene(block_slide_scene(mode, iterations, integrator, h, gap, contact), "block_slide.json");
  Model model = build_model(scene);
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const int n = model.num_vertices();
  auto mean_x = [&](const VecX& z) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += z[3 * i];
    return s / n;
  };
  const double x0 = mean_x(state.x);
  BlockSlideResult r;
  const int max_steps = static_cast<int>(std::ceil(t_max / h));
  for (int s = 0; s < max_steps; ++s) {
    const StepResult res = stepper->step(state, h);
    r.steps++;
    r.newton_iterations += res.newton_iterations;
    if (!res.converged) r.converged = false;
    if (mean_x(state.v) < BlockSlide::kStopSpeed) {
      r.stopped = true;
      r.stop_time = state.t;
      r.distance = mean_x(state.x) - x0;
      break;
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace softsim::experiments
