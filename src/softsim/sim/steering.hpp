#pragma once
// Steering a run between its steps, for code that drives one (a gripper moved from Python): the
// scene's prescribed motions (by label) get new targets, its moving mesh obstacles (by name) new
// velocities. The Model changes only between steps, never during one.
#include <string>
#include <vector>

#include "softsim/model/model.hpp"

namespace softsim {

// The labels of the prescribed (DOF-eliminating) motions, in the model's order: the JSON paths of
// their selections, e.g. "bodies[1].fixed[0]".
std::vector<std::string> motion_labels(const Model& model);
// Moves motion `label` linearly from where it is at time `from` to the offset `target` (m, from
// the vertices' initial positions, as the scene's paths) at time `to`, and holds it there.
// Throws InputError naming an unknown label (and the known ones) or a target of the wrong size.
void steer_motion(Model& model, const std::string& label, double from, double to, const VecX& target);
// The offset of motion `label` at time t.
VecX motion_offset(const Model& model, const std::string& label, double t);

// The names of the moving mesh obstacles (obstacles with a velocity).
std::vector<std::string> moving_obstacle_names(const Model& model);
// Sets the velocity (m/s) of moving mesh obstacle `name` from the next step on, lifting its
// travel limit. Throws InputError for an unknown name or a velocity of the wrong size.
void set_obstacle_velocity(Model& model, const std::string& name, const VecX& velocity);
// Its current velocity.
VecX obstacle_velocity(const Model& model, const std::string& name);

}  // namespace softsim
