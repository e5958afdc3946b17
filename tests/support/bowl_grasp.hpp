#pragma once
// The bowl grasp of Larionov et al. 2022, §5.1.2 (Figs. 1 and 5): scenes/bowl_grasp.json with the
// friction mode, the time step and the squeeze changed; records the bowl's lift (the rise of its
// lowest point) over time. Shared by the scene test and bench/bench_bowl_grasp (docs/bowl_grasp.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "body_rows.hpp"
#include "scene_file.hpp"

namespace softsim::experiments {

struct BowlGrasp {
  static constexpr double kLift = 0.05;         // m: the pads' back faces rise this much
  static constexpr double kSqueeze = 0.003;     // m: how far the scene moves the backs inwards
  static constexpr double kSampleEvery = 0.05;  // s
  static std::filesystem::path file() { return test::scene_file("bowl_grasp.json"); }
};

struct BowlGraspResult {
  bool converged = true;
  std::vector<double> times, lifts;  // the bowl's lift (m) every kSampleEvery s
  double final_lift = NAN;
  int steps = 0, newton_iterations = 0;
  double seconds = 0.0;
  // Held: at the end the bowl is still up with the pads (within 10% of their rise).
  bool held() const { return final_lift > 0.9 * BowlGrasp::kLift; }
};

// The pads' backs' path (the scene's keyframes): inwards by `squeeze` along a smoothstep over
// [0, 0.25] s, up by kLift along a smoothstep over [lift_start, lift_start + 0.5] s, sampled at
// 1/32 s and 1/16 s (keyframes are interpolated linearly). The scene has squeeze 3 mm and
// lift_start 0.25 s; an earlier lift_start makes the pads rise while they still close in.
inline nlohmann::json pad_path(const Vec3& inward, double lift_start) {
  auto smoothstep = [](double tau) {
    tau = std::clamp(tau, 0.0, 1.0);
    return tau * tau * (3.0 - 2.0 * tau);
  };
  std::vector<double> times;
  for (int i = 0; i <= 8; ++i) times.push_back(0.25 * i / 8);
  for (int i = 0; i <= 8; ++i) times.push_back(lift_start + 0.5 * i / 8);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end(), [](double a, double b) { return std::abs(a - b) < 1e-12; }),
              times.end());
  nlohmann::json path = nlohmann::json::array();
  for (double t : times) {
    const Vec3 offset = inward * smoothstep(t / 0.25) + Vec3(0, BowlGrasp::kLift, 0) * smoothstep((t - lift_start) / 0.5);
    path.push_back({t, offset.x(), offset.y(), offset.z()});
  }
  return path;
}

// mode: "implicit" or "lagged"; squeeze: how far the pads' backs move inwards (m; the scene's
// 3 mm, of which the first 1.5 mm close the gap to the bowl's rim); lift_start: see pad_path.
inline BowlGraspResult run_bowl_grasp(const std::string& mode, double h, double squeeze = BowlGrasp::kSqueeze,
                                      int lagged_iterations = 1, double lift_start = 0.25) {
  nlohmann::json j = read_scene_json(BowlGrasp::file());
  j["contact"]["friction"]["mode"] = mode;
  if (mode == "lagged") j["contact"]["friction"]["iterations"] = lagged_iterations;
  j["time"] = {{"dt", h}, {"end", 1.0}};
  for (auto& body : j["bodies"])
    if (body.contains("fixed")) {
      // The inward direction of this pad: its scene path's offset at the end of the squeeze.
      Vec3 inward = Vec3::Zero();
      for (const auto& key : body["fixed"][0]["path"])
        if (std::abs(key[0].get<double>() - 0.25) < 1e-9)
          inward = Vec3(key[1].get<double>(), 0.0, key[3].get<double>()) / BowlGrasp::kSqueeze;
      body["fixed"][0]["path"] = pad_path(inward * squeeze, lift_start);
    }
  const Scene scene = parse_scene(j, BowlGrasp::file());
  Model model = build_model(scene);
  // The bowl (body 0)'s lowest point.
  auto lowest = [&](const VecX& x) { return test::body_rows(model, x, 0).col(1).minCoeff(); };
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  const double y0 = lowest(state.x);
  BowlGraspResult r;
  r.times.push_back(0.0);
  r.lifts.push_back(0.0);
  const auto start = std::chrono::steady_clock::now();
  double next_sample = BowlGrasp::kSampleEvery;
  for (int n = 0; n < scene.steps; ++n) {
    const StepResult s = stepper->step(state, h);
    ++r.steps;
    r.newton_iterations += s.newton_iterations;
    r.converged = r.converged && s.converged;
    if (state.t >= next_sample - 1e-9) {
      r.times.push_back(state.t);
      r.lifts.push_back(lowest(state.x) - y0);
      next_sample += BowlGrasp::kSampleEvery;
    }
  }
  r.final_lift = lowest(state.x) - y0;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace softsim::experiments
