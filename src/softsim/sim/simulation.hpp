#pragma once
// The simulation loop: advances the model step by step, writes frames (.vtu + .pvd for
// ParaView, .obj surfaces for Blender), one row of stats.csv per step and summary.json, shows
// progress, and stops cleanly on Ctrl-C after the current step.
#include <filesystem>
#include <string>

#include "softsim/model/model.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

struct RunOptions {
  std::filesystem::path out_dir = "output";
  std::optional<int> steps;  // overrides the scene's
  bool quiet = false;
  // Continue the run whose checkpoint is in out_dir (sim/checkpoint.hpp), appending to its
  // frames, stats.csv and summary.json.
  bool resume = false;
};

enum class RunStatus { Ok, Failed, Interrupted };

struct RunReport {
  RunStatus status = RunStatus::Ok;
  int steps_done = 0;
  int failed_steps = 0;  // steps whose solver did not converge
  int subdivided_steps = 0;  // steps cut back into shorter ones (solver.max_step_halvings)
  double wall_seconds = 0.0;
  std::string message;
};

// Throws InputError when a checkpoint to resume from is missing, corrupt or of another run.
RunReport run_simulation(const Scene& scene, const Model& model, const RunOptions& options);

// Installs a SIGINT handler that asks the running simulation to stop after the current step.
void install_interrupt_handler();

}  // namespace softsim
