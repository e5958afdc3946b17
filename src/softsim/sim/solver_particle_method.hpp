#pragma once
// What every particle solver's adapter to ParticleMethod (sim/particle_run.hpp) forwards alike:
// stepping, time, the state check, energy and momenta (in 3D coordinates), checkpoints, and the
// fingerprint of the initial positions; and the run settings a particle scene gives. An adapter
// adds its name, frames, stats columns and summary keys.
#include <string_view>
#include <utility>
#include <vector>

#include "softsim/core/hash.hpp"
#include "softsim/io/vtu.hpp"
#include "softsim/sim/particle_run.hpp"

namespace softsim {

template <int D, class Solver>
class SolverParticleMethod : public ParticleMethod {
 public:
  explicit SolverParticleMethod(Solver solver) : solver_(std::move(solver)) {}

  std::uint64_t fingerprint(std::uint64_t h) const override {
    for (const VecD<D>& x : positions())
      h = fnv1a_64(std::string_view(reinterpret_cast<const char*>(x.data()), sizeof(double) * D), h);
    return h;
  }
  void step(double dt) override { solver_.step(dt); }
  double time() const override { return solver_.time(); }
  std::string first_problem() const override { return solver_.first_problem(); }
  double kinetic_energy() const override { return solver_.kinetic_energy(); }
  Vec3 linear_momentum() const override {
    Vec3 p = Vec3::Zero();
    p.template head<D>() = solver_.linear_momentum();
    return p;
  }
  Vec3 angular_momentum() const override { return solver_.angular_momentum(); }
  void save(ArchiveWriter& out) const override { solver_.save(out); }
  void load(ArchiveReader& in) override { solver_.load(in); }

 protected:
  virtual const std::vector<VecD<D>>& positions() const = 0;
  Solver solver_;
};

// A frame of particles: a VTU point cloud (one vertex cell per particle) with their velocities and
// the method's per-particle fields (n x 1 matrices).
template <int D>
void write_particle_frame(const std::filesystem::path& path, const std::vector<VecD<D>>& x,
                          const std::vector<VecD<D>>& v, VtuFields fields) {
  const Eigen::Index n = static_cast<Eigen::Index>(x.size());
  Mesh points;
  points.vertices.resize(n, D);
  points.cells.resize(n, 1);
  Eigen::MatrixXd velocity = Eigen::MatrixXd::Zero(n, 3);
  for (Eigen::Index i = 0; i < n; ++i) {
    points.vertices.row(i) = x[i].transpose();
    points.cells(i, 0) = static_cast<int>(i);
    velocity.row(i).template head<D>() = v[i].transpose();
  }
  fields.insert(fields.begin(), {"velocity", velocity});
  write_vtu(path, points, points.vertices, fields);
}

// The run settings of a particle scene (MpmScene, PbfScene: the same field names).
template <class ParticleScene>
ParticleRunSettings particle_run_settings(const ParticleScene& scene) {
  ParticleRunSettings s;
  s.source = scene.source();
  s.scene_file = scene.file;
  s.scene_fingerprint = scene.fingerprint;
  s.dim = scene.dim;
  s.dt = scene.dt;
  s.steps = scene.steps;
  s.output_every = scene.output_every;
  s.checkpoint_every = scene.checkpoint_every;
  return s;
}

}  // namespace softsim
