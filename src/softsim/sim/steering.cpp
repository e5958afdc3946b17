#include "softsim/sim/steering.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "softsim/core/errors.hpp"
#include "softsim/fem/penalty_motion.hpp"

namespace softsim {

namespace {

// "a, b, c", or "none": the names a message offers in place of an unknown one.
std::string listed(const std::vector<std::string>& names) {
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

std::size_t motion_index(const Model& model, const std::string& label) {
  const auto& motions = model.boundary.motions();
  for (std::size_t i = 0; i < motions.size(); ++i)
    if (motions[i].label == label) return i;
  throw InputError(fmt::format("no prescribed motion \"{}\" (the scene's are: {})", label, listed(motion_labels(model))));
}

// Whether a motion's vertices are held by the subspace map (a zero row of B: a reduced body's
// fixed vertices), where moving them would be overwritten by x = offset + B y.
bool held_by_subspace(const Model& model, const PrescribedMotion& motion) {
  if (model.subspace.empty() || motion.vertices.empty()) return false;
  const int dof = motion.vertices.front() * model.dim();
  return model.subspace.basis_t.col(dof).nonZeros() == 0;
}

void check_size(const VecX& v, int dim, const char* what) {
  if (v.size() != dim) throw InputError(fmt::format("{}: {} components given, the scene has {} dimensions", what, v.size(), dim));
  if (!v.allFinite()) throw InputError(fmt::format("{}: not finite", what));
}

// A moving mesh obstacle is a body driven by the PenaltyMotion that says it drives an obstacle,
// over all of its vertices: that motion, or null for any other body (a penalty-driven kinematic
// affine body is a body, not an obstacle).
PenaltyMotion* motion_of(const Model& model, const Body& body) {
  if (body.elasticity_term >= 0) return nullptr;
  for (const auto& term : model.energies())
    if (auto* motion = dynamic_cast<PenaltyMotion*>(term.get()))
      if (motion->drives_obstacle() && !motion->vertices().empty() && motion->vertices().front() == body.first_vertex &&
          static_cast<int>(motion->vertices().size()) == body.mesh.num_vertices())
        return motion;
  return nullptr;
}

PenaltyMotion& obstacle_motion(const Model& model, const std::string& name) {
  for (const Body& body : model.bodies)
    if (body.name == name)
      if (PenaltyMotion* motion = motion_of(model, body)) return *motion;
  throw InputError(
      fmt::format("no moving mesh obstacle \"{}\" (the scene's are: {})", name, listed(moving_obstacle_names(model))));
}

}  // namespace

std::vector<std::string> motion_labels(const Model& model) {
  std::vector<std::string> labels;
  for (const PrescribedMotion& m : model.boundary.motions()) labels.push_back(m.label);
  return labels;
}

void steer_motion(Model& model, const std::string& label, double from, double to, const VecX& target) {
  const std::size_t index = motion_index(model, label);
  check_size(target, model.dim(), "target offset");
  if (held_by_subspace(model, model.boundary.motions()[index]))
    throw InputError(fmt::format("steering \"{}\": its vertices belong to a reduced body, whose basis holds them "
                                 "where they start",
                                 label));
  if (model.boundary.motions()[index].rotation)
    throw InputError(fmt::format("steering \"{}\": the motion rotates (angular_velocity); only translations can be steered", label));
  if (!(to > from)) throw InputError(fmt::format("steering \"{}\": the target time {:g} s is not after {:g} s", label, to, from));
  model.boundary.steer(index, from, to, target);
}

VecX motion_offset(const Model& model, const std::string& label, double t) {
  return model.boundary.offset(motion_index(model, label), t);
}

std::vector<std::string> moving_obstacle_names(const Model& model) {
  std::vector<std::string> names;
  for (const Body& body : model.bodies)
    if (motion_of(model, body)) names.push_back(body.name);
  return names;
}

void set_obstacle_velocity(Model& model, const std::string& name, const VecX& velocity) {
  PenaltyMotion& motion = obstacle_motion(model, name);
  check_size(velocity, model.dim(), "obstacle velocity");
  motion.set_velocity(velocity);
}

VecX obstacle_velocity(const Model& model, const std::string& name) { return obstacle_motion(model, name).velocity(); }

}  // namespace softsim
