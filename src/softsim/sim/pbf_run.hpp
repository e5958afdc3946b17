#pragma once
// Running a position-based fluid scene (docs/pbf.md, "Running a scene"): frames of particles (VTU
// point clouds with velocity and density), stats.csv with the step's split and the density error,
// summary.json and checkpoints, through the particle-method run (sim/particle_run.hpp).
#include "softsim/scene/pbf_scene.hpp"
#include "softsim/sim/simulation.hpp"

namespace softsim {

// Throws InputError before writing anything for what the scene or options cannot do.
RunReport run_pbf(const PbfScene& scene, const RunOptions& options);

}  // namespace softsim
