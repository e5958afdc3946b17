#pragma once
// The book's reference trajectories (tests/data/book/<case>.csv, recorded from the book's own code
// by tools/book_reference/make_book_references.py) and softsim's run of the same scene, sampled at
// the same steps, so a test can compute one outcome from both in the same way.
// tests/scenes/book_reference_test.cpp compares them node by node; book_outcomes_test.cpp compares
// what follows from them (slope stop time and distance, where the squares end, their rotation).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"
#include "book_cases.hpp"
#include "data_dir.hpp"
#include "scene_file.hpp"

namespace softsim::test {

// All nodes, flattened (x0, y0, x1, y1, ...), at each recorded step: 0, 1, every 10th, the last.
struct BookTrajectory {
  std::map<int, VecX> positions;  // step -> all nodes
  int last_step = 0;
};

inline BookTrajectory read_book_trajectory(const std::filesystem::path& file) {
  std::ifstream in(file);
  EXPECT_TRUE(in.good()) << "missing " << file;
  BookTrajectory ref;
  std::string line;
  bool header = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!header) {  // step,x0,y0,...
      header = true;
      continue;
    }
    std::stringstream ss(line);
    std::string cell;
    std::getline(ss, cell, ',');
    const int step = std::stoi(cell);
    std::vector<double> values;
    while (std::getline(ss, cell, ',')) values.push_back(std::stod(cell));
    ref.positions[step] = Eigen::Map<VecX>(values.data(), static_cast<Eigen::Index>(values.size()));
    ref.last_step = std::max(ref.last_step, step);
  }
  return ref;
}

inline BookTrajectory read_book_trajectory(const BookCase& c) {
  return read_book_trajectory(project_data_dir() / "book" / (std::string(c.name) + ".csv"));
}

// The case's scene with the case's mu where it sets one; everything else (Newton's tolerance and
// stopping rule included) is the book's setup as the scene file has it.
inline Scene book_case_scene(const BookCase& c) {
  const std::filesystem::path file = scene_file(c.scene);
  nlohmann::json j = read_scene_json(file);
  if (c.mu >= 0.0) j["contact"]["friction"]["mu"] = c.mu;
  return parse_scene(j, file.string());
}

// kBookCases by name ("square_on_slope_mu0.11"); fails the test and returns the first case if absent.
inline const BookCase& book_case(std::string_view name) {
  for (const BookCase& c : kBookCases)
    if (name == c.name) return c;
  ADD_FAILURE() << "no book case " << name;
  return kBookCases[0];
}

// softsim's run of the case, started and stepped as book_reference_test does, with its positions
// kept at the steps `ref` records. Stops at the first step that fails to converge (the trajectory
// then ends early: compare last_step).
inline BookTrajectory run_book_case_at_reference_steps(const BookCase& c, const Scene& scene, const Model& model,
                                                       const BookTrajectory& ref) {
  auto stepper = make_stepper(model, scene.integrator);
  State state{model.rest_positions, model.initial_velocity, 0.0};
  BookTrajectory run;
  run.positions[0] = state.x;
  for (int n = 1; n <= ref.last_step; ++n) {
    const StepResult r = stepper->step(state, scene.dt);
    EXPECT_TRUE(r.converged) << c.name << " step " << n << ": " << r.failure;
    if (!r.converged) break;
    if (ref.positions.count(n)) run.positions[n] = state.x;
    run.last_step = n;
  }
  return run;
}

}  // namespace softsim::test
