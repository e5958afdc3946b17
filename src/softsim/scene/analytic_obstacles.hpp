#pragma once
// The scene's analytic obstacles (planes, spheres, boxes) as contact geometry, with their names
// and, for moving ones, their pose vertex (build_contact.cpp adds the poses).
#include <vector>

#include "softsim/contact/geometry/analytic_obstacle.hpp"

namespace softsim {

struct ObstacleSpec;
struct Scene;
class Model;

// The shape of one obstacle spec at its rest pose (pose_vertex left at -1).
AnalyticObstacle analytic_obstacle(const ObstacleSpec& spec, int dim);

// Every analytic obstacle of the scene, in scene order; model built from the scene.
std::vector<NamedObstacle> scene_analytic_obstacles(const Model& model, const Scene& scene);

}  // namespace softsim
