#include "softsim/sim/mpm_run.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "softsim/sim/solver_particle_method.hpp"

namespace softsim {

namespace {

// MpmSolver as a particle method: frames with velocity, plastic strain and J; the step's split
// (particles to grid, grid update, grid to particles) in stats.csv; the CFL limit in the summary.
template <int D>
class MpmMethod final : public SolverParticleMethod<D, MpmSolver<D>> {
 public:
  explicit MpmMethod(MpmSolver<D> solver)
      : SolverParticleMethod<D, MpmSolver<D>>(std::move(solver)), cfl_dt_(this->solver_.stable_time_step(1.0)) {}

  double cfl_time_step() const { return cfl_dt_; }
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
  void add_summary(nlohmann::ordered_json& summary) const override { summary["cfl_time_step"] = cfl_dt_; }

 private:
  const std::vector<VecD<D>>& positions() const override { return this->solver_.particles().x; }
  double cfl_dt_;
};

template <int D>
RunReport run(const MpmScene& scene, const RunOptions& options) {
  MpmMethod<D> method(build_mpm_solver<D>(scene));  // input errors before any output
  if (scene.dt > method.cfl_time_step())
    fmt::print(stderr, "warning: {}: time.dt = {:g} s exceeds the CFL limit dx / (|v| + c) = {:g} s at the start\n",
               scene.source(), scene.dt, method.cfl_time_step());
  return run_particle_method(method, particle_run_settings(scene), options);
}

}  // namespace

RunReport run_mpm(const MpmScene& scene, const RunOptions& options) {
  return scene.dim == 2 ? run<2>(scene, options) : run<3>(scene, options);
}

}  // namespace softsim
