#pragma once
// A dropped ball's bounce (Larionov et al. 2022, §5.3.1, Fig. 10: the tennis ball dropped from 2.54 m):
// runs a scene whose first body is the ball, falling onto the ground plane y = 0, and measures
// how high its lowest point rises after the first impact. Shared by the scene test and
// bench/bench_bounce (the table of docs/bounce.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/scene/scene.hpp"
#include "body_rows.hpp"

namespace softsim::experiments {

struct BounceResult {
  bool converged = true;          // every step's solve converged
  double drop_height = NAN;       // m: the ball's lowest point at t = 0
  double impact_time = NAN;       // s: first step whose lowest point is within 2 dhat of the ground
  double contact_duration = NAN;  // s: until the lowest point leaves that band again
  double bounce_height = NAN;     // m: highest lowest-point after the impact (the apex)
  double min_gap = HUGE_VAL;      // m: smallest distance to the ground over the run
  double max_compression = 0.0;   // relative loss of vertical extent during the impact
  int steps = 0, newton_iterations = 0;
  double seconds = 0.0;  // wall time
  double ratio() const { return bounce_height / drop_height; }
};

// The scene file with its integrator type and time step replaced; runs until the ball has passed
// the apex of its first bounce (its centre of mass falls again) or t_max.
inline BounceResult run_bounce(nlohmann::json j, const std::filesystem::path& file, const std::string& integrator,
                               double h, double t_max = 3.0) {
  j["integrator"]["type"] = integrator;
  j["time"] = {{"dt", h}, {"steps", 1}};
  const Scene scene = parse_scene(j, file);
  Model model = build_model(scene);
  const Body& ball = model.bodies.front();
  const std::vector<double> mass = model.vertex_masses();
  auto lowest = [&](const VecX& x) { return test::body_rows(model, x, 0).col(1).minCoeff(); };
  auto extent = [&](const VecX& x) {
    const Eigen::VectorXd y = test::body_rows(model, x, 0).col(1);
    return y.maxCoeff() - y.minCoeff();
  };
  auto vertical_momentum = [&](const VecX& v) {
    double p = 0.0;
    for (int i = 0; i < ball.mesh.num_vertices(); ++i) p += mass[ball.first_vertex + i] * v[3 * (ball.first_vertex + i) + 1];
    return p;
  };
  const double band = 2.0 * scene.contact.dhat.value_or(default_contact_distance(model));
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  BounceResult r;
  r.drop_height = lowest(state.x);
  const double diameter = extent(state.x);
  const auto start = std::chrono::steady_clock::now();
  bool left_ground = false;
  while (state.t < t_max) {
    const StepResult s = stepper->step(state, h);
    ++r.steps;
    r.newton_iterations += s.newton_iterations;
    r.converged = r.converged && s.converged;
    const double y = lowest(state.x);
    r.min_gap = std::min(r.min_gap, y);
    if (std::isnan(r.impact_time) && y < band) r.impact_time = state.t;
    if (std::isnan(r.impact_time)) continue;
    r.max_compression = std::max(r.max_compression, 1.0 - extent(state.x) / diameter);
    if (!left_ground && y >= band) {
      left_ground = true;
      r.contact_duration = state.t - r.impact_time;
    }
    if (left_ground) {
      r.bounce_height = std::isnan(r.bounce_height) ? y : std::max(r.bounce_height, y);
      if (vertical_momentum(state.v) < 0.0) break;  // past the apex
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

inline BounceResult run_bounce(const std::filesystem::path& file, const std::string& integrator, double h,
                               double t_max = 3.0) {
  return run_bounce(read_scene_json(file), file, integrator, h, t_max);
}

}  // namespace softsim::experiments
