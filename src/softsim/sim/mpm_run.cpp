#include "softsim/sim/mpm_run.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <optional>

#include "softsim/sim/solver_particle_method.hpp"

namespace softsim {

namespace {

// MpmSolver as a particle method: frames with velocity, plastic strain and J; the step's split
// (particles to grid, grid update, grid to particles) in stats.csv; the CFL limit in the summary.
template <int D>
class MpmMethod final : public SolverParticleMethod<D, MpmSolver<D>> {
 public:
  explicit MpmMethod(MpmSolver<D> solver)
      : SolverParticleMethod<D, MpmSolver<D>>(std::move(solver)) {}

  double current_cfl_time_step() const { return this->solver_.stable_time_step(1.0); }
  // The CFL limit of the state the run starts from (after a resume, the checkpoint's): measured at
  // the first summary, which is written once the state is loaded.
  double cfl_time_step() const {
    if (!cfl_dt_) cfl_dt_ = current_cfl_time_step();
    return *cfl_dt_;
  }
  const char* name() const override { return "mpm"; }
  std::size_t particles() const override { return this->solver_.particles().size(); }
  void write_frame(const std::filesystem::path& path) const override {
    const MpmParticles<D>& p = this->solver_.particles();
    const Eigen::Index n = static_cast<Eigen::Index>(p.size());
    Eigen::MatrixXd plastic(n, 1), J(n, 1);
    for (Eigen::Index i = 0; i < n; ++i) {
      plastic(i, 0) = p.plastic_strain[i];
      J(i, 0) = p.F[i].determinant();
    }
    write_particle_frame<D>(path, p.x, p.v, {{"plastic_strain", plastic}, {"J", J}});
  }
  std::string stats_columns() const override { return ",p2g_ms,grid_ms,g2p_ms"; }
  void write_stats(std::ostream& out) const override {
    const MpmStepTiming& t = this->solver_.timing();
    out << fmt::format(",{:.3f},{:.3f},{:.3f}", t.p2g_ms, t.grid_ms, t.g2p_ms);
  }
  void add_summary(nlohmann::ordered_json& summary) const override { summary["cfl_time_step"] = cfl_time_step(); }

 private:
  const std::vector<VecD<D>>& positions() const override { return this->solver_.particles().x; }
  mutable std::optional<double> cfl_dt_;
};

template <int D>
RunReport run(const MpmScene& scene, const RunOptions& options) {
  clear_interrupt_request();  // a Ctrl-C before this run is not meant for it
  MpmMethod<D> method(build_mpm_solver<D>(scene));  // input errors before any output
  if (const double cfl = method.current_cfl_time_step(); scene.dt > cfl)
    fmt::print(stderr, "warning: {}: time.dt = {:g} s exceeds the CFL limit dx / (|v| + c) = {:g} s at the start\n",
               scene.source(), scene.dt, cfl);
  return run_particle_method(method, particle_run_settings(scene), options);
}

}  // namespace

RunReport run_mpm(const MpmScene& scene, const RunOptions& options) {
  return scene.dim == 2 ? run<2>(scene, options) : run<3>(scene, options);
}

}  // namespace softsim
