#include "softsim/scene/build_contact.hpp"

#include <algorithm>

#include "softsim/contact/friction/implicit_friction.hpp"
#include "softsim/contact/friction/lagged_friction.hpp"
#include "softsim/contact/penalty/penalty_contact.hpp"
#include "softsim/mesh/surface.hpp"

namespace softsim {

namespace {

// Half the smallest extent of the vertices' bounding box: no point inside a box-like body is
// deeper than that, so it is the search radius that finds every penetration of the body.
double half_smallest_extent(const MatX& vertices) {
  if (vertices.rows() == 0) return 0.0;
  return 0.5 * (vertices.colwise().maxCoeff() - vertices.colwise().minCoeff()).minCoeff();
}

}  // namespace

double default_contact_distance(const Model& model) {
  const auto X = as_rows(model.rest_positions, model.dim());
  return 1e-3 * (X.colwise().maxCoeff() - X.colwise().minCoeff()).norm();
}

BroadPhaseMethod broad_phase_method(const ContactSpec& contact) {
  return contact.broad_phase == "bvh" ? BroadPhaseMethod::BVH : BroadPhaseMethod::SpatialHash;
}

AnalyticObstacle analytic_obstacle(const ObstacleSpec& o, int dim) {
  AnalyticObstacle shape;
  shape.point = o.point.head(dim);
  if (o.type == "plane") {
    shape.shape = AnalyticObstacle::Shape::Plane;
    shape.normal = o.normal.head(dim);
  } else if (o.type == "sphere") {
    shape.shape = AnalyticObstacle::Shape::Sphere;
    shape.radius = o.radius;
  } else {
    shape.shape = AnalyticObstacle::Shape::Box;
    shape.half_extents = 0.5 * o.size.head(dim);
  }
  return shape;
}

void add_friction(Model& model, const Scene& scene, std::unique_ptr<FrictionSource> source,
                  const FrictionOptions& friction) {
  if (!friction.any()) return;
  if (scene.contact.friction.mode == "implicit")
    model.add_force(std::make_unique<ImplicitFriction>(std::move(source), friction));
  else
    model.add_energy(std::make_unique<LaggedFriction>(std::move(source), friction));
}

void add_penalty_contact(Model& model, const Scene& scene, const std::vector<Mesh>& static_meshes,
                         FrictionOptions friction) {
  const int dim = model.dim();
  PenaltyOptions options;
  options.delta = scene.contact.delta.value_or(default_contact_distance(model));
  options.kappa = scene.contact.kappa;
  options.broad_phase = broad_phase_method(scene.contact);
  options.between_bodies = scene.contact.enabled;
  CollisionMesh collision = build_collision_mesh(model);
  for (const Mesh& mesh : static_meshes)
    add_obstacle(collision, mesh.vertices, dim == 3 ? mesh.cells : extract_surface(mesh).edges);
  // Search radius per body: given, or half the body's smallest rest extent (at least 2 delta);
  // static meshes (often open, e.g. a ground quad) at least the largest body value.
  const std::optional<double> given = scene.contact.search_radius;
  double largest = 2.0 * options.delta;
  for (const Body& body : model.bodies) {
    const double r = given.value_or(std::max(2.0 * options.delta, half_smallest_extent(body.mesh.vertices)));
    options.search_radius.push_back(r);
    largest = std::max(largest, r);
  }
  for (const Mesh& mesh : static_meshes)
    options.search_radius.push_back(given.value_or(std::max(largest, half_smallest_extent(mesh.vertices))));
  std::vector<AnalyticObstacle> obstacles;
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k)
    if (scene.obstacles[k].type != "mesh") {
      obstacles.push_back(analytic_obstacle(scene.obstacles[k], dim));
      // Friction groups: bodies, then obstacles by scene index (friction_options).
      friction.analytic_obstacle_groups.push_back(static_cast<int>(model.bodies.size() + k));
    }
  auto term = std::make_unique<PenaltyContact>(model, std::move(collision), std::move(obstacles), options);
  const PenaltyContact* penalty = term.get();
  model.add_energy(std::move(term));
  add_friction(model, scene, penalty_friction_source(*penalty, friction), friction);
}

}  // namespace softsim
