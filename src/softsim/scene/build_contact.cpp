// Contact built in one place: the analytic obstacles' barriers, the IPC barrier between and
// within the bodies and against static mesh obstacles, or penalty contact, and the friction on
// each (docs/scene-format.md, "obstacles" and "contact"). Moving mesh obstacles are bodies
// driven by penalty and take part in contact like bodies.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/constraint/constraint_contact.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/contact/friction/friction_source.hpp"
#include "softsim/contact/friction/implicit_friction.hpp"
#include "softsim/contact/friction/lagged_friction.hpp"
#include "softsim/contact/penalty/penalty_contact.hpp"
#include "softsim/core/bounding_box.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/fem/penalty_motion.hpp"
#include "softsim/mesh/quality.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/scene/analytic_obstacles.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

namespace {

// Friction groups: the model's bodies (moving mesh obstacles included) by index, then every
// scene obstacle k as group (number of bodies + k).
int friction_group(const Model& model, const Scene& scene, const std::string& name) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b)
    if (model.bodies[b].name == name) return static_cast<int>(b);
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k)
    if (scene.obstacles[k].name == name) return static_cast<int>(model.bodies.size() + k);
  return -1;
}

FrictionOptions friction_options(const Scene& scene, const Model& model) {
  const auto& f = scene.contact.friction;
  FrictionOptions o;
  o.mu = f.mu;
  o.eps_v = f.eps_v;
  o.iterations = f.iterations;
  o.smoothing = f.smoothing;
  if (f.pairs.empty()) return o;
  const int groups = static_cast<int>(model.bodies.size() + scene.obstacles.size());
  o.pair_mu = MatX::Constant(groups, groups, std::numeric_limits<double>::quiet_NaN());
  for (const auto& pair : f.pairs) {
    const int a = friction_group(model, scene, pair.a), b = friction_group(model, scene, pair.b);
    if (a < 0 || b < 0) continue;  // names were validated by the parser
    o.pair_mu(a, b) = o.pair_mu(b, a) = pair.mu;
  }
  o.vertex_group.assign(model.num_vertices(), -1);
  for (std::size_t b = 0; b < model.bodies.size(); ++b)
    for (int i = 0; i < model.bodies[b].mesh.num_vertices(); ++i)
      o.vertex_group[model.bodies[b].first_vertex + i] = static_cast<int>(b);
  return o;
}

// Friction on a contact term's contacts (when any pair has mu > 0): lagged, a potential, or
// implicit, a force without one (contact.friction.mode). After the contact term, whose
// stiffness it reads.
void add_friction(Model& model, const Scene& scene, std::unique_ptr<FrictionSource> source,
                  const FrictionOptions& friction) {
  if (!friction.any()) return;
  if (scene.contact.friction.mode == FrictionMode::implicit)
    model.add_force(std::make_unique<ImplicitFriction>(std::move(source), friction));
  else
    model.add_energy(std::make_unique<LaggedFriction>(std::move(source), friction));
}

// A tetrahedral obstacle (a solid used as a static collider, as PolyFEM scenes do) is its
// boundary triangles, with only the vertices they use.
Mesh boundary_surface(const Mesh& tets) {
  const Surface surface = extract_surface(tets);
  std::vector<int> new_id(tets.num_vertices(), -1);
  Mesh out;
  out.vertices.resize(static_cast<Eigen::Index>(surface.vertices.size()), 3);
  for (std::size_t i = 0; i < surface.vertices.size(); ++i) {
    new_id[surface.vertices[i]] = static_cast<int>(i);
    out.vertices.row(static_cast<Eigen::Index>(i)) = tets.vertices.row(surface.vertices[i]);
  }
  out.cells = surface.faces.unaryExpr([&](int v) { return new_id[v]; });
  return out;
}

Mesh load_obstacle_mesh(const Scene& scene, const ObstacleSpec& o) {
  const std::string path = scene_path(scene, o.mesh).string();
  Mesh mesh = load_scene_mesh(scene, o.mesh);
  validate_mesh(mesh, path);
  if (scene.dim == 3 && mesh.cell_type() == CellType::Tetrahedron) mesh = boundary_surface(mesh);
  if (mesh.cell_type() != CellType::Triangle)
    throw InputError(fmt::format("{}: {}.mesh: an obstacle mesh needs triangles, {} has {} cells", scene.source(),
                                 o.path, path, to_string(mesh.cell_type())));
  apply_transform(mesh, o.transform, scene.dim);
  return mesh;
}

// Half the smallest extent of the vertices' bounding box: no point inside a box-like body is
// deeper than that, so it is the search radius that finds every penetration of the body.
double half_smallest_extent(const MatX& vertices) {
  if (vertices.rows() == 0) return 0.0;
  return 0.5 * (vertices.colwise().maxCoeff() - vertices.colwise().minCoeff()).minCoeff();
}

// Contact area per vertex (m^(dim-1)): the body's contact_area when given, else its mean edge
// length to the power dim - 1 (for a regular grid of side L and n cells without diagonals, the
// L / n of the Square Drop, Li & Jiang 2025, Implementation 8.3.4). Only the collision
// vertices (a solid's boundary, every vertex of a shell, rod or spring grid) have one: the
// companion code of the book weighs every node, but a node inside a body is never nearer to a
// plane than the nearest boundary vertex (nor to a convex obstacle than the boundary), so the
// two differ only where a body is thinner than dhat; the book's squares have their inner nodes
// far from every obstacle, and give the same numbers. Without the inside, what a contact reads
// and writes is the surface (Energy::vertex_support), which a reduced body forms alone. Pose
// vertices of moving obstacles get none: nothing touches them.
std::vector<double> vertex_contact_areas(const Model& model, const Scene& scene) {
  const int dim = scene.dim;
  std::vector<double> area(model.num_vertices(), 0.0);
  std::vector<char> on_surface(model.num_vertices(), 0);
  for (int v : build_collision_mesh(model).vertices)
    if (v < model.num_vertices()) on_surface[v] = 1;
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    std::optional<double> given;
    if (b < scene.bodies.size()) given = scene.bodies[b].contact_area;
    double value = 0.0;
    if (given) {
      value = *given;
    } else {
      const MatXi edges = body.mesh.cell_type() == CellType::Edge ? body.mesh.cells : unique_edges(body.mesh);
      double mean = 0.0;
      for (int e = 0; e < edges.rows(); ++e)
        mean += (body.mesh.vertices.row(edges(e, 0)) - body.mesh.vertices.row(edges(e, 1))).norm();
      mean /= std::max<Eigen::Index>(1, edges.rows());
      value = std::pow(mean, dim - 1);
    }
    for (int i = 0; i < body.mesh.num_vertices(); ++i)
      if (on_surface[body.first_vertex + i]) area[body.first_vertex + i] = value;
  }
  return area;
}

// The barrier of Li & Jiang 2025 (§7.2) against every analytic obstacle, with its friction.
// Every body vertex has the weight A_i dhat (A_i its contact area). A moving obstacle's
// distance is measured from its pose vertex, which the barrier couples to every vertex it acts on.
void add_obstacle_barriers(Model& model, const Scene& scene) {
  const int dim = scene.dim;
  const std::vector<double> area = vertex_contact_areas(model, scene);
  const std::vector<int> poses = obstacle_pose_vertices(model, scene);
  const double dhat = scene.contact.dhat.value_or(default_contact_distance(model));
  const double kappa = scene.contact.kappa.value_or(1e5);
  const CollisionMesh surface = build_collision_mesh(model);
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k) {
    const ObstacleSpec& o = scene.obstacles[k];
    if (!o.is_analytic()) continue;  // mesh obstacles are part of the IPC collision mesh
    std::vector<double> weights(area.size());
    for (std::size_t i = 0; i < area.size(); ++i) weights[i] = area[i] * dhat;
    auto barrier = std::make_unique<ObstacleBarrier>(dim, analytic_obstacle(o, dim), weights, dhat, kappa, poses[k]);
    barrier->set_surface(surface.faces, surface.edges, model.rest_positions);
    if (!(barrier->min_contact_distance(model.rest_positions) > 0.0))
      throw InputError(fmt::format("{}: obstacles[{}]: {} the {}", scene.source(), k,
                                   o.type == ObstacleType::plane ? "a vertex starts on or behind"
                                                                 : "a vertex, edge or face starts on or inside",
                                   name_of(o.type)));
    if (is_position_based(scene.integrator.type)) {
      // XPBD and PBD project obstacle contact and friction themselves (pbd/obstacle_collisions.hpp):
      // the term only carries the obstacle to them, with every weight 0 (no energy, no friction).
      model.add_energy(std::make_unique<ObstacleBarrier>(dim, analytic_obstacle(o, dim),
                                                         std::vector<double>(area.size(), 0.0), dhat, kappa, poses[k]));
      continue;
    }
    const ObstacleBarrier* obstacle = barrier.get();
    model.add_energy(std::move(barrier));
    FrictionOptions friction = friction_options(scene, model);
    friction.obstacle_group = static_cast<int>(model.bodies.size() + k);
    add_friction(model, scene, obstacle_friction_source(*obstacle, dim, weights, dhat, kappa, friction), friction);
  }
}

// The bodies whose scene sets `self_contact: false` (bodies[i].self_contact): no pair within
// them reaches the contact model.
void mark_bodies_without_self_contact(CollisionMesh& collision, const Model& model, const Scene& scene) {
  for (std::size_t b = 0; b < model.bodies.size() && b < scene.bodies.size(); ++b)
    if (!scene.bodies[b].self_contact)
      mark_without_self_contact(collision, static_cast<int>(b), model.bodies[b].first_vertex,
                                model.bodies[b].mesh.num_vertices());
}

// IPC between and within all bodies. The state at t = 0 must be intersection-free with every
// pair apart (the barrier is infinite at contact).
void add_ipc_contact(Model& model, const Scene& scene) {
  const int dim = model.dim();
  IpcOptions options;
  options.dhat = scene.contact.dhat.value_or(default_contact_distance(model));
  options.kappa = scene.contact.kappa;
  options.form = scene.contact.barrier;
  options.broad_phase = scene.contact.broad_phase;
  options.thickness = scene.contact.thickness;
  if (options.form == BarrierForm::book_squared) {
    // Li & Jiang 2025, Implementation 21.3.1: each point-edge pair weighted by A_p dhat / 2.
    options.point_weights = vertex_contact_areas(model, scene);
    for (double& w : options.point_weights) w *= 0.5 * options.dhat;
  }
  // Collision geometry: surfaces of solids and shells; the vertices of edge-only (mass-spring
  // grid) bodies as points, since their crossing diagonals would intersect each other.
  std::vector<MatXi> edge_blocks, face_blocks;
  std::vector<int> points;
  for (const Body& body : model.bodies) {
    if (body.mesh.cell_type() == CellType::Edge) {
      for (int i = 0; i < body.mesh.num_vertices(); ++i) points.push_back(body.first_vertex + i);
      continue;
    }
    edge_blocks.push_back(body.surface.edges.array() + body.first_vertex);
    if (dim == 3) face_blocks.push_back(body.surface.faces.array() + body.first_vertex);
  }
  auto stack = [](const std::vector<MatXi>& blocks, int cols) {
    Eigen::Index rows = 0;
    for (const MatXi& b : blocks) rows += b.rows();
    MatXi all(rows, cols);
    rows = 0;
    for (const MatXi& b : blocks) {
      all.middleRows(rows, b.rows()) = b;
      rows += b.rows();
    }
    return all;
  };
  const MatXi edges = stack(edge_blocks, 2), faces = stack(face_blocks, 3);
  CollisionMesh collision = build_collision_mesh(dim, model.num_vertices(), edges, faces, points);
  mark_kinematic_and_self_contact_free_bodies(collision, model);
  mark_bodies_without_self_contact(collision, model, scene);
  // Static triangle-mesh obstacles (3D) or edge outlines (2D): collision geometry without DOFs.
  bool has_mesh_obstacle = false;
  FrictionOptions friction = friction_options(scene, model);
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k) {
    const ObstacleSpec& o = scene.obstacles[k];
    if (!o.is_static_mesh()) continue;  // moving meshes are bodies
    const Mesh mesh = load_obstacle_mesh(scene, o);
    add_obstacle(collision, mesh.vertices, dim == 3 ? mesh.cells : extract_surface(mesh).edges);
    if (!friction.vertex_group.empty())
      friction.vertex_group.resize(friction.vertex_group.size() + mesh.num_vertices(),
                                   static_cast<int>(model.bodies.size() + k));
    has_mesh_obstacle = true;
  }
  if (edges.rows() == 0 && !has_mesh_obstacle) return;  // nothing that points could touch
  if (collision.only_one_self_contact_free_body()) return;  // it does not touch itself
  auto contact = std::make_unique<IpcContact>(model, std::move(collision), options);
  const double d = contact->min_contact_distance(model.rest_positions);
  if (!(d > options.thickness))
    throw InputError(fmt::format("{}: bodies: the initial state has touching or intersecting surfaces (closest "
                                 "distance {:g} m); separate the bodies or set contact.enabled to false",
                                 scene.source(), d));
  const IpcContact* ipc = contact.get();
  model.add_energy(std::move(contact));
  add_friction(model, scene, ipc_friction_source(*ipc, friction), friction);
}

// What penalty and constraint contact share: closest features on closed surfaces with signed
// gaps (penalty/surfaces.hpp) between the bodies and the static mesh obstacles, the analytic
// obstacles, and the friction groups of both.
struct SignedGapGeometry {
  CollisionMesh collision;
  std::vector<double> search_radius;  // per collision-mesh body
  std::vector<AnalyticObstacle> obstacles;
  FrictionOptions friction;
};

// Search radius per body: given, or half the body's smallest rest extent (at least 2 gap, gap the
// contact's distance); static meshes (often open, e.g. a ground quad) at least the largest body value.
SignedGapGeometry signed_gap_geometry(const Model& model, const Scene& scene, double gap) {
  const int dim = model.dim();
  std::vector<Mesh> static_meshes;
  for (const ObstacleSpec& o : scene.obstacles)
    if (o.is_static_mesh()) static_meshes.push_back(load_obstacle_mesh(scene, o));
  SignedGapGeometry g;
  g.friction = friction_options(scene, model);
  g.collision = build_collision_mesh(model);
  mark_bodies_without_self_contact(g.collision, model, scene);
  for (std::size_t k = 0, mesh = 0; k < scene.obstacles.size(); ++k) {
    if (!scene.obstacles[k].is_static_mesh()) continue;
    const Mesh& m = static_meshes[mesh++];
    add_obstacle(g.collision, m.vertices, dim == 3 ? m.cells : extract_surface(m).edges);
    if (!g.friction.vertex_group.empty())
      g.friction.vertex_group.resize(g.friction.vertex_group.size() + m.num_vertices(),
                                     static_cast<int>(model.bodies.size() + k));
  }
  const std::optional<double> given = scene.contact.search_radius;
  double largest = 2.0 * gap;
  for (const Body& body : model.bodies) {
    const double r = given.value_or(std::max(2.0 * gap, half_smallest_extent(body.mesh.vertices)));
    g.search_radius.push_back(r);
    largest = std::max(largest, r);
  }
  for (const Mesh& mesh : static_meshes)
    g.search_radius.push_back(given.value_or(std::max(largest, half_smallest_extent(mesh.vertices))));
  for (NamedObstacle& o : scene_analytic_obstacles(model, scene)) g.obstacles.push_back(std::move(o.shape));
  // Friction groups: bodies, then obstacles by scene index (friction_options).
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k)
    if (scene.obstacles[k].is_analytic())
      g.friction.analytic_obstacle_groups.push_back(static_cast<int>(model.bodies.size() + k));
  return g;
}

// One PenaltyContact term for every body, the static mesh obstacles and the analytic obstacles,
// with its friction.
void add_penalty_contact(Model& model, const Scene& scene) {
  PenaltyOptions options;
  options.delta = scene.contact.delta.value_or(default_contact_distance(model));
  options.kappa = scene.contact.kappa;
  options.broad_phase = scene.contact.broad_phase;
  options.between_bodies = scene.contact.enabled;
  SignedGapGeometry g = signed_gap_geometry(model, scene, options.delta);
  options.search_radius = g.search_radius;
  auto term = std::make_unique<PenaltyContact>(model, std::move(g.collision), std::move(g.obstacles), options);
  const PenaltyContact* penalty = term.get();
  model.add_energy(std::move(term));
  add_friction(model, scene, penalty_friction_source(*penalty, g.friction), g.friction);
}

// Constraint contact over the same geometry: the model's ConstraintContact, which the stepper
// resolves (integrate/constraint/).
void add_constraint_contact(Model& model, const Scene& scene) {
  ConstraintContactOptions options;
  options.detection_distance = scene.contact.detection_distance.value_or(10.0 * default_contact_distance(model));
  options.broad_phase = scene.contact.broad_phase;
  options.between_bodies = scene.contact.enabled;
  SignedGapGeometry g = signed_gap_geometry(model, scene, options.detection_distance);
  options.search_radius = g.search_radius;
  options.friction = g.friction;
  model.constraint_contact =
      std::make_shared<ConstraintContact>(model, std::move(g.collision), std::move(g.obstacles), std::move(options));
}

}  // namespace

double default_contact_distance(const Model& model) {
  const auto X = as_rows(model.rest_positions, model.dim());
  return 1e-3 * bounding_box_diagonal(X);
}

// A nodal force -m g on vertex v, so that gravity does not pull it (the nodal forces sized to
// every vertex so far, the new ones zero).
static void cancel_gravity(Model& model, int v, double mass) {
  const int dim = model.dim();
  if (model.nodal_forces.size() != model.num_dofs()) model.nodal_forces.conservativeResizeLike(VecX::Zero(model.num_dofs()));
  model.nodal_forces.segment(static_cast<Eigen::Index>(v) * dim, dim) = -mass * model.gravity.head(dim);
}

// A moving mesh obstacle is a body without elasticity whose every vertex is driven by penalty
// towards x^n + h v (Li & Jiang 2025, §11.2, as its moving ceiling): it stays intersection-free through
// the same IPC and CCD as the bodies. Its vertices get 1 kg each with gravity cancelled, so the
// penalty only has to push through contact.
void add_moving_mesh_obstacles(Model& model, const Scene& scene) {
  const int dim = scene.dim;
  for (const ObstacleSpec& o : scene.obstacles) {
    if (!o.is_moving_mesh()) continue;
    Body body;
    body.name = o.name;
    body.mesh = load_obstacle_mesh(scene, o);
    body.surface = extract_surface(body.mesh);
    body.first_vertex = model.add_vertices(body.mesh.vertices);
    body.kinematic = true;  // a scripted collider: no contact with static obstacles or other kinematic bodies
    std::vector<int> ids;
    for (int i = 0; i < body.mesh.num_vertices(); ++i) {
      model.add_lumped_mass(body.first_vertex + i, 1.0);
      ids.push_back(body.first_vertex + i);
    }
    for (int v : ids) cancel_gravity(model, v, 1.0);
    auto motion = std::make_unique<PenaltyMotion>(dim, ids, std::vector<double>(ids.size(), 1.0),
                                                  o.velocity->head(dim), o.limit, 1e3,
                                                  scene.integrator.newton.tolerance, model.rest_positions);
    motion->set_drives_obstacle();
    model.add_energy(std::move(motion));
    model.bodies.push_back(std::move(body));
  }
}

void add_obstacle_poses(Model& model, const Scene& scene) {
  const int dim = scene.dim;
  for (const ObstacleSpec& o : scene.obstacles) {
    if (!o.is_moving_analytic()) continue;
    const int v = model.add_vertices(o.point.head(dim).transpose());
    model.add_lumped_mass(v, o.mass);
    if (!o.gravity) cancel_gravity(model, v, o.mass);
  }
}

std::vector<int> obstacle_pose_vertices(const Model& model, const Scene& scene) {
  int next = model.bodies.empty() ? 0 : model.bodies.back().first_vertex + model.bodies.back().mesh.num_vertices();
  std::vector<int> poses;
  for (const ObstacleSpec& o : scene.obstacles) poses.push_back(o.is_moving_analytic() ? next++ : -1);
  return poses;
}

void add_contact(Model& model, const Scene& scene) {
  const bool mesh_obstacles = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                          [](const ObstacleSpec& o) { return o.type == ObstacleType::mesh; });
  if (mesh_obstacles && !scene.contact.enabled)
    throw InputError(fmt::format("{}: contact.enabled: mesh obstacles need contact between bodies, which is disabled",
                                 scene.source()));
  switch (scene.contact.type) {
    case ContactType::constraint: add_constraint_contact(model, scene); break;
    case ContactType::penalty: add_penalty_contact(model, scene); break;
    case ContactType::barrier:
      add_obstacle_barriers(model, scene);
      if (scene.contact.enabled) add_ipc_contact(model, scene);
      break;
  }
}

}  // namespace softsim
