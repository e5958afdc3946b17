#include "softsim/scene/analytic_obstacles.hpp"

#include "softsim/scene/scene.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

AnalyticObstacle analytic_obstacle(const ObstacleSpec& o, int dim) {
  AnalyticObstacle shape;
  shape.point = o.point.head(dim);
  switch (o.type) {
    case ObstacleType::plane:
      shape.shape = AnalyticObstacle::Shape::Plane;
      shape.normal = o.normal.head(dim);
      break;
    case ObstacleType::sphere:
      shape.shape = AnalyticObstacle::Shape::Sphere;
      shape.radius = o.radius;
      break;
    default:
      shape.shape = AnalyticObstacle::Shape::Box;
      shape.half_extents = 0.5 * o.size.head(dim);
      break;
  }
  return shape;
}

std::vector<NamedObstacle> scene_analytic_obstacles(const Model& model, const Scene& scene) {
  const std::vector<int> poses = obstacle_pose_vertices(model, scene);
  std::vector<NamedObstacle> out;
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k) {
    const ObstacleSpec& o = scene.obstacles[k];
    if (!o.is_analytic()) continue;
    NamedObstacle named{o.name, analytic_obstacle(o, scene.dim)};
    named.shape.pose_vertex = poses[k];
    out.push_back(std::move(named));
  }
  return out;
}

}  // namespace softsim
