#include "softsim/subspace/affine_elasticity.hpp"

namespace softsim {

template <int D>
std::vector<double> affine_one_element_weights(const SimplexElasticity<D>& term, const VecX& reference,
                                               double tolerance) {
  const std::vector<double>& volumes = term.rest_volumes();
  const int m = static_cast<int>(volumes.size());
  if (m == 0 || !term.element_weights().empty()) return {};
  const MatD<D> first = term.deformation_gradient(reference, 0);
  const double scale = std::max(1.0, first.norm());
  int largest = 0;
  double total = 0.0;
  for (int e = 0; e < m; ++e) {
    if ((term.deformation_gradient(reference, e) - first).norm() > tolerance * scale) return {};
    total += volumes[e];
    if (volumes[e] > volumes[largest]) largest = e;
  }
  std::vector<double> weights(m, 0.0);
  weights[largest] = total / volumes[largest];
  return weights;
}

template std::vector<double> affine_one_element_weights<2>(const SimplexElasticity<2>&, const VecX&, double);
template std::vector<double> affine_one_element_weights<3>(const SimplexElasticity<3>&, const VecX&, double);

}  // namespace softsim
