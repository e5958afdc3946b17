#include <fmt/format.h>
#include <tbb/global_control.h>

#include <cmath>
#include <filesystem>

#include "commands.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/peer_scenes/scene_source.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/scene/mpm_scene.hpp"
#include "softsim/scene/pbf_scene.hpp"
#include "softsim/sim/checkpoint.hpp"
#include "softsim/sim/mpm_run.hpp"
#include "softsim/sim/pbf_run.hpp"
#include "softsim/sim/simulation.hpp"

namespace softsim::cli {

namespace {

// The scene file a run reads: the one given, or on --resume without one, the one the checkpoint
// ran; empty for the built-in default scene.
std::string scene_file_of_run(const std::string& scene_path, const std::string& out, bool resume) {
  if (!scene_path.empty() || !resume) return scene_path;
  if (!std::filesystem::is_directory(out))
    throw InputError(fmt::format("{}: --resume: no such output directory", out));
  return read_checkpoint(checkpoint_path(out)).scene_file;
}

// --end as a number of steps of dt.
int steps_until(double end, double dt) {
  const double n = std::ceil(end / dt - 1e-9);
  // Checked before the cast: a huge --end / dt would overflow int into a negative step count.
  if (!(n <= 100000000))
    throw InputError(fmt::format("--end: {:g} s at dt = {:g} s is {:.3g} steps, more than the limit of 100000000", end,
                                 dt, n));
  return static_cast<int>(n);
}

// A bad --out (an existing file, an unwritable place) is bad input: say so before the run starts.
void make_output_directory(const std::string& out) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec || !std::filesystem::is_directory(out))
    throw InputError(fmt::format("{}: --out: cannot create the output directory ({})", out,
                                 ec ? ec.message() : "a file of that name exists"));
}

// The run's options from the command line (steps of the scene's dt for --end).
RunOptions run_options(const std::string& out, bool resume, std::optional<int> steps, std::optional<double> end,
                       bool quiet, double dt) {
  RunOptions options;
  options.out_dir = out;
  options.quiet = quiet;
  options.resume = resume;
  if (steps) options.steps = *steps;
  if (end) options.steps = steps_until(*end, dt);
  return options;
}

// A particle scene's run (MPM, position-based fluids): no model; the same output layout and
// checkpoints. `run` makes the output folder once the particles are built (bad input writes nothing).
template <class Scene, class Run>
int run_particle_command(const char* label, const Scene& scene, Run&& run, const std::string& out, bool resume,
                         std::optional<int> steps, std::optional<double> end, bool quiet) {
  install_interrupt_handler();
  const RunReport report = run(scene, run_options(out, resume, steps, end, quiet, scene.dt));
  const std::string where = std::filesystem::absolute(out).lexically_normal().string();
  switch (report.status) {
    case RunStatus::Ok:
      if (!quiet)
        fmt::print("softsim: {} {} steps in {:.2f} s; particle frames in {}/frames (open simulation.pvd in "
                   "ParaView)\n",
                   report.steps_done, label, report.wall_seconds, where);
      return 0;
    case RunStatus::Interrupted:
      fmt::print(stderr, "softsim: {}; outputs of finished steps are in {}\n", report.message, where);
      return 130;
    case RunStatus::Failed:
      break;
  }
  fmt::print(stderr, "error: {}; outputs of finished steps are in {}\n", report.message, where);
  return 1;
}

}  // namespace

int run_command(const std::string& scene_path, const std::string& out, bool resume, std::optional<int> steps,
                std::optional<double> end, int threads, bool quiet) {
  std::unique_ptr<tbb::global_control> limit;
  if (threads > 0) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
  const std::string file = scene_file_of_run(scene_path, out, resume);
  Scene scene;
  if (file.empty()) {
    scene = default_scene();
  } else {
    const SceneSource source = read_scene_source(file);  // softsim, IPC or PolyFEM
    if (!quiet)
      for (const std::string& note : source.notes) fmt::print(stderr, "note: {}\n", note);
    const nlohmann::json& json = source.json;
    if (is_mpm_scene(json))
      return run_particle_command("MPM", parse_mpm_scene(json, file), run_mpm, out, resume, steps, end, quiet);
    if (is_pbf_scene(json))
      return run_particle_command("PBF", parse_pbf_scene(json, file), run_pbf, out, resume, steps, end, quiet);
    scene = parse_scene(json, file);
  }
  Model model = build_model(scene);  // all input errors surface before any output is written
  for (const std::string& warning : describe_build(model).warnings) fmt::print(stderr, "warning: {}\n", warning);
  const RunOptions options = run_options(out, resume, steps, end, quiet, scene.dt);
  make_output_directory(out);
  install_interrupt_handler();
  const RunReport report = run_simulation(scene, model, options);
  const std::string where = std::filesystem::absolute(out).lexically_normal().string();
  switch (report.status) {
    case RunStatus::Ok:
      if (!quiet)
        fmt::print("softsim: {} steps in {:.2f} s{}; frames in {}/frames (open simulation.pvd in ParaView, "
                   "surface_*.obj in Blender)\n",
                   report.steps_done, report.wall_seconds,
                   report.failed_steps ? fmt::format(" ({} did not converge)", report.failed_steps) : "", where);
      return 0;
    case RunStatus::Interrupted:
      fmt::print(stderr, "softsim: {}; outputs of finished steps are in {}\n", report.message, where);
      return 130;
    case RunStatus::Failed:
      fmt::print(stderr, "error: {}; outputs of finished steps are in {}\n", report.message, where);
      return 1;
  }
  return 1;
}

}  // namespace softsim::cli
