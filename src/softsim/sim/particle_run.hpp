#pragma once
// Running a particle method (MPM, position-based fluids) to a scene's end, in the output layout of
// a FEM run: frames of particles listed in frames/simulation.pvd, a row of stats.csv per step
// (time, kinetic energy, momenta, wall time, then the method's own columns), summary.json, and
// checkpoints (output.checkpoint_every, at the end, on Ctrl-C) that --resume continues bit for bit.
// Each method adapts its solver to ParticleMethod; the loop, its files and its checks are one.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "softsim/core/types.hpp"
#include "softsim/sim/simulation.hpp"

namespace softsim {

class ArchiveWriter;
class ArchiveReader;

class ParticleMethod {
 public:
  virtual ~ParticleMethod() = default;
  // "mpm", "pbf": summary.json's method, the checkpoint's stepper tag, the progress lines.
  virtual const char* name() const = 0;
  virtual std::size_t particles() const = 0;
  // Folds the initial particles into h: a changed mesh or sampling changes the run's fingerprint.
  virtual std::uint64_t fingerprint(std::uint64_t h) const = 0;
  // One step; throws std::runtime_error (the state unchanged) when it cannot be taken.
  virtual void step(double dt) = 0;
  virtual double time() const = 0;
  // Why the state cannot be stepped, or empty: the state the last step left is checked with it.
  virtual std::string first_problem() const = 0;
  virtual double kinetic_energy() const = 0;
  virtual Vec3 linear_momentum() const = 0;
  virtual Vec3 angular_momentum() const = 0;  // about the origin; 2D: z in [2]
  virtual void write_frame(const std::filesystem::path& path) const = 0;
  // The method's stats.csv columns after the common ones: the header (",a,b") and a row (",1,2").
  virtual std::string stats_columns() const = 0;
  virtual void write_stats(std::ostream& out) const = 0;
  // Keys the method adds to summary.json.
  virtual void add_summary(nlohmann::ordered_json& summary) const = 0;
  virtual void save(ArchiveWriter& out) const = 0;
  virtual void load(ArchiveReader& in) = 0;
};

// What the run takes from the scene file.
struct ParticleRunSettings {
  std::string source;               // the scene file's name, for messages and the summary
  std::filesystem::path scene_file;  // recorded in checkpoints
  std::uint64_t scene_fingerprint = 0;
  int dim = 2;
  double dt = 1e-3;
  int steps = 100;
  int output_every = 1;
  int checkpoint_every = 0;
};

// The caller clears the interrupt request (clear_interrupt_request) before it builds the method's
// particles, so that a Ctrl-C while they are built stops the run before its first step.
// Throws InputError before writing anything for what the options cannot do (a missing, corrupt or
// foreign checkpoint; an output folder that cannot be made). A step that fails ends the run as
// failed, with the frames so far and the message in the report and summary.json; Ctrl-C (with
// install_interrupt_handler) as interrupted, after a checkpoint.
RunReport run_particle_method(ParticleMethod& method, const ParticleRunSettings& settings, const RunOptions& options);

}  // namespace softsim
