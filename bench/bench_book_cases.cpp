// Per-step time of the case studies of Li & Jiang 2025 (scenes/book_*.json, the cases of
// tests/scenes/book_reference_test.cpp) on one thread, and its ratio to the book's own Python
// code when that code's timings are given (tools/book_reference/make_book_references.py writes
// them; bench/book_cases.sh runs both in one go, docs/book-cases.md has the table).
//   bench_book_cases [--python-timings timings.json] [--repeat 3] [--threads 1] [--linear-solver NAME]
//                  [--cases name,name]
// Each case runs its whole scene `repeat` times from t = 0 (model and stepper built once, outside
// the timing); the best run counts.
#include <tbb/global_control.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../tests/support/book_cases.hpp"
#include "../tests/support/scene_file.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;


int main(int argc, char** argv) {
  std::string python, linear_solver, only;
  int repeat = 3, threads = 1;
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 < argc && !std::strcmp(argv[i], "--python-timings")) python = argv[i + 1];
    else if (i + 1 < argc && !std::strcmp(argv[i], "--repeat")) repeat = std::max(1, std::atoi(argv[i + 1]));
    else if (i + 1 < argc && !std::strcmp(argv[i], "--threads")) threads = std::max(1, std::atoi(argv[i + 1]));
    else if (i + 1 < argc && !std::strcmp(argv[i], "--linear-solver")) linear_solver = argv[i + 1];
    else if (i + 1 < argc && !std::strcmp(argv[i], "--cases")) only = "," + std::string(argv[i + 1]) + ",";
    else {
      std::fprintf(stderr, "unknown or incomplete argument %s (see the comment at the top of bench_book_cases.cpp)\n",
                   argv[i]);
      return 2;
    }
  }
  nlohmann::json py;
  if (!python.empty()) {
    std::ifstream in(python);
    if (!in) {
      std::fprintf(stderr, "%s: cannot open\n", python.c_str());
      return 2;
    }
    py = nlohmann::json::parse(in);
  }
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  std::printf("| case | nodes | steps | Newton its/step | softsim us/step (%d thread%s) | book code ms/step | book / softsim |\n"
              "|---|---|---|---|---|---|---|\n",
              threads, threads == 1 ? "" : "s");
  for (const test::BookCase& c : test::kBookCases) {
    if (!only.empty() && only.find("," + std::string(c.name) + ",") == std::string::npos) continue;
    const auto file = test::scene_file(c.scene);
    nlohmann::json j = read_scene_json(file);
    if (c.mu >= 0.0) j["contact"]["friction"]["mu"] = c.mu;
    if (!linear_solver.empty()) j["solver"]["linear_solver"] = linear_solver;
    const Scene scene = parse_scene(j, file.string());
    Model model = build_model(scene);
    auto stepper = make_stepper(model, scene.integrator);
    double best = HUGE_VAL;
    long iterations = 0;
    for (int r = 0; r < repeat; ++r) {
      stepper = make_stepper(model, scene.integrator);
      State state{model.rest_positions, model.initial_velocity, 0.0};
      iterations = 0;
      const auto t0 = std::chrono::steady_clock::now();
      for (int n = 0; n < scene.steps; ++n) iterations += stepper->step(state, scene.dt).newton_iterations;
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    const double us = 1e6 * best / scene.steps;
    std::string book = "", ratio = "";
    if (py.contains("cases") && py["cases"].contains(c.name)) {
      const double py_s = py["cases"][c.name]["step_seconds_mean"].get<double>();
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f", 1e3 * py_s);
      book = buf;
      std::snprintf(buf, sizeof buf, "%.0f", py_s / (1e-6 * us));
      ratio = buf;
    }
    std::printf("| %s | %d | %d | %.2f | %.1f | %s | %s |\n", c.name, model.num_vertices(), scene.steps,
                double(iterations) / scene.steps, us, book.c_str(), ratio.c_str());
    std::fflush(stdout);
  }
  return 0;
}
