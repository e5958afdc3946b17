#pragma once
// Checkpoints: everything a run needs to continue bitwise where it stopped (the state, the step
// counter, the stepper's history and the run's data, the outputs' lengths), written atomically
// and flushed to disk, so that a run killed at any moment (SIGKILL, power loss) leaves either the
// previous checkpoint or the new one, whole. `softsim run --resume OUT` reads it back.
//
// File layout (checkpoint.bin in the output folder): the magic line "SOFTSIM CHECKPOINT\n", a
// format version, the payload's length and its FNV-1a checksum (all 64-bit, host byte order),
// then the payload (core/binary_archive.hpp). A truncated, corrupt or foreign file is refused
// with a message that says which.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "softsim/core/binary_archive.hpp"
#include "softsim/integrate/stepper.hpp"
#include "softsim/io/vtu.hpp"
#include "softsim/model/state.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

struct Checkpoint {
  std::uint64_t fingerprint = 0;  // run_fingerprint() of the run that wrote it
  std::string scene_file;         // absolute; empty for the built-in default scene
  int step = 0;                   // the last finished step
  int steps_requested = 0;
  State state;
  int failed_steps = 0, subdivided_steps = 0;
  double wall_seconds = 0.0;  // of the run so far
  // Lengths of the tables when the checkpoint was written: a resumed run cuts them back there
  // (rows of steps after the checkpoint are written again) and appends.
  std::uint64_t stats_bytes = 0, contact_forces_bytes = 0;
  std::vector<PvdEntry> frames;  // the .pvd's entries so far
  std::string stepper;           // the stepper's name
  std::string stepper_bytes;     // what Stepper::save wrote
};

// The scene's fingerprint with what the model makes of it (the DOFs and rest positions, so a
// changed mesh file is caught too) and the integrator: a checkpoint resumes only this run.
std::uint64_t run_fingerprint(const Scene& scene, const Model& model, const Stepper& stepper);

std::filesystem::path checkpoint_path(const std::filesystem::path& out_dir);

// Checkpoint::scene_file for a run of `scene_file`: absolute and normalised (empty stays empty).
std::string checkpoint_scene_file(const std::filesystem::path& scene_file);

// Cuts a table of a resumed run (stats.csv, contact_forces.csv) back to its length at the
// checkpoint; throws InputError when the file is missing or shorter than that.
void cut_table_to_checkpoint(const std::filesystem::path& file, std::uint64_t bytes);

// Writes c to `path` atomically, synced to disk. Throws RunError when it cannot.
void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c);

// Reads a checkpoint; throws InputError naming the file when it is missing, truncated, corrupt
// or not a checkpoint of this version.
Checkpoint read_checkpoint(const std::filesystem::path& path);

// Loads the stepper's part of c with `load`, refusing (InputError) a checkpoint of another run:
// another fingerprint (scene or meshes changed) or another stepper (an MPM run's is "mpm").
void restore_run_state(const std::filesystem::path& path, const Checkpoint& c, std::uint64_t fingerprint,
                       const std::string& stepper_name, const std::function<void(ArchiveReader&)>& load);
// restore_run_state for a FEM run's stepper.
void restore_stepper(const std::filesystem::path& path, const Checkpoint& c, std::uint64_t fingerprint,
                     Stepper& stepper);

}  // namespace softsim
