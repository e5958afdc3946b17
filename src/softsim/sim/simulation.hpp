#pragma once
// The simulation loop: advances the model step by step, writes frames (.vtu + .pvd for
// ParaView, .obj surfaces for Blender), one row of stats.csv per step and summary.json, shows
// progress, and stops cleanly on Ctrl-C after the current step. `Simulation` is the loop one step
// at a time (for code that drives a run: the Python module, a user's C++ program);
// `run_simulation` runs it to the end (the CLI).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "softsim/model/model.hpp"
#include "softsim/model/state.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

class Stepper;

struct RunOptions {
  // Where frames, stats.csv, summary.json and checkpoints go; empty: nothing is written (a run
  // read only through Simulation::state() and Simulation::last()).
  std::filesystem::path out_dir = "output";
  std::optional<int> steps;  // overrides the scene's
  bool quiet = false;        // no progress bar (warnings are still printed)
  // Continue the run whose checkpoint is in out_dir (sim/checkpoint.hpp), appending to its
  // frames, stats.csv and summary.json.
  bool resume = false;
  // A model stepped in its coordinates (reduced bodies by cubature: docs/subspace-bodies.md)
  // writes its positions only when a frame, a checkpoint or state() needs them, and its stats'
  // energies are taken in coordinates (the same values), so a step costs nothing in proportion
  // to the mesh. Off: the positions every step (views kept on state().x follow the run; the
  // Python module). Ignored for other models, and when stats.csv tracks bodies (output.track).
  bool defer_positions = true;
};

enum class RunStatus { Ok, Failed, Interrupted };
// "ok", "failed", "interrupted": summary.json's status.
const char* run_status_name(RunStatus status);

struct RunReport {
  RunStatus status = RunStatus::Ok;
  int steps_done = 0;
  int failed_steps = 0;  // steps whose solver did not converge
  int subdivided_steps = 0;  // steps cut back into shorter ones (solver.max_step_halvings)
  double wall_seconds = 0.0;
  std::string message;
};

// One finished step: the row of stats.csv it wrote (without the tracked bodies' columns).
struct StepStats {
  int step = 0;
  double t = 0.0;
  int newton_iterations = 0, linear_iterations = 0;
  double residual = 0.0;      // the solver's final scaled step, NaN if n/a
  double kinetic = 0.0, potential = 0.0;  // J
  double min_distance = 0.0;  // m, +infinity without contact
  double wall_ms = 0.0;
  int krylov_dimension = 0;
  bool converged = true;
  int substeps = 1;
};

class Simulation {
 public:
  // Makes the stepper and, with options.resume, restores the checkpoint in options.out_dir
  // (throws InputError when it is missing, corrupt or of another run; nothing is written then).
  // Writes summary.json ("running") and frame 0 of a new run. The scene and the model must
  // outlive the simulation; the model may be changed between steps only (its boundary motions'
  // targets, BoundaryConditions::steer), never during one.
  Simulation(const Scene& scene, const Model& model, RunOptions options);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Advances one step and writes its outputs. Returns false when the run has ended: all steps
  // done, a step failed (non-finite state, or not converged with solver.on_failure "error"), or
  // it was interrupted; the report says which.
  bool step();
  // Ends the run as interrupted after the last finished step and writes a checkpoint there, as
  // Ctrl-C does (a SIGINT handler from install_interrupt_handler makes step() do it).
  void interrupt();
  // Writes summary.json with the final status; returns the report. Idempotent. A run that has
  // not reached its last step is interrupted first (a checkpoint, status "interrupted").
  RunReport finish();

  bool running() const;
  int steps_requested() const;
  const StepStats& last() const;  // the last finished step (step 0: the initial state)
  const RunReport& report() const;
  // Between steps: may be changed (positions, velocities). Both bring deferred positions up to
  // date first (RunOptions::defer_positions); the mutable one also makes the next step read them.
  State& state();
  const State& state() const;
  const Stepper& stepper() const;
  // Writes a frame of the current state (also written every output.every steps and at the end).
  void write_frame();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Runs to the end (steps, failure or Ctrl-C). Throws InputError as Simulation does.
RunReport run_simulation(const Scene& scene, const Model& model, const RunOptions& options);

// Installs a SIGINT handler that asks the running simulation to stop after the current step.
void install_interrupt_handler();
// The report's message for a run interrupted after `step`; with an output folder, how to go on.
std::string interruption_message(int step, const std::filesystem::path& out_dir);
// Whether Ctrl-C asked the run to stop (for runs that are not a Simulation: MPM), and forgetting it.
bool interrupt_requested();
void clear_interrupt_request();

}  // namespace softsim
