#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "softsim/scene/scene_sections.hpp"

namespace softsim {

std::vector<ObstacleSpec> read_obstacles(const JsonReader& list, int dim) {
  std::vector<ObstacleSpec> obstacles;
  for (std::size_t i = 0; i < list.array_size(); ++i) {
    const JsonReader o = list.element(i);
    ObstacleSpec spec;
    spec.type = o.choice("type", ObstacleType::plane);
    spec.name = o.string("name", fmt::format("obstacle{}", i));
    spec.path = o.path();
    switch (spec.type) {
      case ObstacleType::mesh:
        if (!o.has("mesh")) o.fail("mesh", "missing; a mesh obstacle needs a surface mesh file");
        spec.mesh = o.string("mesh", "");
        if (o.has("transform")) spec.transform = read_transform(o.child("transform"), dim);
        if (o.has("velocity")) spec.velocity = read_vec(o, "velocity", Vec3::Zero(), dim);
        if (o.has("limit")) {
          if (!spec.velocity) o.fail("limit", "applies to a moving mesh (give \"velocity\")");
          spec.limit = o.positive("limit", spec.limit);
        }
        break;
      case ObstacleType::plane:
        spec.point = read_vec(o, "point", Vec3::Zero(), dim);
        spec.normal = read_vec(o, "normal", Vec3::UnitY(), dim);
        if (spec.normal.norm() < 1e-12) o.fail("normal", "expected a non-zero vector");
        spec.normal.normalize();
        break;
      case ObstacleType::sphere:
        spec.point = read_vec(o, "center", Vec3::Zero(), dim);
        spec.radius = o.positive("radius", spec.radius);
        break;
      case ObstacleType::box:
        spec.point = read_vec(o, "center", Vec3::Zero(), dim);
        spec.size = read_vec(o, "size", Vec3::Ones(), dim, 1.0);
        if (spec.size.head(dim).minCoeff() <= 0) o.fail("size", "expected positive sizes");
        break;
    }
    if (spec.is_analytic() && (o.has("velocity") || o.has("path") || o.has("method"))) {
      spec.motion.emplace();
      read_motion(o, dim, *spec.motion);
      if (o.has("mass") || o.has("gravity")) {
        if (!spec.motion->penalty) o.fail_here("\"mass\" and \"gravity\" apply to \"method\": \"penalty\" only");
        spec.mass = o.positive("mass", spec.mass);
        spec.gravity = o.boolean("gravity", spec.gravity);
      }
    }
    o.finish();
    obstacles.push_back(spec);
  }
  return obstacles;
}

namespace {

ContactSpec::Friction read_friction(const JsonReader& f, const Scene& scene, ContactType type) {
  ContactSpec::Friction fr;
  if (type == ContactType::constraint)
    for (const char* key : {"eps_v", "mode", "iterations", "smoothing"})
      if (f.has(key)) f.fail(key, "applies to contact.type \"barrier\" and \"penalty\" (constraint contact's friction is the exact Coulomb law)");
  fr.mu = f.number("mu", fr.mu, 0.0);
  fr.eps_v = f.positive("eps_v", fr.eps_v);
  fr.mode = f.choice("mode", fr.mode);
  fr.iterations = f.integer("iterations", fr.iterations, 1, 100);
  fr.smoothing = f.choice("smoothing", fr.smoothing);
  if (f.has("pairs")) {
    const JsonReader pairs = f.child("pairs");
    for (std::size_t k = 0; k < pairs.array_size(); ++k) {
      const JsonReader p = pairs.element(k);
      ContactSpec::Friction::Pair pair;
      pair.path = p.path();
      if (!p.has("bodies")) p.fail("bodies", "missing; expected two body or obstacle names");
      const auto& names = p.node().at("bodies");
      if (!names.is_array() || names.size() != 2 || !names[0].is_string() || !names[1].is_string())
        p.fail("bodies", "expected two body or obstacle names");
      pair.a = names[0].get<std::string>();
      pair.b = names[1].get<std::string>();
      if (!p.has("mu")) p.fail("mu", "missing; expected a number >= 0");
      pair.mu = p.number("mu", 0.0, 0.0);
      for (const std::string& name : {pair.a, pair.b}) {
        const bool body = std::any_of(scene.bodies.begin(), scene.bodies.end(),
                                      [&](const BodySpec& b) { return b.name == name; });
        const bool obstacle = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                          [&](const ObstacleSpec& o) { return o.name == name; });
        if (!body && !obstacle) p.fail("bodies", "no body or obstacle is named \"" + name + "\"");
      }
      p.finish();
      fr.pairs.push_back(pair);
    }
  }
  f.finish();
  return fr;
}

ConstraintSolveOptions read_constraint(const JsonReader& r) {
  ConstraintSolveOptions o;
  o.newton_iterations = r.integer("newton_iterations", o.newton_iterations, 1, 1000);
  o.update = r.choice("update", o.update);
  o.pgs.max_iterations = r.integer("pgs_iterations", o.pgs.max_iterations, 1, 100000000);
  o.pgs.tolerance = r.number("pgs_tolerance", o.pgs.tolerance, 0.0);
  r.finish();
  return o;
}

}  // namespace

ContactSpec read_contact(const JsonReader& c, const Scene& scene) {
  ContactSpec contact;
  contact.enabled = c.boolean("enabled", contact.enabled);
  contact.type = c.choice("type", contact.type);
  const bool penalty = contact.type == ContactType::penalty, barrier = contact.type == ContactType::barrier,
             constraint = contact.type == ContactType::constraint;
  for (const char* key : {"dhat", "barrier", "thickness"})
    if (!barrier && c.has(key))
      c.fail(key, penalty ? "applies to contact.type \"barrier\" (penalty contact uses \"delta\")"
                          : "applies to contact.type \"barrier\" (constraint contact uses \"detection_distance\")");
  if (!penalty && c.has("delta")) c.fail("delta", "applies to contact.type \"penalty\"");
  if (barrier && c.has("search_radius")) c.fail("search_radius", "applies to contact.type \"penalty\" and \"constraint\"");
  for (const char* key : {"detection_distance", "constraint"})
    if (!constraint && c.has(key)) c.fail(key, "applies to contact.type \"constraint\"");
  if (constraint && c.has("kappa")) c.fail("kappa", "applies to contact.type \"barrier\" and \"penalty\" (constraint contact has no stiffness)");
  if (c.has("detection_distance")) contact.detection_distance = c.positive("detection_distance", 1e-2);
  if (c.has("constraint")) contact.constraint = read_constraint(c.child("constraint"));
  if (c.has("delta")) contact.delta = c.positive("delta", 1e-3);
  if (c.has("search_radius")) contact.search_radius = c.positive("search_radius", 1.0);
  if (c.has("dhat")) contact.dhat = c.positive("dhat", 1e-3);
  if (c.has("kappa")) contact.kappa = c.positive("kappa", 1e5);
  contact.barrier = c.choice("barrier", contact.barrier);
  if (contact.barrier == BarrierForm::book_squared && scene.dim != 2)
    c.fail("barrier", "\"book_squared\" is the 2D point-edge barrier of Li & Jiang 2025 (Implementation 21.3.1); "
                      "use \"ipc\" or \"book\" in 3D");
  contact.broad_phase =
      c.choice("broad_phase", contact.broad_phase, {BroadPhaseMethod::Auto, BroadPhaseMethod::SpatialHash, BroadPhaseMethod::BVH, BroadPhaseMethod::LinearBVH});
  contact.thickness = c.number("thickness", contact.thickness, 0.0);
  if (c.has("friction")) contact.friction = read_friction(c.child("friction"), scene, contact.type);
  c.finish();
  return contact;
}

bool ContactSpec::Friction::any() const {
  return mu > 0.0 || std::any_of(pairs.begin(), pairs.end(), [](const Pair& p) { return p.mu > 0.0; });
}

}  // namespace softsim
