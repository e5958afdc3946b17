#pragma once
// A tetrahedral box beam along x (5 tets per cube) as a Model, for the exponential integrators'
// tests: linear or nonlinear material, lumped mass, ends clamped or free.
#include <memory>
#include <string>

#include "softsim/fem/mass.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/material/material.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/model/model.hpp"
#include "softsim/model/state.hpp"

namespace softsim::test {

enum class Clamp { none, one_end, both_ends };

struct BeamSpec {
  Vec3 size = Vec3(4.0, 1.0, 1.0);
  Eigen::Vector3i cells = Eigen::Vector3i(4, 1, 1);
  std::string material = "linear";
  double youngs = 1e5, poisson = 0.3, density = 1000.0;
  Clamp clamp = Clamp::one_end;
  Vec3 gravity = Vec3(0.0, -9.81, 0.0);
  double rayleigh_alpha = 0.0, rayleigh_beta = 0.0;
};

inline std::unique_ptr<Model> make_beam(const BeamSpec& spec) {
  const Mesh mesh = generate_box(spec.size, spec.cells);
  const int n = mesh.num_vertices();
  auto model = std::make_unique<Model>(3);
  model->gravity = spec.gravity;
  model->rayleigh_alpha = spec.rayleigh_alpha;
  model->rayleigh_beta = spec.rayleigh_beta;
  model->add_vertices(mesh.vertices);
  std::shared_ptr<const Material<3>> material =
      make_material<3>(spec.material, LameParameters::from_young_poisson(spec.youngs, spec.poisson));
  auto term = std::make_unique<SimplexElasticity<3>>(mesh.cells, mesh.vertices, material, "beam");
  add_simplex_mass(*model, mesh.cells, term->rest_volumes(), spec.density, true);
  model->add_energy(std::move(term));
  model->finalize();
  model->boundary.set_dimensions(n, 3);
  if (spec.clamp != Clamp::none) {
    PrescribedMotion clamp;
    clamp.offset = [](double) -> VecX { return VecX::Zero(3); };
    clamp.label = "clamp";
    const double end = spec.size.x() / 2 - 1e-9;
    for (int i = 0; i < n; ++i) {
      const double x = mesh.vertices(i, 0);
      if (x < -end || (spec.clamp == Clamp::both_ends && x > end)) clamp.vertices.push_back(i);
    }
    model->boundary.add_motion(clamp);
  }
  return model;
}

inline State rest_state(const Model& model) {
  State s;
  s.x = model.rest_positions;
  s.v = VecX::Zero(model.num_dofs());
  return s;
}

}  // namespace softsim::test
