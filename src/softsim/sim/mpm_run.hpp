#pragma once
// Running an MPM scene (docs/mpm.md, "Running a scene"): the particles stepped to the scene's end,
// with frames of particles (VTU point clouds with velocity, plastic strain and J) listed in
// simulation.pvd, a row of stats.csv per step (kinetic energy, momenta, the step's split) and
// summary.json, in the same output layout as a FEM run; checkpoints as a FEM run's
// (output.checkpoint_every, at the end, on Ctrl-C) that --resume continues bit for bit.
#include "softsim/scene/mpm_scene.hpp"
#include "softsim/sim/simulation.hpp"

namespace softsim {

// Throws InputError before writing anything (the output folder is made only after the particles
// are built and a checkpoint to resume is checked) for what the scene or options cannot do (a
// missing, corrupt or foreign checkpoint). A particle leaving the grid ends the run as failed,
// with the frames so far, the message in the report and summary.json; Ctrl-C (with
// install_interrupt_handler) as interrupted, after a checkpoint.
RunReport run_mpm(const MpmScene& scene, const RunOptions& options);

}  // namespace softsim
