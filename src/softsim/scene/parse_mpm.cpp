#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "softsim/core/enum_names.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/scene/mpm_scene.hpp"
#include "softsim/scene/particle_scene_top.hpp"
#include "softsim/scene/read_moving_shape.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

template <>
struct EnumNames<MpmKernel> {
  static constexpr std::pair<MpmKernel, const char*> table[] = {{MpmKernel::quadratic, "quadratic"},
                                                                 {MpmKernel::cubic, "cubic"}};
};
template <>
struct EnumNames<MpmTransfer> {
  static constexpr std::pair<MpmTransfer, const char*> table[] = {
      {MpmTransfer::pic, "pic"}, {MpmTransfer::flip, "flip"}, {MpmTransfer::apic, "apic"}};
};
template <>
struct EnumNames<MpmBoundary> {
  static constexpr std::pair<MpmBoundary, const char*> table[] = {{MpmBoundary::sticky, "sticky"},
                                                                   {MpmBoundary::slip, "slip"},
                                                                   {MpmBoundary::separate, "separate"},
                                                                   {MpmBoundary::friction, "friction"}};
};
template <>
struct EnumNames<MpmElasticity> {
  static constexpr std::pair<MpmElasticity, const char*> table[] = {
      {MpmElasticity::fixed_corotated, "fixed_corotated"}, {MpmElasticity::stvk_hencky, "stvk_hencky"}};
};
template <>
struct EnumNames<MpmPlasticity> {
  static constexpr std::pair<MpmPlasticity, const char*> table[] = {{MpmPlasticity::none, "none"},
                                                                     {MpmPlasticity::von_mises, "von_mises"},
                                                                     {MpmPlasticity::drucker_prager, "drucker_prager"},
                                                                     {MpmPlasticity::snow, "snow"}};
};

namespace {

constexpr double kMaxGridNodes = 2.5e7;   // about 2 GB of grid arrays

MpmMaterial read_mpm_material(const JsonReader& r) {
  MpmMaterial m;
  m.elasticity = r.choice("elasticity", m.elasticity);
  m.plasticity = r.choice("plasticity", m.plasticity);
  m.youngs_modulus = r.positive("E", m.youngs_modulus);
  m.poisson_ratio = r.number("nu", m.poisson_ratio, -0.999, 0.499);
  m.density = r.positive("density", m.density);
  if (r.has("yield_stress") && m.plasticity != MpmPlasticity::von_mises)
    r.fail("yield_stress", "applies to plasticity \"von_mises\" only");
  if (r.has("friction_angle") && m.plasticity != MpmPlasticity::drucker_prager)
    r.fail("friction_angle", "applies to plasticity \"drucker_prager\" only");
  if (m.plasticity == MpmPlasticity::von_mises) {
    if (!r.has("yield_stress")) r.fail("yield_stress", "missing; von Mises plasticity needs a yield stress (Pa)");
    m.yield_stress = r.positive("yield_stress", 1.0);
  }
  if (m.plasticity == MpmPlasticity::drucker_prager)
    m.friction_angle = r.number("friction_angle", m.friction_angle, 0.0, 89.0);
  for (const char* key : {"critical_compression", "critical_stretch", "hardening"})
    if (r.has(key) && m.plasticity != MpmPlasticity::snow) r.fail(key, "applies to plasticity \"snow\" only");
  if (m.plasticity == MpmPlasticity::snow) {
    m.critical_compression = r.number("critical_compression", m.critical_compression, 0.0, 0.99);
    m.critical_stretch = r.number("critical_stretch", m.critical_stretch, 0.0, 10.0);
    m.hardening = r.number("hardening", m.hardening, 0.0, 100.0);
  }
  return m;
}

}  // namespace

std::string outside_grid(const MpmScene& scene, const Vec3& lo, const Vec3& hi) {
  // The grid's interior in cells: where a particle's whole stencil lies on the grid.
  const double inner_lo = scene.kernel == MpmKernel::quadratic ? 0.5 : 1.0;
  for (int a = 0; a < scene.dim; ++a) {
    const double lo_ok = scene.origin[a] + inner_lo * scene.dx;
    const double hi_ok = scene.origin[a] + (scene.cells[a] - inner_lo) * scene.dx;
    if (!(lo[a] >= lo_ok && hi[a] < hi_ok))  // written so that NaN is outside
      return fmt::format("axis {} spans [{:g}, {:g}] m, outside the grid's interior [{:g}, {:g}) m (the {} kernel "
                         "needs {:g} cell from each side)",
                         a, lo[a], hi[a], lo_ok, hi_ok, name_of(scene.kernel), inner_lo);
  }
  return "";
}

bool is_mpm_scene(const nlohmann::json& json) { return json.is_object() && json.contains("mpm"); }

MpmScene parse_mpm_scene(const nlohmann::json& json, const std::filesystem::path& file) {
  MpmScene scene;
  scene.file = file;
  const JsonReader root = read_particle_scene_top(
      json, scene, "does not apply to an MPM scene (its bodies, colliders and boundaries are in \"mpm\")");
  const int dim = scene.dim;
  const JsonReader m = root.object("mpm");
  double nodes = 1.0;
  {
    if (!m.has("grid")) m.fail("grid", "missing; give its origin, cells per axis and spacing");
    const JsonReader g = m.object("grid");
    scene.origin = read_vec(g, "origin", Vec3::Zero(), dim);
    scene.dx = g.positive("spacing", scene.dx);
    if (!g.has("cells")) g.fail("cells", "missing; give the number of cells per axis");
    const std::vector<int> cells = g.int_list("cells");
    if (static_cast<int>(cells.size()) != dim) g.fail("cells", fmt::format("expected {} numbers", dim));
    for (int a = 0; a < dim; ++a) {
      if (cells[a] < 8 || cells[a] > 4096) g.fail("cells", "expected between 8 and 4096 cells per axis");
      scene.cells[a] = cells[a];
      nodes *= cells[a] + 1.0;
    }
    if (nodes > kMaxGridNodes)
      g.fail("cells", fmt::format("{:.3g} grid nodes, more than the limit of {:.3g}", nodes, kMaxGridNodes));
    g.finish();
  }
  scene.kernel = m.choice("kernel", scene.kernel);
  scene.transfer = m.choice("transfer", scene.transfer);
  if (m.has("flip_ratio") && scene.transfer != MpmTransfer::flip) m.fail("flip_ratio", "applies to transfer \"flip\" only");
  scene.flip_ratio = m.number("flip_ratio", scene.flip_ratio, 0.0, 1.0);
  scene.damping = m.number("damping", scene.damping, 0.0, 1e6);
  if (m.has("walls")) {
    const JsonReader w = m.object("walls");
    scene.wall_nodes = w.integer("nodes", scene.wall_nodes, 0, 64);
    if (2 * scene.wall_nodes >= *std::min_element(scene.cells.begin(), scene.cells.begin() + dim))
      w.fail("nodes", "the walls would cover the whole grid; give fewer nodes or more cells");
    scene.walls = w.choice("condition", scene.walls);
    if (w.has("friction") && scene.walls != MpmBoundary::friction) w.fail("friction", "applies to condition \"friction\" only");
    scene.wall_friction = w.number("friction", 0.0, 0.0, 1.0);
    w.finish();
  }
  if (!m.has("materials")) m.fail("materials", "missing; give at least one material");
  const JsonReader materials = m.child("materials");
  for (std::size_t i = 0; i < materials.array_size(); ++i) {
    const JsonReader r = materials.object_element(i);
    const std::string name = r.string("name", fmt::format("material{}", i));
    if (std::find(scene.material_names.begin(), scene.material_names.end(), name) != scene.material_names.end())
      r.fail("name", "another material has this name");
    scene.material_names.push_back(name);
    scene.materials.push_back(read_mpm_material(r));
    r.finish();
  }
  if (scene.materials.empty()) m.fail("materials", "expected at least one material");
  if (!m.has("bodies")) m.fail("bodies", "missing; give at least one body");
  const JsonReader bodies = m.child("bodies");
  double particles = 0.0;
  for (std::size_t i = 0; i < bodies.array_size(); ++i) {
    const JsonReader r = bodies.object_element(i);
    MpmScene::Body b;
    b.name = r.string("name", fmt::format("body{}", i));
    for (const MpmScene::Body& other : scene.bodies)
      if (other.name == b.name) r.fail("name", "another body has this name");
    b.path = r.path();
    const int shapes = r.has("box") + r.has("sphere") + r.has("mesh");
    if (shapes != 1)
      r.fail_here(std::string(shapes == 0 ? "missing its region" : "more than one region") +
                  ": give exactly one of \"box\": {\"min\": [...], \"max\": [...]}, \"sphere\": {\"center\": [...], "
                  "\"radius\": r} or \"mesh\": \"file\"");
    if (r.has("transform") && !r.has("mesh")) r.fail("transform", "applies to a \"mesh\" body only");
    if (r.has("box")) {
      const JsonReader box = r.object("box");
      b.lo = required_vec(box, "min", dim);
      b.hi = required_vec(box, "max", dim);
      if (((b.hi - b.lo).head(dim).array() <= 0.0).any()) box.fail("max", "expected max > min on every axis");
      if (const std::string outside = outside_grid(scene, b.lo, b.hi); !outside.empty()) box.fail_here(outside);
      box.finish();
    } else if (r.has("sphere")) {
      b.shape = MpmScene::Body::Shape::sphere;
      const JsonReader sphere = r.object("sphere");
      b.center = required_vec(sphere, "center", dim);
      if (!sphere.has("radius")) sphere.fail("radius", "missing; expected the sphere's radius (m)");
      b.radius = sphere.positive("radius", 1.0);
      b.lo = b.center - Vec3::Constant(b.radius);
      b.hi = b.center + Vec3::Constant(b.radius);
      if (const std::string outside = outside_grid(scene, b.lo, b.hi); !outside.empty()) sphere.fail_here(outside);
      sphere.finish();
    } else {
      // The mesh is read when the scene is built (build_mpm.cpp checks that it lies in the grid).
      b.shape = MpmScene::Body::Shape::mesh;
      b.mesh = r.string("mesh", "");
      if (b.mesh.empty()) r.fail("mesh", "expected a file name");
      if (r.has("transform")) b.transform = read_transform(r.object("transform"), dim);
    }
    b.poisson = r.string("sampling", "regular", {"regular", "poisson"}) == "poisson";
    b.particles_per_cell = r.number("particles_per_cell", b.particles_per_cell, 0.1, 1000.0);
    if (b.shape != MpmScene::Body::Shape::mesh)  // a mesh body's count is checked when it is read
      particles += estimated_particles(scene, b.particles_per_cell, b.lo, b.hi);
    if (particles > kMpmMaxParticles)
      r.fail("particles_per_cell", fmt::format("the bodies so far make about {:.3g} particles, more than the limit of "
                                               "{:.3g}", particles, kMpmMaxParticles));
    if (r.has("seed") && !b.poisson) r.fail("seed", "applies to sampling \"poisson\" only");
    b.seed = static_cast<unsigned>(r.integer("seed", 1, 0, 1 << 30));
    b.velocity = read_vec(r, "velocity", Vec3::Zero(), dim);
    const std::string material = r.string("material", scene.material_names.front(), scene.material_names);
    b.material = static_cast<int>(std::find(scene.material_names.begin(), scene.material_names.end(), material) -
                                  scene.material_names.begin());
    r.finish();
    scene.bodies.push_back(b);
  }
  if (scene.bodies.empty()) m.fail("bodies", "expected at least one body");
  scene.colliders = m.list("colliders", [&](const JsonReader& element) {
    element.require_object();
    const JsonReader& r = element;
    MpmCollider<3> c;
    static_cast<MovingShape<3>&>(c) = read_moving_shape(r, dim);
    c.boundary = r.choice("condition", MpmBoundary::separate);
    if (r.has("friction") && c.boundary != MpmBoundary::friction) r.fail("friction", "applies to condition \"friction\" only");
    c.friction = r.number("friction", 0.0, 0.0, 1.0);
    r.finish();
    return c;
  });
  m.finish();
  root.finish();
  return scene;
}

}  // namespace softsim
