#include "softsim/sim/particle_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>

#include "softsim/core/binary_archive.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/core/hash.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/io/vtu.hpp"
#include "softsim/sim/checkpoint.hpp"
#include "softsim/sim/csv_number.hpp"

namespace softsim {

namespace {

using clock = std::chrono::steady_clock;

void write_summary(const std::filesystem::path& path, const ParticleMethod& method, const ParticleRunSettings& s,
                   const RunReport& report, int steps, const char* status) {
  // The keys of a FEM run's summary where they mean the same (sim/simulation.cpp).
  nlohmann::ordered_json j;
  j["softsim_version"] = SOFTSIM_VERSION;
  j["scene"] = s.source;
  j["method"] = method.name();
  j["dim"] = s.dim;
  j["particles"] = method.particles();
  j["dt"] = s.dt;
  method.add_summary(j);
  j["steps_requested"] = steps;
  j["steps_done"] = report.steps_done;
  j["wall_time_s"] = report.wall_seconds;
  j["status"] = status ? status : run_status_name(report.status);
  if (!report.message.empty()) j["message"] = report.message;
  write_file_atomically(path, [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

}  // namespace

RunReport run_particle_method(ParticleMethod& method, const ParticleRunSettings& scene, const RunOptions& options) {
  // The run's fingerprint: the scene's, with the particles it makes and the method, so that
  // another method's checkpoint is not taken for this one.
  const std::uint64_t fingerprint = method.fingerprint(fnv1a_64(method.name(), scene.scene_fingerprint));
  int steps = options.steps.value_or(scene.steps);
  const bool writes = !options.out_dir.empty();
  const std::filesystem::path frames = options.out_dir / "frames";
  const std::filesystem::path stats_file = options.out_dir / "stats.csv";
  const std::filesystem::path checkpoint_file = checkpoint_path(options.out_dir);
  RunReport report;
  std::vector<PvdEntry> entries;
  int first_step = 1;
  double earlier_wall_seconds = 0.0;  // of the run before it was resumed
  if (options.resume) {
    // Everything is checked before anything is written: a refused resume leaves the outputs as they were.
    if (!writes) throw InputError("resume: no output folder given to resume from");
    Checkpoint c = read_checkpoint(checkpoint_file);
    restore_run_state(checkpoint_file, c, fingerprint, method.name(), [&](ArchiveReader& in) { method.load(in); });
    cut_table_to_checkpoint(stats_file, c.stats_bytes);
    entries = std::move(c.frames);
    first_step = c.step + 1;
    if (!options.steps) steps = c.steps_requested;
    report.steps_done = c.step;
    earlier_wall_seconds = c.wall_seconds;
  }
  if (interrupt_requested()) {  // Ctrl-C while the particles were built: stop before writing anything
    clear_interrupt_request();
    report.status = RunStatus::Interrupted;
    report.message = "interrupted before the first step (nothing was written)";
    return report;
  }
  std::ofstream stats;
  auto frame = [&](int step) {
    const std::string name = fmt::format("particles_{:05d}.vtu", step);
    method.write_frame(frames / name);
    std::erase_if(entries, [&](const PvdEntry& e) { return e.file == name; });  // rewritten after a resume
    entries.push_back({method.time(), name, 0});
    write_pvd(frames / "simulation.pvd", entries);  // where a FEM run's is
  };
  const auto start = clock::now();
  auto wall_seconds = [&] { return earlier_wall_seconds + std::chrono::duration<double>(clock::now() - start).count(); };
  auto summary = [&](const char* status) {
    write_summary(options.out_dir / "summary.json", method, scene, report, steps, status);
  };
  auto save_checkpoint = [&](int step) {
    Checkpoint c;
    c.fingerprint = fingerprint;
    c.scene_file = checkpoint_scene_file(scene.scene_file);
    c.step = step;
    c.steps_requested = steps;
    c.state.t = method.time();
    c.wall_seconds = wall_seconds();
    c.stats_bytes = std::filesystem::file_size(stats_file);
    c.frames = entries;
    c.stepper = method.name();
    ArchiveWriter out;
    method.save(out);
    c.stepper_bytes = out.bytes();
    write_checkpoint(checkpoint_file, c);
  };
  auto last_summary = start;
  if (writes) {
    std::error_code ec;
    std::filesystem::create_directories(frames, ec);
    if (ec || !std::filesystem::is_directory(frames))
      throw InputError(fmt::format("{}: cannot create the output folder ({})", options.out_dir.string(),
                                   ec ? ec.message() : "a file is in the way"));
    // A new run: a checkpoint left in this folder (by another run) must not be resumed later.
    if (!options.resume) std::filesystem::remove(checkpoint_file, ec);
    stats.open(stats_file, std::ios::out | (options.resume ? std::ios::app : std::ios::trunc));
    if (!stats) throw RunError(fmt::format("{}: cannot write stats.csv", options.out_dir.string()));
    if (!options.resume)
      stats << "step,t,kinetic,momentum_x,momentum_y,momentum_z,angular_momentum_x,angular_momentum_y,"
               "angular_momentum_z,wall_ms"
            << method.stats_columns() << "\n";
    stats.flush();
    summary("running");
    if (!options.resume) frame(0);
  }
  int last_tenth = static_cast<int>(10.0 * (first_step - 1) / std::max(steps, 1));
  for (int step = first_step; step <= steps; ++step) {
    const auto t0 = clock::now();
    try {
      method.step(scene.dt);
    } catch (const std::runtime_error& e) {
      report.status = RunStatus::Failed;
      report.message = fmt::format("step {}: {}", step, e.what());
      break;
    }
    report.steps_done = step;
    const bool stop = interrupt_requested();
    if (writes) {
      const Vec3 P = method.linear_momentum(), L = method.angular_momentum();
      const double wall_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
      stats << step;
      for (double x : {method.time(), method.kinetic_energy(), P[0], P[1], P[2], L[0], L[1], L[2]})
        stats << ',' << csv_number(x);
      stats << fmt::format(",{:.3f}", wall_ms);
      method.write_stats(stats);
      stats << "\n";
      stats.flush();
      if (step % scene.output_every == 0 || step == steps) frame(step);
      // As a FEM run: every checkpoint_every steps and at the end when asked for (so that a
      // finished run can be continued with --resume --steps), and when interrupted.
      if (stop || (scene.checkpoint_every > 0 && (step % scene.checkpoint_every == 0 || step == steps)))
        save_checkpoint(step);
      if (clock::now() - last_summary >= std::chrono::seconds(1)) {
        report.wall_seconds = wall_seconds();
        summary("running");
        last_summary = clock::now();
      }
    }
    const int tenth = static_cast<int>(10.0 * step / std::max(steps, 1));
    if (!options.quiet && tenth > last_tenth) {
      fmt::print("{}: step {} of {} ({}%)\n", method.name(), step, steps, 10 * tenth);
      last_tenth = tenth;
    }
    if (stop && step < steps) {
      report.status = RunStatus::Interrupted;
      report.message = interruption_message(step, options.out_dir);
      break;
    }
  }
  clear_interrupt_request();
  // The last step's particles are checked too (a step checks them before it starts).
  if (report.status == RunStatus::Ok)
    if (const std::string problem = method.first_problem(); !problem.empty()) {
      report.status = RunStatus::Failed;
      report.message = fmt::format("after step {}: {}", report.steps_done, problem);
    }
  report.wall_seconds = wall_seconds();
  if (writes) summary(nullptr);
  return report;
}

}  // namespace softsim
