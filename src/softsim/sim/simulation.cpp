#include "softsim/sim/simulation.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <tuple>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/integrate/constraint/corrective_motion.hpp"
#include "softsim/model/subspace_map.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/scene/analytic_obstacles.hpp"
#include "softsim/scene/scene_stepper.hpp"
#include "softsim/sim/body_tracker.hpp"
#include "softsim/sim/checkpoint.hpp"
#include "softsim/sim/csv_number.hpp"
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
  j["status"] = status ? status : run_status_name(report.status);
  if (!report.message.empty()) j["message"] = report.message;
  write_file_atomically(path, [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

}  // namespace

const char* run_status_name(RunStatus status) {
  switch (status) {
    case RunStatus::Ok: return "ok";
    case RunStatus::Failed: return "failed";
    case RunStatus::Interrupted: return "interrupted";
  }
  return "unknown";
}

void install_interrupt_handler() { std::signal(SIGINT, on_interrupt); }
bool interrupt_requested() { return g_interrupted; }
std::string interruption_message(int step, const std::filesystem::path& out_dir) {
  return out_dir.empty() ? fmt::format("interrupted after step {}", step)
                         : fmt::format("interrupted after step {} (continue with softsim run --resume {})", step,
                                       out_dir.string());
}
void clear_interrupt_request() { g_interrupted = false; }

struct Simulation::Impl {
  using clock = std::chrono::steady_clock;
  Impl(const Scene& scene, const Model& model, RunOptions options)
      : scene(scene),
        model(model),
        options(std::move(options)),
        writes(!this->options.out_dir.empty()),
        steps(this->options.steps.value_or(scene.steps)),
        tracker(model, scene.output.track),  // checks the names before anything is written
        stepper(make_scene_stepper(scene, model)),
        fingerprint(run_fingerprint(scene, model, *stepper)),
        checkpoint_file(checkpoint_path(this->options.out_dir)),
        stats_file(this->options.out_dir / "stats.csv"),
        contact_forces_file(this->options.out_dir / "contact_forces.csv"),
        state{model.rest_positions, model.initial_velocity, 0.0},
        progress(steps, scene.dt, this->options.quiet) {}

  const Scene& scene;
  const Model& model;
  RunOptions options;
  bool writes;  // out_dir given
  int steps;
  const clock::time_point start = clock::now();
  const BodyTracker tracker;
  RunReport report;
  std::optional<FrameWriter> frames;  // with an out_dir only
  std::unique_ptr<Stepper> stepper;
  std::uint64_t fingerprint;
  std::filesystem::path checkpoint_file, stats_file, contact_forces_file;
  State state, work;
  Progress progress;
  int next_step = 1;
  int last_frame = -1;
  double earlier_wall_seconds = 0.0;  // of the run before it was resumed
  clock::time_point last_summary;
  std::ofstream stats, contact_forces;
  StepStats last;
  bool ended = false, finished = false;
  // The state's positions are written only when needed (RunOptions::defer_positions).
  bool deferred = false;
  State& current_state() {
    update_positions(model.subspace, state);
    return state;
  }

  double wall_seconds() const {
    return earlier_wall_seconds + std::chrono::duration<double>(clock::now() - start).count();
  }
  void summary(const char* status = nullptr) {
    if (writes) write_summary(options.out_dir / "summary.json", scene, model, report, steps, stepper->name(), status);
  }
  void frame(int step) {
    if (!writes || last_frame == step) return;
    frames->write(current_state(), step, stepper->data());
    last_frame = step;
  }
  void save_checkpoint(int step);
  void interrupted(int step) {
    report.status = RunStatus::Interrupted;
    report.message = interruption_message(step, writes ? options.out_dir : std::filesystem::path());
    ended = true;
  }
  void open();
  bool step();
};

void Simulation::Impl::open() {
  model.boundary.apply_positions(state.x, model.rest_positions, 0.0);
  if (options.resume && !writes) throw InputError("resume: no output folder given to resume from");
  if (writes) {
    frames.emplace(model, options.out_dir / "frames", scene.output.writes(OutputFormat::vtu),
                   scene.output.writes(OutputFormat::obj), scene_analytic_obstacles(model, scene));
  }
  if (options.resume) {
    // Everything is checked before anything is written: a refused resume leaves the outputs as they were.
    Checkpoint c = read_checkpoint(checkpoint_file);
    restore_stepper(checkpoint_file, c, fingerprint, *stepper);
    cut_table_to_checkpoint(stats_file, c.stats_bytes);
    if (stepper->contact_forces()) cut_table_to_checkpoint(contact_forces_file, c.contact_forces_bytes);
    state = std::move(c.state);
    next_step = c.step + 1;
    if (!options.steps) steps = c.steps_requested;
    report.steps_done = c.step;
    report.failed_steps = c.failed_steps;
    report.subdivided_steps = c.subdivided_steps;
    earlier_wall_seconds = c.wall_seconds;
    frames->restore(std::move(c.frames));
    last_frame = c.step;
    progress = Progress(steps, scene.dt, options.quiet);
  }
  deferred = options.defer_positions && stepper->steps_in_coordinates() && tracker.header().empty() &&
             !stepper->contact_forces();
  state.defer_positions = deferred;
  last.step = next_step - 1;
  last.t = state.t;
  last.min_distance = HUGE_VAL;  // measured by the steps (their contact data)
  if (!writes) return;
  std::filesystem::create_directories(options.out_dir);
  // A new run: a checkpoint left in this folder (an earlier run's, perhaps of another scene or
  // method) must not be what a later --resume continues.
  if (!options.resume) {
    std::error_code ec;
    std::filesystem::remove(checkpoint_file, ec);
  }
  // A summary exists from the start and says "running", with the last finished step, until the
  // run ends (a killed run leaves it so): rewritten at most once a second of wall time.
  summary("running");
  last_summary = clock::now();
  if (!options.resume) frame(0);

  // A resumed run appends to its tables, cut back to the checkpoint's step.
  const auto mode = options.resume ? std::ios::app : std::ios::trunc;
  stats.open(stats_file, std::ios::out | mode);
  if (!stats) throw RunError(fmt::format("{}: cannot write stats.csv", options.out_dir.string()));
  if (!options.resume)
    stats << "step,t,newton_iters,linear_iters,residual,kinetic,potential,total_energy,min_distance,wall_ms,krylov_dim"
          << tracker.header() << '\n';
  // Constraint contact: every contact's multipliers after every step, for plots.
  if (stepper->contact_forces()) {
    contact_forces.open(contact_forces_file, std::ios::out | mode);
    if (!contact_forces) throw RunError(fmt::format("{}: cannot write contact_forces.csv", options.out_dir.string()));
    if (!options.resume)
      contact_forces << "step,t,contact,kind,vertex,feature0,feature1,feature2,obstacle,gap,normal_force,"
                        "tangential_force,fx,fy,fz\n";
  }
  stats.flush();
  contact_forces.flush();
}

void Simulation::Impl::save_checkpoint(int step) {
  if (!writes) return;
  Checkpoint c;
  c.fingerprint = fingerprint;
  c.scene_file = checkpoint_scene_file(scene.file);
  c.step = step;
  c.steps_requested = steps;
  c.state = current_state();
  c.failed_steps = report.failed_steps;
  c.subdivided_steps = report.subdivided_steps;
  c.wall_seconds = wall_seconds();
  c.stats_bytes = std::filesystem::file_size(stats_file);
  c.contact_forces_bytes = stepper->contact_forces() ? std::filesystem::file_size(contact_forces_file) : 0;
  c.frames = frames->entries();
  c.stepper = stepper->name();
  ArchiveWriter out;
  stepper->save(out);
  c.stepper_bytes = out.bytes();
  write_checkpoint(checkpoint_file, c);
}

bool Simulation::Impl::step() {
  if (ended) return false;
  const int step = next_step;
  if (step > steps) {
    ended = true;
    return false;
  }
  const auto step_start = clock::now();
  StepResult r;
  if (deferred) {
    r = stepper->step(state, scene.dt);  // positions left as they are (no vector moved in)
  } else {
    // Stepped on a copy: steppers may move new vectors into the state they are given, and the
    // run's state keeps its buffers (views on them, as Python's, stay valid) by copying back.
    copy_state(state, work);
    r = stepper->step(work, scene.dt);
    copy_state(work, state);
  }
  const double wall_ms = std::chrono::duration<double, std::milli>(clock::now() - step_start).count();
  StepStats s;
  s.step = step;
  s.t = state.t;
  s.newton_iterations = r.newton_iterations;
  s.linear_iterations = r.linear_iterations;
  s.residual = r.residual;
  bool finite;
  if (deferred) {
    // Such a model has no contact: its terms are cubature elasticities only.
    finite = state.y.allFinite() && state.y_dot.allFinite();
    std::tie(s.kinetic, s.potential) = stepper->energies_in_coordinates(state);
    s.min_distance = HUGE_VAL;
  } else {
    finite = state.x.allFinite() && state.v.allFinite();
    s.kinetic = kinetic_energy(model, state.v);
    // The potential as the step that ended here evaluates it at its end (moving penalty
    // targets at the step's end, lagged friction from the step's start).
    s.potential = model.potential(EvalContext{Stage::step(state.t - scene.dt, scene.dt), stepper->data()}, state.x,
                                  AssemblyOutputs{});
    s.min_distance = min_contact_distance(model, stepper->data(), state.x);
  }
  s.wall_ms = wall_ms;
  s.krylov_dimension = r.krylov_dimension;
  s.converged = r.converged;
  s.substeps = r.substeps;
  if (const auto* forces = stepper->contact_forces()) {
    for (std::size_t k = 0; k < forces->size(); ++k) {
      const ContactForce& f = (*forces)[k];
      s.min_distance = std::min(s.min_distance, f.gap);
      if (!writes) continue;
      contact_forces << step << ',' << csv_number(state.t) << ',' << k << ',' << name_of(f.stencil.kind);
      for (int a = 0; a < 4; ++a) contact_forces << ',' << (a < f.stencil.num_vertices ? f.stencil.ids[a] : -1);
      contact_forces << ',' << f.stencil.obstacle << ',' << csv_number(f.gap) << ',' << csv_number(f.normal_force)
                     << ',' << csv_number(f.tangential_force) << ',' << csv_number(f.force[0]) << ','
                     << csv_number(f.force[1]) << ',' << csv_number(f.force[2]) << '\n';
    }
    contact_forces.flush();
  }
  last = s;
  next_step = step + 1;
  if (writes) {
    stats << step << ',' << csv_number(s.t) << ',' << s.newton_iterations << ',' << s.linear_iterations << ','
          << csv_number(s.residual) << ',' << csv_number(s.kinetic) << ',' << csv_number(s.potential) << ','
          << csv_number(s.kinetic + s.potential) << ',' << csv_number(s.min_distance) << ',' << csv_number(wall_ms) << ','
          << s.krylov_dimension << tracker.row(state.x) << '\n';
    stats.flush();
  }
  if (!finite) {
    report.status = RunStatus::Failed;
    report.message = fmt::format("step {}: the state became non-finite", step);
    ended = true;
    return false;
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
      ended = true;
      return false;
    }
    progress.warn(what);
  }
  if (step % scene.output.every == 0 || step == steps) frame(step);
  progress.update(step, state.t);
  const bool stop = g_interrupted;
  // Every checkpoint_every steps, at the end (so a finished run can be continued for longer
  // with --resume --steps), and when interrupted.
  const int checkpoint_every = scene.output.checkpoint_every;
  if (stop || (checkpoint_every > 0 && (step % checkpoint_every == 0 || step == steps))) save_checkpoint(step);
  if (writes && clock::now() - last_summary >= std::chrono::seconds(1)) {
    report.wall_seconds = wall_seconds();
    summary("running");
    last_summary = clock::now();
  }
  if (stop) {
    interrupted(step);
    return false;
  }
  if (step == steps) ended = true;
  return !ended;
}

Simulation::Simulation(const Scene& scene, const Model& model, RunOptions options)
    : impl_(std::make_unique<Impl>(scene, model, std::move(options))) {
  g_interrupted = false;
  impl_->open();
}

Simulation::~Simulation() = default;

bool Simulation::step() { return impl_->step(); }
void Simulation::interrupt() {
  if (impl_->ended) return;
  const int step = impl_->next_step - 1;
  impl_->save_checkpoint(step);
  impl_->interrupted(step);
}

RunReport Simulation::finish() {
  if (!impl_->ended) interrupt();  // ended before its last step: resumable, as after Ctrl-C
  if (!impl_->finished) {
    impl_->ended = impl_->finished = true;
    impl_->progress.finish();
    impl_->report.wall_seconds = impl_->wall_seconds();
    impl_->summary();
  }
  return impl_->report;
}

bool Simulation::running() const { return !impl_->ended; }
int Simulation::steps_requested() const { return impl_->steps; }
const StepStats& Simulation::last() const { return impl_->last; }
const RunReport& Simulation::report() const { return impl_->report; }
State& Simulation::state() {
  State& state = impl_->current_state();
  state.coordinates_current = false;  // the caller may change x or v: the next step reads them
  return state;
}
const State& Simulation::state() const { return impl_->current_state(); }
const Stepper& Simulation::stepper() const { return *impl_->stepper; }
void Simulation::write_frame() { impl_->frame(impl_->next_step - 1); }

RunReport run_simulation(const Scene& scene, const Model& model, const RunOptions& options) {
  Simulation simulation(scene, model, options);
  while (simulation.step()) {
  }
  return simulation.finish();
}

}  // namespace softsim
