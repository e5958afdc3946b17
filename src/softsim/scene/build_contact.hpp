#pragma once
// Contact terms that build_model adds (internal to scene/): the analytic obstacles of a scene and
// penalty contact (contact.type "penalty", seed 003 sec. 3.2).
#include <vector>

#include "softsim/contact/geometry/analytic_obstacle.hpp"
#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/friction/friction_source.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

// 1e-3 x the bounding-box diagonal of all vertices at t = 0: the default of contact.dhat and
// contact.delta (m).
double default_contact_distance(const Model& model);
BroadPhaseMethod broad_phase_method(const ContactSpec& contact);

// An obstacle of type plane, sphere or box with its first dim coordinates.
AnalyticObstacle analytic_obstacle(const ObstacleSpec& spec, int dim);

// Friction on a contact term's contacts (when any pair has mu > 0): lagged, a potential, or
// implicit, a force without one (contact.friction.mode). After the contact term, whose stiffness
// it reads.
void add_friction(Model& model, const Scene& scene, std::unique_ptr<FrictionSource> source,
                  const FrictionOptions& friction);

// One PenaltyContact term for every body, the static mesh obstacles (already loaded and
// transformed) and the analytic obstacles, plus lagged friction on its contacts when mu > 0.
void add_penalty_contact(Model& model, const Scene& scene, const std::vector<Mesh>& static_meshes,
                         FrictionOptions friction);

}  // namespace softsim
