#include "softsim/sim/mpm_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/io/vtu.hpp"

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
  nlohmann::ordered_json j;
  j["status"] = status ? status : run_status_name(report.status);
  j["method"] = "mpm";
  j["scene"] = scene.source();
  j["steps_requested"] = steps;
  j["steps_done"] = report.steps_done;
  j["dt"] = scene.dt;
  j["cfl_time_step"] = cfl_dt;
  j["particles"] = particles;
  j["wall_seconds"] = report.wall_seconds;
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
    if (!writes) return;
    const std::string name = fmt::format("particles_{:05d}.vtu", step);
    write_particles<D>(frames / name, solver.particles());
    entries.push_back({solver.time(), "frames/" + name, 0});
    write_pvd(options.out_dir / "simulation.pvd", entries);
  };
  if (writes) {
    std::filesystem::create_directories(frames);
    stats.open(options.out_dir / "stats.csv");
    if (!stats) throw RunError(fmt::format("{}: cannot write stats.csv", options.out_dir.string()));
    stats << "step,t,kinetic_J,momentum_x,momentum_y,momentum_z,angular_momentum_x,angular_momentum_y,"
             "angular_momentum_z,wall_ms,p2g_ms,grid_ms,g2p_ms\n";
    write_summary(options.out_dir / "summary.json", scene, report, steps, solver.particles().size(), cfl_dt,
                  "running");
    frame(0);
  }
  const auto start = clock::now();
  int last_percent = -1;
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
      const VecD<D> P = solver.linear_momentum();
      const Vec3 L = solver.angular_momentum();
      Vec3 P3 = Vec3::Zero();
      P3.head<D>() = P;
      const MpmStepTiming& t = solver.timing();
      stats << fmt::format("{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.3f},{:.3f},{:.3f},{:.3f}\n",
                           step, solver.time(), solver.kinetic_energy(), P3[0], P3[1], P3[2], L[0], L[1], L[2],
                           std::chrono::duration<double, std::milli>(clock::now() - t0).count(), t.p2g_ms, t.grid_ms,
                           t.g2p_ms);
      stats.flush();
      if (step % scene.output_every == 0 || step == steps) frame(step);
    }
    const int percent = steps > 0 ? 100 * step / steps : 100;
    if (!options.quiet && percent / 10 != last_percent / 10) {
      fmt::print("mpm: step {} of {} ({}%)\n", step, steps, percent);
      last_percent = percent;
    }
  }
  // The last step's particles are checked too (a step checks them before it starts).
  if (report.status == RunStatus::Ok)
    if (const std::string problem = solver.first_problem(); !problem.empty()) {
      report.status = RunStatus::Failed;
      report.message = fmt::format("after step {}: {}", report.steps_done, problem);
    }
  report.wall_seconds = std::chrono::duration<double>(clock::now() - start).count();
  if (writes)
    write_summary(options.out_dir / "summary.json", scene, report, steps, solver.particles().size(), cfl_dt, nullptr);
  return report;
}

}  // namespace

RunReport run_mpm(const MpmScene& scene, const RunOptions& options) {
  if (options.resume)
    throw InputError(fmt::format("{}: --resume: MPM runs keep no checkpoints; run the scene again", scene.source()));
  return scene.dim == 2 ? run<2>(scene, options) : run<3>(scene, options);
}

}  // namespace softsim
