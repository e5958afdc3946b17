#include <fmt/format.h>

#include <Eigen/Geometry>
#include <cmath>

#include "softsim/core/errors.hpp"
#include "softsim/fem/hinge_bending.hpp"
#include "softsim/fem/isometric_bending.hpp"
#include "softsim/fem/mass.hpp"
#include "softsim/fem/mass_spring.hpp"
#include "softsim/fem/shell_membrane.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/quality.hpp"
#include "softsim/mesh/refine.hpp"
#include "softsim/mesh/round_generators.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/meshing/tetrahedralize.hpp"
#include "softsim/scene/initial_equilibrium.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

namespace {

constexpr double kPi = 3.14159265358979323846;

Mesh load_body_mesh(const Scene& scene, const BodySpec& body) {
  if (body.mesh && body.tetrahedralize)
    return tetrahedralize(load_scene_mesh(scene, *body.mesh), *body.tetrahedralize,
                          fmt::format("{}: {}.tetrahedralize: {}", scene.source(), body.path, body.mesh->string()));
  if (body.mesh) return load_scene_mesh(scene, *body.mesh);
  const GeneratorSpec& g = *body.generator;
  switch (g.type) {
    case GeneratorType::box: return generate_box(g.size, g.resolution);
    case GeneratorType::hollow_box: return generate_hollow_box(g.size, g.resolution, g.wall);
    case GeneratorType::sphere: return generate_sphere(g.radius, g.resolution.x());
    case GeneratorType::hollow_sphere: return generate_hollow_sphere(g.inner_radius, g.radius, g.resolution.x(), g.layers);
    case GeneratorType::bowl: return generate_bowl(g.inner_radius, g.radius, g.resolution.x(), g.layers);
    case GeneratorType::rectangle: return generate_rectangle(g.size.head<2>(), g.resolution.head<2>());
    case GeneratorType::spring_grid: return generate_spring_grid(g.size.head<2>(), g.resolution.head<2>());
    case GeneratorType::sheet: {
      // A rectangle of triangles in the x-z plane (y = 0), for cloth and thin shells.
      const Mesh flat =
          generate_rectangle(Vec2(g.size.x(), g.size.z()), Eigen::Vector2i(g.resolution.x(), g.resolution.z()));
      Mesh sheet;
      sheet.cells = flat.cells;
      sheet.vertices.resize(flat.num_vertices(), 3);
      sheet.vertices.col(0) = flat.vertices.col(0);
      sheet.vertices.col(1).setZero();
      sheet.vertices.col(2) = flat.vertices.col(1);
      return sheet;
    }
  }
  throw InputError(fmt::format("{}: {}.generator.type: unknown generator", scene.source(), body.path));
}

void add_mass(Model& model, const MatXi& elements, const std::vector<double>& volumes, const MaterialSpec& m) {
  if (m.mass == MassDistribution::uniform)
    add_uniform_mass(model, elements, volumes, m.density);
  else
    add_simplex_mass(model, elements, volumes, m.density, m.mass == MassDistribution::lumped);
}

// Elasticity and mass of a simplex solid; a rigid affine body (elastic false) gets the mass only,
// and -1 for its elasticity term.
template <int D>
int add_solid(Model& model, const Mesh& mesh, int first, const MaterialSpec& m, const std::string& source,
              bool inversion_filter, bool elastic = true) {
  MatXi elements = mesh.cells.array() + first;
  const LameParameters lame = LameParameters::from_young_poisson(m.youngs_modulus, m.poisson_ratio);
  std::shared_ptr<const Material<D>> material = make_material<D>(m.model, lame);
  auto term = std::make_unique<SimplexElasticity<D>>(elements, as_rows(model.rest_positions, D), material, source);
  add_mass(model, elements, term->rest_volumes(), m);
  if (!elastic) return -1;
  term->set_inversion_filter(inversion_filter);
  return model.add_energy(std::move(term));
}

template <int D>
int add_springs(Model& model, const Mesh& mesh, int first, const MaterialSpec& m) {
  MatXi edges = (mesh.cell_type() == CellType::Edge ? mesh.cells : unique_edges(mesh)).array() + first;
  // Mass: every node gets rho * measure / n (uniform, as in Li & Jiang 2025, Implementation
  // 4.5.1); the measure is the mesh's total cell measure for triangles/tets, or its bounding box
  // for edge-only meshes.
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

// Membrane + hinge bending; lumped mass rho h A / 3 per triangle corner.
int add_shell(Model& model, const Mesh& mesh, int first, const MaterialSpec& m, const std::string& source) {
  MatXi triangles = mesh.cells.array() + first;
  const LameParameters lame = LameParameters::from_young_poisson(m.youngs_modulus, m.poisson_ratio);
  const MatX rest = as_rows(model.rest_positions, 3);
  auto membrane = std::make_unique<ShellMembrane>(triangles, rest, m.model, lame, m.thickness, source);
  std::vector<double> volumes = membrane->rest_areas();
  for (double& v : volumes) v *= m.thickness;
  add_mass(model, triangles, volumes, m);
  const double h = m.thickness, nu = m.poisson_ratio;
  const double kb = m.bending_stiffness.value_or(m.youngs_modulus * h * h * h / (12.0 * (1.0 - nu * nu)));
  const int term = model.add_energy(std::move(membrane));
  if (kb > 0.0 && m.bending == BendingModel::isometric) {
    try {
      model.add_energy(std::make_unique<IsometricBending>(triangles, rest, kb));
    } catch (const std::invalid_argument& e) {
      throw InputError(source + ": material.bending: " + e.what());
    }
  } else if (kb > 0.0) {
    model.add_energy(std::make_unique<HingeBending>(triangles, rest, kb));
  }
  return term;
}

}  // namespace

std::filesystem::path scene_path(const std::filesystem::path& scene_file, const std::filesystem::path& file) {
  return file.is_relative() && !scene_file.empty() ? scene_file.parent_path() / file : file;
}

std::filesystem::path scene_path(const Scene& scene, const std::filesystem::path& file) {
  return scene_path(scene.file, file);
}

Mesh load_scene_mesh(const Scene& scene, const std::filesystem::path& file) {
  return read_mesh(scene_path(scene, file), scene.dim);
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

VecX centre_of_mass(const Model& model, int first, int count) {
  const std::vector<double> masses = model.vertex_masses();
  const auto x = as_rows(model.rest_positions, model.dim()).middleRows(first, count);
  VecX centre = VecX::Zero(model.dim());
  double total = 0.0;
  for (int i = 0; i < count; ++i) {
    centre += masses[first + i] * x.row(i).transpose();
    total += masses[first + i];
  }
  return total > 0.0 ? VecX(centre / total) : VecX(x.colwise().mean().transpose());
}

void add_bodies(Model& model, const Scene& scene) {
  const int dim = scene.dim;
  const std::string file = scene.source();
  for (const BodySpec& spec : scene.bodies) {
    Mesh mesh = load_body_mesh(scene, spec);
    if (spec.refine > 0) {
      try {
        mesh = refine_uniformly(mesh, spec.refine);
      } catch (const std::invalid_argument& e) {
        throw InputError(fmt::format("{}: {}.refine: {}", file, spec.path, e.what()));
      }
    }
    const std::string source =
        spec.mesh ? spec.mesh->string() : fmt::format("{}: {}.generator", file, spec.path);
    const std::string what_mesh = spec.mesh ? "the mesh " + spec.mesh->string() : std::string("the generated mesh");
    if (mesh.dim() != dim)
      throw InputError(fmt::format("{}: {}: {} is {}D but the scene is {}D", file, spec.path, what_mesh,
                                   mesh.dim(), dim));
    validate_mesh(mesh, source);
    const CellType type = mesh.cell_type();
    if (spec.kind == BodyKind::shell && type != CellType::Triangle)
      throw InputError(fmt::format("{}: {}: a shell needs triangle cells, the mesh has {} cells", file, spec.path,
                                   to_string(type)));
    if (is_simplex_solid(spec.kind)) {
      const CellType expected = dim == 3 ? CellType::Tetrahedron : CellType::Triangle;
      if (type != expected)
        throw InputError(fmt::format("{}: {}: a {}D solid needs {} cells, {} has {} cells{}", file, spec.path, dim,
                                     to_string(expected), what_mesh, to_string(type),
                                     dim == 3 && type == CellType::Triangle
                                         ? " (for a closed surface, add \"tetrahedralize\": {} to mesh its inside)"
                                         : ""));
    }
    apply_transform(mesh, spec.transform, dim);

    Body body;
    body.name = spec.name;
    body.first_vertex = model.add_vertices(mesh.vertices);
    body.affine = spec.kind == BodyKind::affine;
    const int first = body.first_vertex;
    switch (spec.kind) {
      case BodyKind::shell: body.elasticity_term = add_shell(model, mesh, first, spec.material, source); break;
      case BodyKind::solid:
      case BodyKind::affine: {
        const bool elastic = !(spec.kind == BodyKind::affine && spec.affine.rigid);
        body.elasticity_term =
            dim == 3 ? add_solid<3>(model, mesh, first, spec.material, source, scene.inversion_filter, elastic)
                     : add_solid<2>(model, mesh, first, spec.material, source, scene.inversion_filter, elastic);
        break;
      }
      case BodyKind::mass_spring:
        body.elasticity_term = dim == 3 ? add_springs<3>(model, mesh, first, spec.material)
                                        : add_springs<2>(model, mesh, first, spec.material);
        break;
    }
    if (spec.initial_scale != Vec3::Ones()) {
      // Initial stretch: the energies above captured the rest shape; only the positions at t = 0
      // (model.rest_positions) are scaled, about the body's bounding-box centre.
      auto x = as_rows(model.rest_positions, dim).middleRows(first, mesh.num_vertices());
      const Eigen::RowVectorXd centre = 0.5 * (x.colwise().minCoeff() + x.colwise().maxCoeff());
      for (int i = 0; i < mesh.num_vertices(); ++i) x.row(i) = centre + (x.row(i) - centre).cwiseProduct(spec.initial_scale.head(dim).transpose());
    }
    if (spec.initial_equilibrium)
      as_rows(model.rest_positions, dim).middleRows(first, mesh.num_vertices()) = initial_equilibrium(scene, spec);
    // v = v0 + w x (x - c), c the centre of mass of the body at t = 0 (a rigid spin).
    const auto x0 = as_rows(model.rest_positions, dim).middleRows(first, mesh.num_vertices());
    Vec3 centre = Vec3::Zero();
    centre.head(dim) = centre_of_mass(model, first, mesh.num_vertices());
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
  }
}

}  // namespace softsim
