#include "softsim/fem/mass.hpp"

#include <set>

namespace softsim {

void add_simplex_mass(Model& model, const MatXi& elements, const std::vector<double>& volumes, double density,
                      bool lumped) {
  const int k = static_cast<int>(elements.cols());
  const int dim = model.dim();
  for (int e = 0; e < elements.rows(); ++e) {
    const double m = density * volumes[e];
    if (lumped) {
      for (int a = 0; a < k; ++a) model.add_lumped_mass(elements(e, a), m / k);
      continue;
    }
    for (int a = 0; a < k; ++a)
      for (int b = 0; b < k; ++b) {
        const double mab = m * (a == b ? 2.0 : 1.0) / (k * (k + 1));
        for (int d = 0; d < dim; ++d) model.add_mass_triplet(elements(e, a) * dim + d, elements(e, b) * dim + d, mab);
      }
  }
}

void add_uniform_mass(Model& model, const MatXi& elements, const std::vector<double>& volumes, double density) {
  double total = 0.0;
  for (double v : volumes) total += density * v;
  const std::set<int> used(elements.data(), elements.data() + elements.size());
  for (int v : used) model.add_lumped_mass(v, total / static_cast<double>(used.size()));
}

}  // namespace softsim
