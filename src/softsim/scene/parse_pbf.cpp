#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/scene/json_reader.hpp"
#include "softsim/scene/particle_scene_top.hpp"
#include "softsim/scene/pbf_scene.hpp"
#include "softsim/scene/read_moving_shape.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

namespace {

// The object at key (or array element i), or one clear message naming it.
JsonReader object_at(const JsonReader& r, const std::string& key) {
  const JsonReader c = r.child(key);
  if (!c.node().is_object()) r.fail(key, "expected an object, got " + describe_json(c.node()));
  return c;
}

Vec3 required(const JsonReader& r, const std::string& key, int dim) {
  if (!r.has(key)) r.fail(key, fmt::format("missing; expected {} numbers", dim));
  return read_vec(r, key, Vec3::Zero(), dim);
}

// Why the box [lo, hi] is not inside the tank, or empty.
std::string outside_tank(const PbfScene& scene, const Vec3& lo, const Vec3& hi) {
  const PbfOptions<3>& o = scene.options;
  for (int a = 0; a < scene.dim; ++a)
    if (!(lo[a] >= o.domain_lo[a] && hi[a] <= o.domain_hi[a]))  // written so that NaN is outside
      return fmt::format("axis {} spans [{:g}, {:g}] m, outside the tank's [{:g}, {:g}] m", a, lo[a], hi[a],
                         o.domain_lo[a], o.domain_hi[a]);
  return "";
}

}  // namespace

bool is_pbf_scene(const nlohmann::json& json) { return json.is_object() && json.contains("pbf"); }

PbfScene parse_pbf_scene(const nlohmann::json& json, const std::filesystem::path& file) {
  PbfScene scene;
  scene.file = file;
  const JsonReader root = read_particle_scene_top(
      json, scene, "does not apply to a position-based fluid scene (its fluids and obstacles are in \"pbf\")");
  const int dim = scene.dim;
  if (root.has("mpm")) root.fail("mpm", "a scene has either an \"mpm\" or a \"pbf\" section, not both");
  const JsonReader p = object_at(root, "pbf");
  PbfOptions<3>& o = scene.options;
  o.gravity = scene.gravity;
  if (!p.has("tank")) p.fail("tank", "missing; give the box the fluid stays in: {\"min\": [...], \"max\": [...]}");
  {
    const JsonReader tank = object_at(p, "tank");
    o.domain_lo = required(tank, "min", dim);
    o.domain_hi = required(tank, "max", dim);
    if (((o.domain_hi - o.domain_lo).head(dim).array() <= 0.0).any()) tank.fail("max", "expected max > min on every axis");
    tank.finish();
  }
  if (!p.has("spacing")) p.fail("spacing", "missing; give the particle spacing (m)");
  o.spacing = p.positive("spacing", o.spacing);
  const double tank_volume = (o.domain_hi - o.domain_lo).head(dim).prod();
  if (!(2.0 * o.spacing < (o.domain_hi - o.domain_lo).head(dim).minCoeff()))
    p.fail("spacing", "expected less than half the tank's smallest side");
  if (tank_volume / std::pow(o.spacing, dim) > 50.0 * kPbfMaxParticles)
    p.fail("spacing", "too small for the tank: its neighbour grid would not fit in memory");
  o.rest_density = p.positive("rest_density", o.rest_density);
  if (p.has("kernel_radius")) {
    o.kernel_radius = p.number("kernel_radius", 0.0, o.spacing, 10.0 * o.spacing);
  }
  o.substeps = p.integer("substeps", o.substeps, 1, 1000);
  o.iterations = p.integer("iterations", o.iterations, 1, 1000);
  o.relaxation = p.number("relaxation", o.relaxation, 0.0, 1e6, true);
  if (p.has("tensile")) {
    const JsonReader t = object_at(p, "tensile");
    o.tensile_k = t.number("k", o.tensile_k, 0.0, 10.0);
    o.tensile_n = t.integer("n", o.tensile_n, 1, 16);
    o.tensile_distance = t.number("distance", o.tensile_distance, 0.0, 0.99, true);
    t.finish();
  }
  o.xsph = p.number("xsph", o.xsph, 0.0, 1.0);
  o.vorticity = p.number("vorticity", o.vorticity, 0.0, 1e6);
  o.unilateral = p.boolean("unilateral", o.unilateral);
  if (!p.has("fluids")) p.fail("fluids", "missing; give at least one block or ball of fluid");
  const JsonReader fluids = p.child("fluids");
  if (!fluids.node().is_array()) p.fail("fluids", "expected an array, got " + describe_json(fluids.node()));
  double particles = 0.0;
  for (std::size_t i = 0; i < fluids.array_size(); ++i) {
    const JsonReader r = fluids.element(i);
    if (!r.node().is_object()) r.fail_here("expected an object, got " + describe_json(r.node()));
    PbfScene::Fluid f;
    f.name = r.string("name", fmt::format("fluid{}", i));
    for (const PbfScene::Fluid& other : scene.fluids)
      if (other.name == f.name) r.fail("name", "another fluid has this name");
    f.path = r.path();
    if (r.has("box") == r.has("sphere"))
      r.fail_here(std::string(r.has("box") ? "more than one region" : "missing its region") +
                  ": give exactly one of \"box\": {\"min\": [...], \"max\": [...]} or \"sphere\": {\"center\": [...], "
                  "\"radius\": r}");
    if (r.has("box")) {
      const JsonReader box = object_at(r, "box");
      f.lo = required(box, "min", dim);
      f.hi = required(box, "max", dim);
      if (((f.hi - f.lo).head(dim).array() <= 0.0).any()) box.fail("max", "expected max > min on every axis");
      if (const std::string outside = outside_tank(scene, f.lo, f.hi); !outside.empty()) box.fail_here(outside);
      box.finish();
    } else {
      f.shape = PbfScene::Fluid::Shape::sphere;
      const JsonReader sphere = object_at(r, "sphere");
      f.center = required(sphere, "center", dim);
      if (!sphere.has("radius")) sphere.fail("radius", "missing; expected the sphere's radius (m)");
      f.radius = sphere.positive("radius", 1.0);
      f.lo = f.center - Vec3::Constant(f.radius);
      f.hi = f.center + Vec3::Constant(f.radius);
      if (const std::string outside = outside_tank(scene, f.lo, f.hi); !outside.empty()) sphere.fail_here(outside);
      sphere.finish();
    }
    particles += (f.hi - f.lo).head(dim).prod() / std::pow(o.spacing, dim);
    if (particles > kPbfMaxParticles)
      r.fail_here(fmt::format("the fluids so far make about {:.3g} particles, more than the limit of {:.3g}", particles,
                              kPbfMaxParticles));
    f.velocity = read_vec(r, "velocity", Vec3::Zero(), dim);
    r.finish();
    scene.fluids.push_back(f);
  }
  if (scene.fluids.empty()) p.fail("fluids", "expected at least one fluid");
  o.obstacles = p.list("obstacles", [&](const JsonReader& r) {
    if (!r.node().is_object()) r.fail_here("expected an object, got " + describe_json(r.node()));
    const MovingShape<3> shape = read_moving_shape(r, dim);
    r.finish();
    return shape;
  });
  p.finish();
  root.finish();
  return scene;
}

}  // namespace softsim
