#include "softsim/sim/mpm_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

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

template <int D>
void write_particles(const std::filesystem::path& path, const MpmParticles<D>& p) {
  const Eigen::Index n = static_cast<Eigen::Index>(p.size());
  Mesh points;  // one vertex cell per particle
  points.vertices.resize(n, D);
  points.cells.resize(n, 1);
  Eigen::MatrixXd velocity(n, 3), plastic(n, 1), J(n, 1);
  velocity.setZero();
  for (Eigen::Index i = 0; i < n; ++i) {
    points.vertices.row(i) = p.x[i].transpose();
    points.cells(i, 0) = static_cast<int>(i);
    velocity.row(i).head(D) = p.v[i].transpose();
    plastic(i, 0) = p.plastic_strain[i];
    J(i, 0) = p.F[i].determinant();
  }
  write_vtu(path, points, points.vertices, {{"velocity", velocity}, {"plastic_strain", plastic}, {"J", J}});
}

void write_summary(const std::filesystem::path& path, const MpmScene& scene, const RunReport& report, int steps,
                   std::size_t particles, double cfl_dt, const char* status) {
  // The keys of a FEM run's summary where they mean the same (sim/simulation.cpp).
  nlohmann::ordered_json j;
  j["softsim_version"] = SOFTSIM_VERSION;
  j["scene"] = scene.source();
  j["method"] = "mpm";
  j["dim"] = scene.dim;
  j["particles"] = particles;
  j["dt"] = scene.dt;
  j["cfl_time_step"] = cfl_dt;
  j["steps_requested"] = steps;
  j["steps_done"] = report.steps_done;
  j["wall_time_s"] = report.wall_seconds;
  j["status"] = status ? status : run_status_name(report.status);
  if (!report.message.empty()) j["message"] = report.message;
  write_file_atomically(path, [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

// The run's fingerprint: the scene's, with the particles it makes (a changed mesh file changes
// them) and the method, so a FEM run's checkpoint is not taken for this one.
template <int D>
std::uint64_t run_fingerprint(const MpmScene& scene, const MpmParticles<D>& particles) {
  std::uint64_t h = fnv1a_64("mpm", scene.fingerprint);
  for (const VecD<D>& x : particles.x)
    h = fnv1a_64(std::string_view(reinterpret_cast<const char*>(x.data()), sizeof(double) * D), h);
  return h;
}

template <int D>
RunReport run(const MpmScene& scene, const RunOptions& options) {
  clear_interrupt_request();  // a Ctrl-C before this run is not meant for it
  MpmSolver<D> solver = build_mpm_solver<D>(scene);  // input errors before any output
  const std::uint64_t fingerprint = run_fingerprint<D>(scene, solver.particles());
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
    restore_run_state(checkpoint_file, c, fingerprint, "mpm", [&](ArchiveReader& in) { solver.load(in); });
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
  const double cfl_dt = solver.stable_time_step(1.0);
  if (scene.dt > cfl_dt)
    fmt::print(stderr, "warning: {}: time.dt = {:g} s exceeds the CFL limit dx / (|v| + c) = {:g} s at the start\n",
               scene.source(), scene.dt, cfl_dt);
  std::ofstream stats;
  auto frame = [&](int step) {
    const std::string name = fmt::format("particles_{:05d}.vtu", step);
    write_particles<D>(frames / name, solver.particles());
    std::erase_if(entries, [&](const PvdEntry& e) { return e.file == name; });  // rewritten after a resume
    entries.push_back({solver.time(), name, 0});
    write_pvd(frames / "simulation.pvd", entries);  // where a FEM run's is
  };
  const auto start = clock::now();
  auto wall_seconds = [&] { return earlier_wall_seconds + std::chrono::duration<double>(clock::now() - start).count(); };
  auto summary = [&](const char* status) {
    write_summary(options.out_dir / "summary.json", scene, report, steps, solver.particles().size(), cfl_dt, status);
  };
  auto save_checkpoint = [&](int step) {
    Checkpoint c;
    c.fingerprint = fingerprint;
    c.scene_file = checkpoint_scene_file(scene.file);
    c.step = step;
    c.steps_requested = steps;
    c.state.t = solver.time();
    c.wall_seconds = wall_seconds();
    c.stats_bytes = std::filesystem::file_size(stats_file);
    c.frames = entries;
    c.stepper = "mpm";
    ArchiveWriter out;
    solver.save(out);
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
               "angular_momentum_z,wall_ms,p2g_ms,grid_ms,g2p_ms\n";
    stats.flush();
    summary("running");
    if (!options.resume) frame(0);
  }
  int last_tenth = static_cast<int>(10.0 * (first_step - 1) / std::max(steps, 1));
  for (int step = first_step; step <= steps; ++step) {
    const auto t0 = clock::now();
    try {
      solver.step(scene.dt);
    } catch (const std::runtime_error& e) {
      report.status = RunStatus::Failed;
      report.message = fmt::format("step {}: {}", step, e.what());
      break;
    }
    report.steps_done = step;
    const bool stop = interrupt_requested();
    if (writes) {
      Vec3 P = Vec3::Zero();
      P.head<D>() = solver.linear_momentum();
      const Vec3 L = solver.angular_momentum();
      const MpmStepTiming& t = solver.timing();
      const double wall_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
      stats << step;
      for (double x : {solver.time(), solver.kinetic_energy(), P[0], P[1], P[2], L[0], L[1], L[2]})
        stats << ',' << csv_number(x);
      stats << fmt::format(",{:.3f},{:.3f},{:.3f},{:.3f}\n", wall_ms, t.p2g_ms, t.grid_ms, t.g2p_ms);
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
      fmt::print("mpm: step {} of {} ({}%)\n", step, steps, 10 * tenth);
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
    if (const std::string problem = solver.first_problem(); !problem.empty()) {
      report.status = RunStatus::Failed;
      report.message = fmt::format("after step {}: {}", report.steps_done, problem);
    }
  report.wall_seconds = wall_seconds();
  if (writes) summary(nullptr);
  return report;
}

}  // namespace

RunReport run_mpm(const MpmScene& scene, const RunOptions& options) {
  return scene.dim == 2 ? run<2>(scene, options) : run<3>(scene, options);
}

}  // namespace softsim
