#include <limits>
#include <fmt/format.h>

#include <Eigen/Geometry>
#include <cmath>

#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/contact/friction/implicit_friction.hpp"
#include "softsim/contact/friction/lagged_friction.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/fem/mass.hpp"
#include "softsim/fem/hinge_bending.hpp"
#include "softsim/fem/mass_spring.hpp"
#include "softsim/fem/penalty_motion.hpp"
#include "softsim/fem/shell_membrane.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/quality.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/scene/build_contact.hpp"
#include "softsim/scene/initial_equilibrium.hpp"
#include "softsim/scene/round_generator_spec.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/scene/volume_penalty_spec.hpp"

namespace softsim {

namespace {

constexpr double kPi = 3.14159265358979323846;

Mesh load_body_mesh(const Scene& scene, const BodySpec& body) {
  if (body.mesh) {
    std::filesystem::path path = *body.mesh;
    if (path.is_relative() && !scene.file.empty()) path = scene.file.parent_path() / path;
    return read_mesh(path, scene.dim);
  }
  const GeneratorSpec& g = *body.generator;
  if (g.type == "box") return generate_box(g.size, g.resolution);
  if (g.type == "hollow_box") return generate_hollow_box(g.size, g.resolution, g.wall);
  if (is_round_generator(g.type)) return generate_round(g);
  if (g.type == "rectangle") return generate_rectangle(g.size.head<2>(), g.resolution.head<2>());
  if (g.type == "sheet") {
    // A rectangle of triangles in the x-z plane (y = 0), for cloth and thin shells.
    const Mesh flat = generate_rectangle(Vec2(g.size.x(), g.size.z()), Eigen::Vector2i(g.resolution.x(), g.resolution.z()));
    Mesh sheet;
    sheet.cells = flat.cells;
    sheet.vertices.resize(flat.num_vertices(), 3);
    sheet.vertices.col(0) = flat.vertices.col(0);
    sheet.vertices.col(1).setZero();
    sheet.vertices.col(2) = flat.vertices.col(1);
    return sheet;
  }
  if (g.type == "spring_grid") {
    if (scene.dim == 2) return generate_spring_grid(g.size.head<2>(), g.resolution.head<2>());
    throw InputError(fmt::format("{}: {}.generator.type: spring_grid is 2D only", scene.file.string(), body.path));
  }
  throw InputError(fmt::format("{}: {}.generator.type: unknown generator \"{}\"", scene.file.string(), body.path, g.type));
}

void apply_transform(Mesh& mesh, const TransformSpec& t, int dim) {
  const Vec3 r = t.rotate_degrees * (kPi / 180.0);
  // Rotations about x, then y, then z (so R = Rz Ry Rx).
  const Mat3 R = (Eigen::AngleAxisd(r.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(r.y(), Vec3::UnitY()) *
                  Eigen::AngleAxisd(r.x(), Vec3::UnitX()))
                     .toRotationMatrix();
  for (int i = 0; i < mesh.num_vertices(); ++i) {
    Vec3 p = Vec3::Zero();
    p.head(dim) = mesh.vertices.row(i).transpose();
    p = R * p.cwiseProduct(t.scale) + t.translate;
    mesh.vertices.row(i) = p.head(dim).transpose();
  }
}

std::vector<int> select_vertices(const Scene& scene, const BodySpec& body, const Mesh& mesh, const SelectionSpec& s) {
  std::vector<int> ids;
  if (s.box) {
    const auto& [lo, hi] = *s.box;
    const double eps = 1e-9 * (mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff()).norm();
    for (int i = 0; i < mesh.num_vertices(); ++i) {
      bool inside = true;
      for (int d = 0; d < scene.dim; ++d)
        inside = inside && mesh.vertices(i, d) >= lo[d] - eps && mesh.vertices(i, d) <= hi[d] + eps;
      if (inside) ids.push_back(i);
    }
    if (ids.empty())
      throw InputError(fmt::format("{}: {}.box: selects no vertex of body \"{}\"", scene.file.string(), s.path, body.name));
  } else {
    for (int id : s.ids)
      if (id >= mesh.num_vertices())
        throw InputError(fmt::format("{}: {}.ids: vertex {} is out of range (body \"{}\" has {} vertices)",
                                     scene.file.string(), s.path, id, body.name, mesh.num_vertices()));
    ids = s.ids;
  }
  return ids;
}

// Piecewise-linear keyframe offset, held constant outside the keyed interval.
Vec3 keyframe_offset(const std::vector<std::pair<double, Vec3>>& keys, double t) {
  if (t <= keys.front().first) return keys.front().second;
  for (std::size_t k = 1; k < keys.size(); ++k)
    if (t <= keys[k].first) {
      const double s = (t - keys[k - 1].first) / (keys[k].first - keys[k - 1].first);
      return (1 - s) * keys[k - 1].second + s * keys[k].second;
    }
  return keys.back().second;
}

template <int D>
int add_solid(Model& model, const Mesh& mesh, int first, const MaterialSpec& m, const std::string& source,
              bool inversion_filter) {
  MatXi elements = mesh.cells.array() + first;
  const LameParameters lame = LameParameters::from_young_poisson(m.youngs_modulus, m.poisson_ratio);
  std::shared_ptr<const Material<D>> material = make_material<D>(m.model, lame);
  auto term = std::make_unique<SimplexElasticity<D>>(elements, as_rows(model.rest_positions, D), material, source);
  add_simplex_mass(model, elements, term->rest_volumes(), m.density, m.lumped_mass);
  term->set_inversion_filter(inversion_filter);
  return model.add_energy(std::move(term));
}

template <int D>
int add_springs(Model& model, const Mesh& mesh, int first, const MaterialSpec& m) {
  MatXi edges = (mesh.cell_type() == CellType::Edge ? mesh.cells : unique_edges(mesh)).array() + first;
  // Mass: the book gives every node rho * measure / n (uniform); the measure is the mesh's total
  // cell measure for triangles/tets, or its bounding box for edge-only meshes.
  double measure = 1.0;
  const MatX& V = mesh.vertices;
  if (mesh.cell_type() == CellType::Edge) {
    measure = (V.colwise().maxCoeff() - V.colwise().minCoeff()).prod();
  } else {
    measure = std::abs(inspect_mesh(mesh).total_measure);
  }
  for (int i = 0; i < mesh.num_vertices(); ++i) model.add_lumped_mass(first + i, m.density * measure / mesh.num_vertices());
  return model.add_energy(std::make_unique<MassSpring<D>>(edges, as_rows(model.rest_positions, D), m.spring_stiffness));
}

// Distributes a constant traction over the boundary faces (3D) or edges (2D) lying in the box:
// each of a facet's k vertices gets traction * measure / k. Returns the number of facets loaded.
int add_traction(Model& model, const Body& body, const std::pair<Vec3, Vec3>& box, const VecX& traction) {
  const int dim = model.dim();
  const MatXi& facets = dim == 3 ? body.surface.faces : body.surface.edges;
  const double eps = 1e-9 * (body.mesh.vertices.colwise().maxCoeff() - body.mesh.vertices.colwise().minCoeff()).norm();
  int loaded = 0;
  for (int f = 0; f < facets.rows(); ++f) {
    bool inside = true;
    for (int a = 0; a < facets.cols(); ++a)
      for (int d = 0; d < dim; ++d) {
        const double c = body.mesh.vertices(facets(f, a), d);
        inside = inside && c >= box.first[d] - eps && c <= box.second[d] + eps;
      }
    if (!inside) continue;
    double measure;
    if (dim == 3) {
      const Vec3 p0 = body.mesh.vertices.row(facets(f, 0)).transpose();
      measure = 0.5 * (Vec3(body.mesh.vertices.row(facets(f, 1)).transpose()) - p0)
                          .cross(Vec3(body.mesh.vertices.row(facets(f, 2)).transpose()) - p0)
                          .norm();
    } else {
      measure = (body.mesh.vertices.row(facets(f, 1)) - body.mesh.vertices.row(facets(f, 0))).norm();
    }
    for (int a = 0; a < facets.cols(); ++a)
      model.nodal_forces.segment(static_cast<Eigen::Index>(body.first_vertex + facets(f, a)) * dim, dim) +=
          traction * measure / facets.cols();
    ++loaded;
  }
  return loaded;
}

// Membrane + hinge bending; lumped mass rho h A / 3 per triangle corner.
int add_shell(Model& model, const Mesh& mesh, int first, const MaterialSpec& m, const std::string& source) {
  MatXi triangles = mesh.cells.array() + first;
  const LameParameters lame = LameParameters::from_young_poisson(m.youngs_modulus, m.poisson_ratio);
  const MatX rest = as_rows(model.rest_positions, 3);
  auto membrane = std::make_unique<ShellMembrane>(triangles, rest, m.model, lame, m.thickness, source);
  std::vector<double> volumes = membrane->rest_areas();
  for (double& v : volumes) v *= m.thickness;
  add_simplex_mass(model, triangles, volumes, m.density, m.lumped_mass);
  const double h = m.thickness, nu = m.poisson_ratio;
  const double kb = m.bending_stiffness.value_or(m.youngs_modulus * h * h * h / (12.0 * (1.0 - nu * nu)));
  const int term = model.add_energy(std::move(membrane));
  if (kb > 0.0) model.add_energy(std::make_unique<HingeBending>(triangles, rest, kb));
  return term;
}

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
  o.smoothing = friction_smoothing_from_string(f.smoothing);
  if (f.pairs.empty()) return o;
  const int groups = static_cast<int>(model.bodies.size() + scene.obstacles.size());
  o.pair_mu = MatX::Constant(groups, groups, std::numeric_limits<double>::quiet_NaN());
  for (const auto& pair : f.pairs) {
    const int a = friction_group(model, scene, pair.a), b = friction_group(model, scene, pair.b);
    if (a < 0 || b < 0) continue;  // names were validated by parse_scene
    o.pair_mu(a, b) = o.pair_mu(b, a) = pair.mu;
  }
  o.vertex_group.assign(model.num_vertices(), -1);
  for (std::size_t b = 0; b < model.bodies.size(); ++b)
    for (int i = 0; i < model.bodies[b].mesh.num_vertices(); ++i)
      o.vertex_group[model.bodies[b].first_vertex + i] = static_cast<int>(b);
  return o;
}

Mesh load_obstacle_mesh(const Scene& scene, const ObstacleSpec& o, const std::string& file) {
  std::filesystem::path path = o.mesh;
  if (path.is_relative() && !scene.file.empty()) path = scene.file.parent_path() / path;
  Mesh mesh = read_mesh(path, scene.dim);
  validate_mesh(mesh, path.string());
  if (mesh.cell_type() != CellType::Triangle)
    throw InputError(fmt::format("{}: {}.mesh: an obstacle mesh needs triangles, {} has {} cells", file, o.path,
                                 path.string(), to_string(mesh.cell_type())));
  apply_transform(mesh, o.transform, scene.dim);
  return mesh;
}

// A moving mesh obstacle is a body without elasticity whose every vertex is driven by penalty
// towards x^n + h v (the book ch. 11, as its moving ceiling): it stays intersection-free through
// the same IPC and CCD as the bodies. Its vertices get 1 kg each with gravity cancelled, so the
// penalty only has to push through contact.
void add_kinematic_meshes(Model& model, const Scene& scene, const std::string& file) {
  const int dim = scene.dim;
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k) {
    const ObstacleSpec& o = scene.obstacles[k];
    if (o.type != "mesh" || !o.velocity) continue;
    Body body;
    body.name = o.name;
    body.mesh = load_obstacle_mesh(scene, o, file);
    body.surface = extract_surface(body.mesh);
    body.first_vertex = model.add_vertices(body.mesh.vertices);
    std::vector<int> ids;
    for (int i = 0; i < body.mesh.num_vertices(); ++i) {
      model.add_lumped_mass(body.first_vertex + i, 1.0);
      ids.push_back(body.first_vertex + i);
    }
    VecX forces = VecX::Zero(model.num_dofs());
    forces.head(model.nodal_forces.size()) = model.nodal_forces;
    model.nodal_forces = forces;
    for (int v : ids) model.nodal_forces.segment(static_cast<Eigen::Index>(v) * dim, dim) = -model.gravity.head(dim);
    model.add_energy(std::make_unique<PenaltyMotion>(dim, ids, std::vector<double>(ids.size(), 1.0),
                                                     o.velocity->head(dim), o.limit, 1e3,
                                                     scene.integrator.newton.tolerance));
    model.bodies.push_back(std::move(body));
  }
}

// IPC between and within all bodies. The state at t = 0 must be intersection-free with every
// pair apart (the barrier is infinite at contact).
void add_ipc_contact(Model& model, const Scene& scene, const std::string& file) {
  const int dim = model.dim();
  IpcOptions options;
  options.dhat = scene.contact.dhat.value_or(default_contact_distance(model));
  options.kappa = scene.contact.kappa;
  options.form = scene.contact.barrier == "book" ? BarrierForm::book_unsquared : BarrierForm::ipc_squared;
  options.broad_phase = broad_phase_method(scene.contact);
  options.thickness = scene.contact.thickness;
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
  // Static triangle-mesh obstacles (3D) or edge outlines (2D): collision geometry without DOFs.
  bool has_mesh_obstacle = false;
  FrictionOptions friction = friction_options(scene, model);
  for (std::size_t k = 0; k < scene.obstacles.size(); ++k) {
    const ObstacleSpec& o = scene.obstacles[k];
    if (o.type != "mesh" || o.velocity) continue;  // moving meshes are bodies
    const Mesh mesh = load_obstacle_mesh(scene, o, file);
    add_obstacle(collision, mesh.vertices, dim == 3 ? mesh.cells : extract_surface(mesh).edges);
    if (!friction.vertex_group.empty())
      friction.vertex_group.resize(friction.vertex_group.size() + mesh.num_vertices(),
                                   static_cast<int>(model.bodies.size() + k));
    has_mesh_obstacle = true;
  }
  if (edges.rows() == 0 && !has_mesh_obstacle) return;  // nothing that points could touch
  auto contact = std::make_unique<IpcContact>(model, std::move(collision), options);
  const double d = contact->min_contact_distance(model.rest_positions);
  if (!(d > options.thickness))
    throw InputError(fmt::format("{}: bodies: the initial state has touching or intersecting surfaces (closest "
                                 "distance {:g} m); separate the bodies or set contact.enabled to false",
                                 file, d));
  const IpcContact* ipc = contact.get();
  model.add_energy(std::move(contact));
  add_friction(model, scene, ipc_friction_source(*ipc, friction), friction);
}

}  // namespace

Model build_model(const Scene& scene) {
  const int dim = scene.dim;
  Model model(dim);
  model.gravity = scene.gravity;
  model.rayleigh_alpha = scene.rayleigh_alpha;
  model.rayleigh_beta = scene.rayleigh_beta;
  const std::string file = scene.file.empty() ? "(default scene)" : scene.file.string();

  std::vector<std::pair<int, const BodySpec*>> firsts;
  for (const BodySpec& spec : scene.bodies) {
    Mesh mesh = load_body_mesh(scene, spec);
    const std::string source =
        spec.mesh ? spec.mesh->string() : fmt::format("{}: {}.generator", file, spec.path);
    const std::string what_mesh = spec.mesh ? "the mesh " + spec.mesh->string() : std::string("the generated mesh");
    if (mesh.dim() != dim)
      throw InputError(fmt::format("{}: {}: {} is {}D but the scene is {}D", file, spec.path, what_mesh,
                                   mesh.dim(), dim));
    validate_mesh(mesh, source);
    const CellType type = mesh.cell_type();
    if (spec.kind == "shell" && type != CellType::Triangle)
      throw InputError(fmt::format("{}: {}: a shell needs triangle cells, the mesh has {} cells", file, spec.path,
                                   to_string(type)));
    if (spec.kind == "solid") {
      const CellType expected = dim == 3 ? CellType::Tetrahedron : CellType::Triangle;
      if (type != expected)
        throw InputError(fmt::format("{}: {}: a {}D solid needs {} cells, {} has {} cells", file, spec.path, dim,
                                     to_string(expected), what_mesh, to_string(type)));
    }
    apply_transform(mesh, spec.transform, dim);

    Body body;
    body.name = spec.name;
    body.first_vertex = model.add_vertices(mesh.vertices);
    const int first = body.first_vertex;
    if (spec.kind == "shell") {
      body.elasticity_term = add_shell(model, mesh, first, spec.material, source);
    } else if (spec.kind == "solid") {
      body.elasticity_term = dim == 3 ? add_solid<3>(model, mesh, first, spec.material, source, scene.inversion_filter)
                                      : add_solid<2>(model, mesh, first, spec.material, source, scene.inversion_filter);
    } else {
      body.elasticity_term = dim == 3 ? add_springs<3>(model, mesh, first, spec.material)
                                      : add_springs<2>(model, mesh, first, spec.material);
    }
    if (spec.initial_scale != 1.0) {
      // Initial stretch: the energies above captured the rest shape; only the positions at t = 0
      // (model.rest_positions) are scaled, about the body's bounding-box centre.
      auto x = as_rows(model.rest_positions, dim).middleRows(first, mesh.num_vertices());
      const Eigen::RowVectorXd centre = 0.5 * (x.colwise().minCoeff() + x.colwise().maxCoeff());
      for (int i = 0; i < mesh.num_vertices(); ++i) x.row(i) = centre + spec.initial_scale * (x.row(i) - centre);
    }
    if (spec.initial_equilibrium)
      as_rows(model.rest_positions, dim).middleRows(first, mesh.num_vertices()) = initial_equilibrium(scene, spec);
    // v = v0 + w x (x - c), c the centre of mass of the body at t = 0 (a rigid spin).
    const std::vector<double> masses = model.vertex_masses();
    const auto x0 = as_rows(model.rest_positions, dim).middleRows(first, mesh.num_vertices());
    Vec3 centre = Vec3::Zero();
    double body_mass = 0.0;
    for (int i = 0; i < mesh.num_vertices(); ++i) {
      centre.head(dim) += masses[first + i] * x0.row(i).transpose();
      body_mass += masses[first + i];
    }
    if (body_mass > 0.0) centre /= body_mass;
    for (int i = 0; i < mesh.num_vertices(); ++i) {
      Vec3 r = Vec3::Zero();
      r.head(dim) = x0.row(i).transpose() - centre.head(dim);
      const Vec3 v = spec.initial_velocity + spec.initial_angular_velocity.cross(r);
      model.initial_velocity.segment(static_cast<Eigen::Index>(first + i) * dim, dim) = v.head(dim);
    }
    body.surface = extract_surface(mesh);
    body.mesh = std::move(mesh);
    model.bodies.push_back(std::move(body));
    add_volume_penalties(model, model.bodies.back(), spec, file);
    firsts.emplace_back(first, &spec);
  }
  add_kinematic_meshes(model, scene, file);
  model.boundary.set_dimensions(model.num_vertices(), dim);
  for (std::size_t b = 0; b < firsts.size(); ++b) {
    const BodySpec& spec = *firsts[b].second;
    const Mesh& mesh = model.bodies[b].mesh;
    const int first = firsts[b].first;
    for (const FixedSpec& f : spec.fixed) {
      if (f.penalty) {
        std::vector<int> ids;
        std::vector<double> masses;
        const std::vector<double> all = model.vertex_masses();
        for (int id : select_vertices(scene, spec, mesh, f.selection)) {
          ids.push_back(first + id);
          masses.push_back(all[first + id]);
        }
        model.add_energy(std::make_unique<PenaltyMotion>(dim, ids, masses, f.velocity.head(dim), f.limit, f.kappa,
                                                         scene.integrator.newton.tolerance));
        continue;
      }
      PrescribedMotion motion;
      for (int id : select_vertices(scene, spec, mesh, f.selection)) motion.vertices.push_back(first + id);
      motion.label = f.selection.path;
      if (!f.path.empty()) {
        auto keys = f.path;
        motion.offset = [keys, dim](double t) -> VecX { return keyframe_offset(keys, t).head(dim); };
      } else {
        const Vec3 velocity = f.velocity;
        motion.offset = [velocity, dim](double t) -> VecX { return (velocity * t).head(dim); };
      }
      model.boundary.add_motion(std::move(motion));
    }
    if (!spec.loads.empty() || !spec.tractions.empty()) {
      if (model.nodal_forces.size() != model.num_dofs()) model.nodal_forces = VecX::Zero(model.num_dofs());
      for (const LoadSpec& l : spec.loads)
        for (int id : select_vertices(scene, spec, mesh, l.selection))
          model.nodal_forces.segment(static_cast<Eigen::Index>(first + id) * dim, dim) += l.force.head(dim);
      for (const TractionSpec& t : spec.tractions) {
        const VecX traction = t.traction.head(dim);
        if (add_traction(model, model.bodies[b], *t.selection.box, traction) == 0)
          throw InputError(fmt::format("{}: {}.box: selects no boundary {} of body \"{}\"", file, t.selection.path,
                                       dim == 3 ? "face" : "edge", spec.name));
      }
    }
    for (const SlipSpec& s : spec.slip) {
      SlipCondition slip;
      for (int id : select_vertices(scene, spec, mesh, s.selection)) slip.vertices.push_back(first + id);
      slip.direction = s.direction.head(dim);
      slip.line = s.line;
      try {
        model.boundary.add_slip(slip);
      } catch (const std::invalid_argument&) {
        throw InputError(fmt::format("{}: {}: a vertex already has a slip condition", file, s.selection.path));
      }
    }
  }
  const bool penalty = scene.contact.type == "penalty";
  if (!scene.obstacles.empty() && !penalty) {
    // Contact area per vertex: the body's mean edge length to the power dim - 1 (the book's
    // square drop: side / n_seg = 0.25 per node in 2D).
    std::vector<double> area(model.num_vertices(), 0.0);
    for (const Body& body : model.bodies) {
      const MatXi edges = body.mesh.cell_type() == CellType::Edge ? body.mesh.cells : unique_edges(body.mesh);
      double mean = 0.0;
      for (int e = 0; e < edges.rows(); ++e)
        mean += (body.mesh.vertices.row(edges(e, 0)) - body.mesh.vertices.row(edges(e, 1))).norm();
      mean /= std::max<Eigen::Index>(1, edges.rows());
      for (int i = 0; i < body.mesh.num_vertices(); ++i) area[body.first_vertex + i] = std::pow(mean, dim - 1);
    }
    const double dhat = scene.contact.dhat.value_or(default_contact_distance(model));
    for (std::size_t k = 0; k < scene.obstacles.size(); ++k) {
      const ObstacleSpec& o = scene.obstacles[k];
      if (o.type == "mesh") continue;  // part of the IPC collision mesh (add_ipc_contact)
      std::vector<double> weights(area.size());
      for (std::size_t i = 0; i < area.size(); ++i) weights[i] = area[i] * dhat;
      const AnalyticObstacle shape = analytic_obstacle(o, dim);
      auto barrier = std::make_unique<ObstacleBarrier>(dim, shape, weights, dhat, scene.contact.kappa.value_or(1e5));
      if (!(barrier->min_contact_distance(model.rest_positions) > 0.0))
        throw InputError(fmt::format("{}: obstacles[{}]: a vertex starts on or {} the {}", file, k, o.type == "plane" ? "behind" : "inside", o.type));
      const ObstacleBarrier* obstacle = barrier.get();
      model.add_energy(std::move(barrier));
      const double kappa = scene.contact.kappa.value_or(1e5);
      FrictionOptions friction = friction_options(scene, model);
      friction.obstacle_group = static_cast<int>(model.bodies.size() + k);
      add_friction(model, scene, obstacle_friction_source(*obstacle, dim, weights, dhat, kappa, friction), friction);
    }
  }
  const bool mesh_obstacles = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                          [](const ObstacleSpec& o) { return o.type == "mesh"; });
  if (mesh_obstacles && !scene.contact.enabled)
    throw InputError(fmt::format("{}: contact.enabled: mesh obstacles need IPC contact, which is disabled", file));
  if (penalty) {
    std::vector<Mesh> static_meshes;
    for (const ObstacleSpec& o : scene.obstacles)
      if (o.type == "mesh" && !o.velocity) static_meshes.push_back(load_obstacle_mesh(scene, o, file));
    add_penalty_contact(model, scene, static_meshes, friction_options(scene, model));
  } else if (scene.contact.enabled) {
    add_ipc_contact(model, scene, file);
  }
  model.finalize();
  return model;
}

}  // namespace softsim
