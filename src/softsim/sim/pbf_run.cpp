#include "softsim/sim/pbf_run.hpp"

#include <fmt/format.h>

#include "softsim/sim/csv_number.hpp"
#include "softsim/sim/solver_particle_method.hpp"

namespace softsim {

namespace {

// PbfSolver as a particle method: frames with velocity and density; stats with the step's split
// (neighbour search, density sweeps, velocity passes) and the density error after the step.
template <int D>
class PbfMethod final : public SolverParticleMethod<D, PbfSolver<D>> {
 public:
  explicit PbfMethod(PbfSolver<D> solver) : SolverParticleMethod<D, PbfSolver<D>>(std::move(solver)) {}

  const char* name() const override { return "pbf"; }
  std::size_t particles() const override { return this->solver_.size(); }
  void write_frame(const std::filesystem::path& path) const override {
    const std::vector<double> rho = this->solver_.densities();
    const Eigen::MatrixXd density = Eigen::Map<const Eigen::VectorXd>(rho.data(), static_cast<Eigen::Index>(rho.size()));
    write_particle_frame<D>(path, this->solver_.positions(), this->solver_.velocities(), {{"density", density}});
  }
  std::string stats_columns() const override {
    return ",neighbours_ms,density_ms,velocity_ms,density_error_mean,density_error_max";
  }
  void write_stats(std::ostream& out) const override {
    const PbfStepTiming& t = this->solver_.timing();
    const auto error = this->solver_.density_error();
    out << fmt::format(",{:.3f},{:.3f},{:.3f},", t.neighbours_ms, t.density_ms, t.velocity_ms)
        << csv_number(error.mean) << ',' << csv_number(error.max);
  }
  void add_summary(nlohmann::ordered_json& summary) const override {
    summary["particle_mass"] = this->solver_.particle_mass();
    summary["kernel_radius"] = this->solver_.kernel_radius();
    const auto error = this->solver_.density_error();
    summary["density_error_mean"] = error.mean;
    summary["density_error_max"] = error.max;
  }

 private:
  const std::vector<VecD<D>>& positions() const override { return this->solver_.positions(); }
};

template <int D>
RunReport run(const PbfScene& scene, const RunOptions& options) {
  clear_interrupt_request();  // a Ctrl-C before this run is not meant for it
  PbfMethod<D> method(build_pbf_solver<D>(scene));  // input errors before any output
  return run_particle_method(method, particle_run_settings(scene), options);
}

}  // namespace

RunReport run_pbf(const PbfScene& scene, const RunOptions& options) {
  return scene.dim == 2 ? run<2>(scene, options) : run<3>(scene, options);
}

}  // namespace softsim
