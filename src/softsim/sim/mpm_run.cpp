#include "softsim/sim/mpm_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/io/vtu.hpp"
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

template <int D>
RunReport run(const MpmScene& scene, const RunOptions& options) {
  MpmSolver<D> solver = build_mpm_solver<D>(scene);  // input errors before any output
  const int steps = options.steps.value_or(scene.steps);
  const bool writes = !options.out_dir.empty();
  const std::filesystem::path frames = options.out_dir / "frames";
  const double cfl_dt = solver.stable_time_step(1.0);
  if (scene.dt > cfl_dt)
    fmt::print(stderr, "warning: {}: time.dt = {:g} s exceeds the CFL limit dx / (|v| + c) = {:g} s at the start\n",
               scene.source(), scene.dt, cfl_dt);
  RunReport report;
  std::vector<PvdEntry> entries;
  std::ofstream stats;
  auto frame = [&](int step) {
    const std::string name = fmt::format("particles_{:05d}.vtu", step);
    write_particles<D>(frames / name, solver.particles());
    entries.push_back({solver.time(), name, 0});
    write_pvd(frames / "simulation.pvd", entries);  // where a FEM run's is
  };
  auto summary = [&](const char* status) {
    write_summary(options.out_dir / "summary.json", scene, report, steps, solver.particles().size(), cfl_dt, status);
  };
  const auto start = clock::now();
  auto last_summary = start;
  if (writes) {
    std::error_code ec;
    std::filesystem::create_directories(frames, ec);
    if (ec || !std::filesystem::is_directory(frames))
      throw InputError(fmt::format("{}: cannot create the output folder ({})", options.out_dir.string(),
                                   ec ? ec.message() : "a file is in the way"));
    // A FEM run's checkpoint left in this folder is not this run's: --resume must not find it.
    std::filesystem::remove(options.out_dir / "checkpoint.bin", ec);
    stats.open(options.out_dir / "stats.csv");
    if (!stats) throw RunError(fmt::format("{}: cannot write stats.csv", options.out_dir.string()));
    stats << "step,t,kinetic,momentum_x,momentum_y,momentum_z,angular_momentum_x,angular_momentum_y,"
             "angular_momentum_z,wall_ms,p2g_ms,grid_ms,g2p_ms\n";
    summary("running");
    frame(0);
  }
  int last_tenth = 0;
  for (int step = 1; step <= steps; ++step) {
    const auto t0 = clock::now();
    try {
      solver.step(scene.dt);
    } catch (const std::runtime_error& e) {
      report.status = RunStatus::Failed;
      report.message = fmt::format("step {}: {}", step, e.what());
      break;
    }
    report.steps_done = step;
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
      if (clock::now() - last_summary >= std::chrono::seconds(1)) {
        report.wall_seconds = std::chrono::duration<double>(clock::now() - start).count();
        summary("running");
        last_summary = clock::now();
      }
    }
    const int tenth = static_cast<int>(10.0 * step / std::max(steps, 1));
    if (!options.quiet && tenth > last_tenth) {
      fmt::print("mpm: step {} of {} ({}%)\n", step, steps, 10 * tenth);
      last_tenth = tenth;
    }
  }
  // The last step's particles are checked too (a step checks them before it starts).
  if (report.status == RunStatus::Ok)
    if (const std::string problem = solver.first_problem(); !problem.empty()) {
      report.status = RunStatus::Failed;
      report.message = fmt::format("after step {}: {}", report.steps_done, problem);
    }
  report.wall_seconds = std::chrono::duration<double>(clock::now() - start).count();
  if (writes) summary(nullptr);
  return report;
}

}  // namespace

RunReport run_mpm(const MpmScene& scene, const RunOptions& options) {
  if (options.resume)
    throw InputError(fmt::format("{}: --resume: MPM runs keep no checkpoints; run the scene again", scene.source()));
  return scene.dim == 2 ? run<2>(scene, options) : run<3>(scene, options);
}

}  // namespace softsim
