#pragma once
// A model's incremental potential posed as a step of h = 0.01 from rest would pose it: the step
// hooks run at rest, the frozen Rayleigh damping set, and a predictor moved off the rest
// positions by a seeded perturbation of every DOF (weights: inertia 1, potential h^2, damping h).
#include <functional>

#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/integrate/rayleigh_damping.hpp"
#include "support/finite_difference.hpp"

namespace softsim::test {

struct StagedPotential {
  Model model;
  ModelData data{model};
  IncrementalPotential positions{model, data};
  SparseMat damping;
  // `make` builds the model in place: a Model must not move once built (its terms point into its
  // Hessian layout).
  explicit StagedPotential(const std::function<Model()>& make) : model(make()) {
    const VecX x = model.rest_positions;
    const Stage start = Stage::step(0.0, 0.01);
    model.begin_step(start, data, x);
    damping = rayleigh_damping_matrix(model, EvalContext{start, data}, x);
    positions.set_damping(&damping);
    positions.set_step(start, x + 0.01 * random_perturbation(x.size(), 0.1, 9), 1.0, 1e-4, x, 0.01);
  }
};

}  // namespace softsim::test
