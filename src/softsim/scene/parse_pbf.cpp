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

// Why the box [lo, hi] is not inside the tank, or empty.
std::string outside_tank(const PbfScene& scene, const Vec3& lo, const Vec3& hi) {
  const PbfOptions<3>& o = scene.options;
  for (int a = 0; a < scene.dim; ++a)
    if (!(lo[a] >= o.domain_lo[a] && hi[a] <= o.domain_hi[a]))  // written so that NaN is outside
      return fmt::format("axis {} spans [{:g}, {:g}] m, outside the tank's [{:g}, {:g}] m", a, lo[a], hi[a],
                         o.domain_lo[a], o.domain_hi[a]);
  return "";
}

// Whether two fluid regions share a volume (boxes by their intervals, spheres by their distance,
// a box and a sphere by the box's point closest to the centre).
bool regions_overlap(const PbfScene::Fluid& a, const PbfScene::Fluid& b, int dim) {
  using Shape = PbfScene::Fluid::Shape;
  auto box_gap = [&](const Vec3& lo, const Vec3& hi, const Vec3& c) {
    const Vec3 nearest = c.cwiseMax(lo).cwiseMin(hi);
    return (nearest - c).head(dim).norm();
  };
  if (a.shape == Shape::box && b.shape == Shape::box) {
    for (int k = 0; k < dim; ++k)
      if (!(a.lo[k] < b.hi[k] && b.lo[k] < a.hi[k])) return false;
    return true;
  }
  if (a.shape == Shape::sphere && b.shape == Shape::sphere) return (a.center - b.center).head(dim).norm() < a.radius + b.radius;
  const PbfScene::Fluid& box = a.shape == Shape::box ? a : b;
  const PbfScene::Fluid& ball = a.shape == Shape::box ? b : a;
  return box_gap(box.lo, box.hi, ball.center) < ball.radius;
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
  const JsonReader p = root.object("pbf");
  PbfOptions<3>& o = scene.options;
  o.gravity = scene.gravity;
  if (!p.has("tank")) p.fail("tank", "missing; give the box the fluid stays in: {\"min\": [...], \"max\": [...]}");
  {
    const JsonReader tank = p.object("tank");
    o.domain_lo = required_vec(tank, "min", dim);
    o.domain_hi = required_vec(tank, "max", dim);
    if (((o.domain_hi - o.domain_lo).head(dim).array() <= 0.0).any()) tank.fail("max", "expected max > min on every axis");
    tank.finish();
  }
  if (!p.has("spacing")) p.fail("spacing", "missing; give the particle spacing (m)");
  o.spacing = p.positive("spacing", o.spacing);
  const double tank_volume = (o.domain_hi - o.domain_lo).head(dim).prod();
  if (!(2.0 * o.spacing < (o.domain_hi - o.domain_lo).head(dim).minCoeff()))
    p.fail("spacing", "expected less than half the tank's smallest side");
  o.rest_density = p.positive("rest_density", o.rest_density);
  if (p.has("kernel_radius")) o.kernel_radius = p.number("kernel_radius", 0.0, 1.5 * o.spacing, 10.0 * o.spacing);
  const double h = o.kernel_radius > 0.0 ? o.kernel_radius : 2.0 * o.spacing;
  // The neighbour grid has cells of the kernel radius over the whole tank (two ints each).
  if (tank_volume / std::pow(h, dim) > kPbfMaxGridCells)
    p.fail(o.kernel_radius > 0.0 ? "kernel_radius" : "spacing",
           fmt::format("the tank holds {:.3g} neighbour-grid cells of the kernel radius {:g} m, more than the limit "
                       "of {:.3g}",
                       tank_volume / std::pow(h, dim), h, kPbfMaxGridCells));
  // Neighbours per particle in the rest lattice: the kernel's ball over a lattice cell.
  const double neighbours = (dim == 2 ? M_PI * h * h : 4.0 / 3.0 * M_PI * h * h * h) / std::pow(o.spacing, dim);
  o.substeps = p.integer("substeps", o.substeps, 1, 1000);
  o.iterations = p.integer("iterations", o.iterations, 1, 1000);
  o.relaxation = p.number("relaxation", o.relaxation, 0.0, 1e6, true);
  if (p.has("tensile")) {
    const JsonReader t = p.object("tensile");
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
    const JsonReader r = fluids.object_element(i);
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
      const JsonReader box = r.object("box");
      f.lo = required_vec(box, "min", dim);
      f.hi = required_vec(box, "max", dim);
      if (((f.hi - f.lo).head(dim).array() <= 0.0).any()) box.fail("max", "expected max > min on every axis");
      if (const std::string outside = outside_tank(scene, f.lo, f.hi); !outside.empty()) box.fail_here(outside);
      box.finish();
    } else {
      f.shape = PbfScene::Fluid::Shape::sphere;
      const JsonReader sphere = r.object("sphere");
      f.center = required_vec(sphere, "center", dim);
      if (!sphere.has("radius")) sphere.fail("radius", "missing; expected the sphere's radius (m)");
      f.radius = sphere.positive("radius", 1.0);
      f.lo = f.center - Vec3::Constant(f.radius);
      f.hi = f.center + Vec3::Constant(f.radius);
      if (const std::string outside = outside_tank(scene, f.lo, f.hi); !outside.empty()) sphere.fail_here(outside);
      sphere.finish();
    }
    // As the lattice is sampled: at least one particle per axis (mpm/mpm_particles.cpp).
    double count = 1.0;
    for (int a = 0; a < dim; ++a) count *= std::max(1.0, std::floor((f.hi[a] - f.lo[a]) / o.spacing * (1.0 + 1e-12)));
    particles += count;
    if (particles > kPbfMaxParticles || particles * neighbours > kPbfMaxNeighbours)
      r.fail_here(fmt::format("the fluids so far make about {:.3g} particles with {:.0f} neighbours each, more than the "
                              "limits of {:.3g} particles and {:.3g} neighbour entries",
                              particles, neighbours, kPbfMaxParticles, kPbfMaxNeighbours));
    for (std::size_t k = 0; k < scene.fluids.size(); ++k)
      if (regions_overlap(scene.fluids[k], f, dim))
        r.fail_here(fmt::format("overlaps {} (\"{}\"): fluids must not share space (their particles would coincide)",
                                scene.fluids[k].path, scene.fluids[k].name));
    f.velocity = read_vec(r, "velocity", Vec3::Zero(), dim);
    r.finish();
    scene.fluids.push_back(f);
  }
  if (scene.fluids.empty()) p.fail("fluids", "expected at least one fluid");
  o.obstacles = p.list("obstacles", [&](const JsonReader& r) {
    r.require_object();
    const MovingShape<3> shape = read_moving_shape(r, dim);
    r.finish();
    return shape;
  });
  p.finish();
  root.finish();
  return scene;
}

}  // namespace softsim
