#include "softsim/sim/simulation.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/integrate/constraint/corrective_motion.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/sim/body_tracker.hpp"
#include "softsim/sim/checkpoint.hpp"
#include "softsim/sim/frame_writer.hpp"
#include "softsim/sim/progress.hpp"

namespace softsim {

namespace {

std::atomic<bool> g_interrupted{false};

void on_interrupt(int) { g_interrupted = true; }

// On the run's data, so that IPC reuses the candidates of the step's last CCD sweep.
double min_contact_distance(const Model& model, const ModelData& data, const VecX& x) {
  double d = HUGE_VAL;
  for (const auto& term : model.energies()) d = std::min(d, term->min_contact_distance(x, &data));
  return d;
}

const char* status_name(RunStatus s) {
  switch (s) {
    case RunStatus::Ok: return "ok";
    case RunStatus::Failed: return "failed";
    case RunStatus::Interrupted: return "interrupted";
  }
  return "unknown";
}

// `status` overrides the report's (a run still going is "running").
void write_summary(const std::filesystem::path& path, const Scene& scene, const Model& model, const RunReport& report,
                   int steps_requested, const std::string& integrator, const char* status = nullptr) {
  nlohmann::json j;
  j["softsim_version"] = SOFTSIM_VERSION;
  j["scene"] = scene.file.empty() ? std::string("(default scene)") : scene.file.string();
  j["dim"] = model.dim();
  j["vertices"] = model.num_vertices();
  int elements = 0;
  for (const Body& b : model.bodies) elements += b.mesh.num_cells();
  j["elements"] = elements;
  j["integrator"] = integrator;
  j["dt"] = scene.dt;
  j["steps_requested"] = steps_requested;
  j["steps_done"] = report.steps_done;
  j["failed_steps"] = report.failed_steps;
  j["subdivided_steps"] = report.subdivided_steps;
  j["wall_time_s"] = report.wall_seconds;
  j["status"] = status ? status : status_name(report.status);
  if (!report.message.empty()) j["message"] = report.message;
  write_file_atomically(path, [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

// Cuts a table of a resumed run back to its length at the checkpoint.
void cut_table(const std::filesystem::path& file, std::uint64_t bytes) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec)
    throw InputError(fmt::format("{}: missing or unreadable, where the checkpoint says it holds {} bytes; cannot resume",
                                 file.string(), bytes));
  if (size < bytes)
    throw InputError(fmt::format("{}: {} bytes, shorter than the {} the checkpoint says it held; cannot resume",
                                 file.string(), size, bytes));
  std::filesystem::resize_file(file, bytes, ec);
  if (ec) throw RunError(fmt::format("{}: cannot cut it back to the checkpoint ({})", file.string(), ec.message()));
}

std::string csv_number(double x) { return std::isfinite(x) ? fmt::format("{:.10g}", x) : std::string(); }

}  // namespace

void install_interrupt_handler() { std::signal(SIGINT, on_interrupt); }

RunReport run_simulation(const Scene& scene, const Model& model, const RunOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  int steps = options.steps.value_or(scene.steps);
  const BodyTracker tracker(model, scene.output.track);  // checks the names before anything is written
  RunReport report;
  FrameWriter frames(model, options.out_dir / "frames", scene.output.writes(OutputFormat::vtu),
                     scene.output.writes(OutputFormat::obj));
  auto stepper = make_stepper(model, scene.integrator);
  const std::uint64_t fingerprint = run_fingerprint(scene, model, *stepper);
  const std::filesystem::path checkpoint_file = checkpoint_path(options.out_dir);

  State state{model.rest_positions, model.initial_velocity, 0.0};
  model.boundary.apply_positions(state.x, model.rest_positions, 0.0);
  int first_step = 1;
  double earlier_wall_seconds = 0.0;  // of the run before it was resumed
  const std::filesystem::path stats_file = options.out_dir / "stats.csv";
  const std::filesystem::path contact_forces_file = options.out_dir / "contact_forces.csv";
  if (options.resume) {
    // Everything is checked before anything is written: a refused resume leaves the outputs as they were.
    Checkpoint c = read_checkpoint(checkpoint_file);
    restore_stepper(checkpoint_file, c, fingerprint, *stepper);
    cut_table(stats_file, c.stats_bytes);
    if (stepper->contact_forces()) cut_table(contact_forces_file, c.contact_forces_bytes);
    state = std::move(c.state);
    first_step = c.step + 1;
    if (!options.steps) steps = c.steps_requested;
    report.steps_done = c.step;
    report.failed_steps = c.failed_steps;
    report.subdivided_steps = c.subdivided_steps;
    earlier_wall_seconds = c.wall_seconds;
    frames.restore(std::move(c.frames));
  }
  const auto wall_seconds = [&] {
    return earlier_wall_seconds + std::chrono::duration<double>(clock::now() - start).count();
  };
  std::filesystem::create_directories(options.out_dir);
  // A summary exists from the start and says "running", with the last finished step, until the
  // run ends (a killed run leaves it so): rewritten at most once a second of wall time.
  write_summary(options.out_dir / "summary.json", scene, model, report, steps, stepper->name(), "running");
  auto last_summary = clock::now();
  if (!options.resume) frames.write(state, 0, stepper->data());

  // A resumed run appends to its tables, cut back to the checkpoint's step.
  const auto mode = options.resume ? std::ios::app : std::ios::trunc;
  std::ofstream stats(stats_file, std::ios::out | mode);
  if (!stats) throw RunError(fmt::format("{}: cannot write stats.csv", options.out_dir.string()));
  if (!options.resume)
    stats << "step,t,newton_iters,linear_iters,residual,kinetic,potential,total_energy,min_distance,wall_ms,krylov_dim"
          << tracker.header() << '\n';
  // Constraint contact: every contact's multipliers after every step, for plots.
  std::ofstream contact_forces;
  if (stepper->contact_forces()) {
    contact_forces.open(contact_forces_file, std::ios::out | mode);
    if (!contact_forces) throw RunError(fmt::format("{}: cannot write contact_forces.csv", options.out_dir.string()));
    if (!options.resume)
      contact_forces << "step,t,contact,kind,vertex,feature0,feature1,feature2,obstacle,gap,normal_force,"
                        "tangential_force,fx,fy,fz\n";
  }
  stats.flush();
  contact_forces.flush();
  const auto save_checkpoint = [&](int step) {
    Checkpoint c;
    c.fingerprint = fingerprint;
    c.scene_file = scene.file.empty() ? std::string() : std::filesystem::absolute(scene.file).lexically_normal().string();
    c.step = step;
    c.steps_requested = steps;
    c.state = state;
    c.failed_steps = report.failed_steps;
    c.subdivided_steps = report.subdivided_steps;
    c.wall_seconds = wall_seconds();
    c.stats_bytes = std::filesystem::file_size(stats_file);
    c.contact_forces_bytes = stepper->contact_forces() ? std::filesystem::file_size(contact_forces_file) : 0;
    c.frames = frames.entries();
    c.stepper = stepper->name();
    ArchiveWriter out;
    stepper->save(out);
    c.stepper_bytes = out.bytes();
    write_checkpoint(checkpoint_file, c);
  };
  const int checkpoint_every = scene.output.checkpoint_every;
  Progress progress(steps, scene.dt, options.quiet);

  report.status = RunStatus::Ok;
  g_interrupted = false;
  for (int step = first_step; step <= steps; ++step) {
    const auto step_start = clock::now();
    StepResult r = stepper->step(state, scene.dt);
    const double wall_ms = std::chrono::duration<double, std::milli>(clock::now() - step_start).count();
    const bool finite = state.x.allFinite() && state.v.allFinite();
    const double kinetic = kinetic_energy(model, state.v);
    // The potential as the step that ended here evaluates it at its end (moving penalty
    // targets at the step's end, lagged friction from the step's start).
    const double potential =
        model.potential(EvalContext{Stage::step(state.t - scene.dt, scene.dt), stepper->data()}, state.x, AssemblyOutputs{});
    double min_distance = min_contact_distance(model, stepper->data(), state.x);
    if (const auto* forces = stepper->contact_forces()) {
      for (std::size_t k = 0; k < forces->size(); ++k) {
        const ContactForce& f = (*forces)[k];
        min_distance = std::min(min_distance, f.gap);
        contact_forces << step << ',' << csv_number(state.t) << ',' << k << ',' << name_of(f.stencil.kind);
        for (int a = 0; a < 4; ++a) contact_forces << ',' << (a < f.stencil.num_vertices ? f.stencil.ids[a] : -1);
        contact_forces << ',' << f.stencil.obstacle << ',' << csv_number(f.gap) << ',' << csv_number(f.normal_force)
                       << ',' << csv_number(f.tangential_force) << ',' << csv_number(f.force[0]) << ','
                       << csv_number(f.force[1]) << ',' << csv_number(f.force[2]) << '\n';
      }
      contact_forces.flush();
    }
    stats << step << ',' << csv_number(state.t) << ',' << r.newton_iterations << ',' << r.linear_iterations << ','
          << csv_number(r.residual) << ',' << csv_number(kinetic) << ',' << csv_number(potential) << ','
          << csv_number(kinetic + potential) << ',' << csv_number(min_distance) << ',' << csv_number(wall_ms) << ',' << r.krylov_dimension << tracker.row(state.x) << '\n';
    stats.flush();
    if (!finite) {
      report.status = RunStatus::Failed;
      report.message = fmt::format("step {}: the state became non-finite", step);
      break;
    }
    report.steps_done = step;
    if (r.substeps > 1 && report.subdivided_steps++ == 0)
      progress.warn(fmt::format("step {} (t = {:g} s) was cut back into {} shorter steps (its Newton solve did not "
                                "converge at the full step); later cutbacks are counted in summary.json",
                                step, state.t, r.substeps));
    if (!r.converged) {
      ++report.failed_steps;
      const std::string what = fmt::format("step {} (t = {:g} s) did not converge: {}", step, state.t, r.failure);
      if (scene.on_failure == OnFailure::error) {
        report.status = RunStatus::Failed;
        report.message = what + " (solver.on_failure is \"error\")";
        break;
      }
      progress.warn(what);
    }
    if (step % scene.output.every == 0 || step == steps) frames.write(state, step, stepper->data());
    progress.update(step, state.t);
    // Every checkpoint_every steps, at the end (so a finished run can be continued for longer
    // with --resume --steps), and when interrupted.
    if (g_interrupted || (checkpoint_every > 0 && (step % checkpoint_every == 0 || step == steps)))
      save_checkpoint(step);
    if (clock::now() - last_summary >= std::chrono::seconds(1)) {
      report.wall_seconds = wall_seconds();
      write_summary(options.out_dir / "summary.json", scene, model, report, steps, stepper->name(), "running");
      last_summary = clock::now();
    }
    if (g_interrupted) {
      report.status = RunStatus::Interrupted;
      report.message = fmt::format("interrupted after step {} (continue with softsim run --resume {})", step,
                                   options.out_dir.string());
      break;
    }
  }
  progress.finish();
  report.wall_seconds = wall_seconds();
  write_summary(options.out_dir / "summary.json", scene, model, report, steps, stepper->name());
  return report;
}

}  // namespace softsim
