// Bodies in a subspace: affine bodies (Lan et al. 2022; Li & Jiang 2025, ch. on ABD), with the
// orthogonality potential of each, and reduced deformable bodies (Li & Jiang 2025, ch. on model
// reduction); then the subspace map that makes their vertices follow x = A (xbar - c) + t and
// x = x0 + U q.
#include <fmt/format.h>

#include "softsim/core/errors.hpp"
#include "softsim/mesh/quality.hpp"
#include "softsim/scene/reduced_basis_file.hpp"
#include "softsim/scene/scene_sections.hpp"
#include "softsim/subspace/affine_body.hpp"
#include "softsim/subspace/affine_elasticity.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/subspace/body_bases.hpp"
#include "softsim/subspace/body_cubature.hpp"
#include "softsim/subspace/orthogonality_potential.hpp"

namespace softsim {

namespace {

// The body's vertices at t = 0 (rows).
MatX body_positions(const Model& model, const Body& body) {
  return as_rows(model.rest_positions, model.dim()).middleRows(body.first_vertex, body.mesh.num_vertices());
}

// The reduced body's basis: made from the model at t = 0 or read from its file (with the
// cubature stored there, if any), zero at the body's fixed DOFs (a basis file may come from a
// run that held other vertices).
BasisFile reduced_basis_of(const Model& model, const Scene& scene, int b) {
  const BodySpec& spec = scene.bodies[b];
  const ReductionSpec& red = *spec.reduction;
  const Body& body = model.bodies[b];
  const int d = model.dim(), first = body.first_vertex * d, count = body.mesh.num_vertices() * d;
  BasisFile read;
  ReducedBasis& basis = read.basis;
  if (red.file) {
    const std::filesystem::path file = scene_path(scene, *red.file);
    read = read_basis_file(file);
    if (basis.dim != d || basis.num_vertices() != body.mesh.num_vertices())
      throw InputError(fmt::format("{}: a basis of {} vertices in {}D, but body \"{}\" ({}.file) has {} vertices in {}D",
                                   file.string(), basis.num_vertices(), basis.dim, spec.name, red.path,
                                   body.mesh.num_vertices(), d));
  } else {
    try {
      basis = red.basis == ReducedBasisKind::modes ? modal_basis(model, b, red.size)
                                                   : modal_derivative_basis(model, b, red.size);
    } catch (const std::exception& e) {
      throw InputError(fmt::format("{}: {}: {}", scene.source(), red.path, e.what()));
    }
  }
  const std::vector<char>& fixed = model.boundary.fixed_dofs();
  for (int i = 0; i < count; ++i)
    if (fixed[first + i]) basis.columns.row(i).setZero();
  return read;
}

// The body's elasticity evaluates only the cubature's elements, weighted. The term is the body's
// own and no step has run yet: this is still building the model. `where`: the key it came from.
void set_cubature(Model& model, const Scene& scene, int b, const Cubature& cubature, const std::string& where,
                  const std::string& origin) {
  const Body& body = model.bodies[b];
  Energy* term = body.elasticity_term >= 0 ? model.energies()[body.elasticity_term].get() : nullptr;
  const bool simplex = model.dim() == 2 ? dynamic_cast<SimplexElasticity<2>*>(term) != nullptr
                                        : dynamic_cast<SimplexElasticity<3>*>(term) != nullptr;
  if (!simplex)
    throw InputError(fmt::format("{}: {}: a cubature needs a solid body (simplex elasticity)", scene.source(), where));
  const int elements = body.mesh.num_cells();
  if (cubature.num_elements != elements)
    throw InputError(fmt::format("{}: {}: the cubature was fitted on a mesh of {} elements; body \"{}\" has {}",
                                 scene.source(), where, cubature.num_elements, body.name, elements));
  // What the fit reached, for describe_build (printed by softsim run and check).
  model.bodies[b].mesh.notes.push_back(fmt::format("cubature ({}): {} of {} elements, relative error {:.3g} on the "
                                                   "training poses",
                                                   origin, cubature.elements.size(), elements, cubature.relative_error));
  std::vector<double> weights(elements, 0.0);
  for (std::size_t k = 0; k < cubature.elements.size(); ++k) weights[cubature.elements[k]] = cubature.weights[k];
  if (model.dim() == 2)
    dynamic_cast<SimplexElasticity<2>&>(*term).set_element_weights(std::move(weights));
  else
    dynamic_cast<SimplexElasticity<3>&>(*term).set_element_weights(std::move(weights));
}

// Fits the cubature the scene's reduction.cubature asks for (An, Kim & James 2008).
void fit_cubature_now(Model& model, const Scene& scene, int b, const ReducedBasis& basis) {
  const ReductionSpec& red = *scene.bodies[b].reduction;
  BodyCubatureOptions options;
  options.poses = red.cubature_poses;
  options.fit.max_elements = red.cubature_elements;
  options.fit.tolerance = red.cubature_tolerance;
  Cubature cubature;
  try {
    cubature = body_cubature(model, b, basis, options);
  } catch (const std::exception& e) {
    throw InputError(fmt::format("{}: {}.cubature: {}", scene.source(), red.path, e.what()));
  }
  if (cubature.elements.empty())
    throw InputError(fmt::format("{}: {}.cubature: no element fits the training poses (the body's reduced elastic "
                                 "forces are zero there)",
                                 scene.source(), red.path));
  set_cubature(model, scene, b, cubature, red.path + ".cubature",
               fmt::format("fitted, tolerance {:g}{}", red.cubature_tolerance,
                           cubature.relative_error > red.cubature_tolerance ? ", not reached: raise cubature.elements"
                                                                             : ""));
}

// Counts `term` (a SimplexElasticity<D>, or nothing is done) by one element when its elements
// share one F at `reference`; the weights set, or empty.
template <int D>
std::vector<double> count_by_one_element(Energy& term, const VecX& reference) {
  auto* solid = dynamic_cast<SimplexElasticity<D>*>(&term);
  std::vector<double> weights = solid ? affine_one_element_weights(*solid, reference) : std::vector<double>();
  if (!weights.empty()) solid->set_element_weights(weights);
  return weights;
}

// An elastic affine body's elements all have the same F (subspace/affine_elasticity.hpp): its
// elasticity is counted by one element, exactly, which is what lets it be evaluated in the
// body's coordinates (integrate/reduced_incremental_potential.hpp) at the cost of one element.
void count_affine_elasticity_by_one_element(Model& model, const Scene& scene) {
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    Body& body = model.bodies[b];
    if (scene.bodies[b].kind != BodyKind::affine || body.elasticity_term < 0) continue;
    Energy& term = *model.energies()[body.elasticity_term];
    const std::vector<double> weights = model.dim() == 2 ? count_by_one_element<2>(term, model.rest_positions)
                                                         : count_by_one_element<3>(term, model.rest_positions);
    if (!weights.empty())
      body.mesh.notes.push_back(fmt::format("elasticity counted exactly by one of its {} elements (an affine body's "
                                            "elements share one deformation gradient)",
                                            weights.size()));
  }
}

}  // namespace

void add_affine_potentials(Model& model, const Scene& scene) {
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodySpec& spec = scene.bodies[b];
    if (spec.kind != BodyKind::affine || spec.affine.stiffness <= 0.0) continue;
    const Body& body = model.bodies[b];
    // The frame is read at the rest shape (the mesh as loaded), where A = I.
    const std::vector<int> local = affine_frame_vertices(body.mesh.vertices);
    std::vector<int> frame;
    MatX frame_rest(local.size(), model.dim());
    for (std::size_t a = 0; a < local.size(); ++a) {
      frame.push_back(body.first_vertex + local[a]);
      frame_rest.row(a) = body.mesh.vertices.row(local[a]);
    }
    const double volume = std::abs(inspect_mesh(body.mesh).total_measure);
    model.add_energy(std::make_unique<OrthogonalityPotential>(model.dim(), frame, frame_rest, volume,
                                                             spec.affine.stiffness,
                                                             spec.affine.rigid ? spec.affine.tolerance : 0.0, spec.name));
  }
}

void add_subspace_map(Model& model, const Scene& scene) {
  SubspaceMapBuilder builder(model.num_vertices(), model.dim());
  bool any = false;
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    if (scene.bodies[b].kind != BodyKind::affine) continue;
    const Body& body = model.bodies[b];
    std::vector<int> vertices(body.mesh.num_vertices());
    for (int i = 0; i < body.mesh.num_vertices(); ++i) vertices[i] = body.first_vertex + i;
    // Weights from the positions at t = 0 (the transformed, maybe initially scaled mesh): there
    // t = c and A = I.
    builder.add_group(vertices, affine_weights(body_positions(model, body),
                                                   centre_of_mass(model, body.first_vertex, body.mesh.num_vertices())));
    any = true;
  }
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    if (!scene.bodies[b].reduction) continue;
    const Body& body = model.bodies[b];
    const int d = model.dim(), n = body.mesh.num_vertices();
    std::vector<int> vertices(n);
    for (int i = 0; i < n; ++i) vertices[i] = body.first_vertex + i;
    const BasisFile made = reduced_basis_of(model, scene, static_cast<int>(b));
    const ReducedBasis& basis = made.basis;
    // A cubature the scene asks for is fitted now; otherwise one stored in the basis file is used.
    const ReductionSpec& red = *scene.bodies[b].reduction;
    if (red.cubature_elements > 0)
      fit_cubature_now(model, scene, static_cast<int>(b), basis);
    else if (made.cubature)
      set_cubature(model, scene, static_cast<int>(b), *made.cubature, red.path + ".file",
                   "from the basis file");
    try {
      builder.add_basis_group(vertices, basis.columns, model.rest_positions.segment(body.first_vertex * d, n * d));
    } catch (const std::invalid_argument& e) {
      throw InputError(fmt::format("{}: {}: the basis is rank-deficient on the body's free vertices",
                                   scene.source(), scene.bodies[b].reduction->path));
    }
    any = true;
  }
  if (!any) return;
  model.subspace = builder.build();
  for (std::size_t b = 0; b < scene.bodies.size(); ++b)
    if (scene.bodies[b].kind == BodyKind::affine && scene.bodies[b].affine.stiffness > 0.0)
      model.subspace.turning_frames.push_back(
          model.subspace.first_coordinate_of_vertex(model.bodies[b].first_vertex));
  // The initial state must lie in the subspace: translations, spins (v = v0 + w x r) and uniform
  // initial scaling do; anything else was refused by the scene rules.
  const double size = std::max(1.0, model.rest_positions.lpNorm<Eigen::Infinity>());
  if (model.subspace.distance_from_range(model.rest_positions) > 1e-9 * size)
    throw InputError(fmt::format("{}: an affine body's initial positions are not an affine image of its mesh",
                                 scene.source()));
  count_affine_elasticity_by_one_element(model, scene);
  const double speed = std::max(1e-300, model.initial_velocity.lpNorm<Eigen::Infinity>());
  if ((model.initial_velocity - model.subspace.to_positions(model.subspace.to_coordinates(model.initial_velocity)))
          .lpNorm<Eigen::Infinity>() > 1e-8 * speed)
    throw InputError(fmt::format("{}: a reduced body's initial velocity is not a motion of its basis (a body held by "
                                 "fixed vertices has no rigid modes; a basis without them cannot start moving)",
                                 scene.source()));
}

}  // namespace softsim
