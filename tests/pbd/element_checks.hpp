#pragma once
// Checks shared by the position-based element tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "softsim/model/model_data.hpp"
#include "softsim/pbd/energy_elements.hpp"

namespace softsim::test {

// The elastic part of the model's potential: P(x) + x . f_ext (no obstacles in these scenes).
inline double model_elastic_energy(const Model& model, const VecX& x) {
  ModelData data(model);
  Stage stage;
  const EvalContext ctx{stage, data};
  return model.potential(ctx, x, AssemblyOutputs{}) + x.dot(model.external_force());
}

// Every position-based element's gradient against central differences at x (dim coordinates per
// vertex); returns the sum of the elements' energies there.
inline double check_element_gradients(const EnergyElements& elements, const VecX& x, int dim, double amplitude) {
  double sum = 0.0;
  std::vector<double> grad(static_cast<std::size_t>(elements.max_vertices() * dim));
  for (int e = 0; e < elements.size(); ++e) {
    const double E = elements.energy(x, e, grad.data());
    if (!std::isfinite(E)) {
      ADD_FAILURE() << "element " << e << ": energy " << E;
      continue;
    }
    EXPECT_GE(E, 0.0);
    sum += E;
    const auto vs = elements.vertices(e);
    for (std::size_t a = 0; a < vs.size(); ++a)
      for (int c = 0; c < dim; ++c) {
        const double h = 1e-6 * amplitude / 1e-3;
        VecX xp = x, xm = x;
        xp[vs[a] * dim + c] += h;
        xm[vs[a] * dim + c] -= h;
        const double fd = (elements.energy(xp, e, nullptr) - elements.energy(xm, e, nullptr)) / (2 * h);
        const double g = grad[a * static_cast<std::size_t>(dim) + static_cast<std::size_t>(c)];
        EXPECT_NEAR(g, fd, 1e-6 * std::max(1.0, std::abs(fd)) + 1e-7 * std::abs(E) / h)
            << "element " << e << " vertex " << vs[a] << " component " << c;
      }
  }
  return sum;
}

}  // namespace softsim::test
