#pragma once
// An Objective's gradient and (unprojected) Hessian at x against central finite differences of
// its own value and gradient.
#include "softsim/solve/objective.hpp"
#include "support/finite_difference.hpp"

namespace softsim::test {

struct DerivativeErrors {
  double gradient = 0.0, hessian = 0.0;  // relative_error of each
};

inline DerivativeErrors objective_derivative_errors(Objective& objective, const VecX& x, double h = 1e-7) {
  auto energy = [&](const VecX& z) { return objective.evaluate(z, nullptr, nullptr, false); };
  auto gradient = [&](const VecX& z) {
    VecX g;
    objective.evaluate(z, &g, nullptr, false);
    return g;
  };
  VecX g;
  SparseMat H = objective.hessian_pattern();
  objective.evaluate(x, &g, &H, false);
  return {relative_error(g, fd_gradient(energy, x, h)), relative_error(MatX(H), fd_jacobian(gradient, x, h))};
}

}  // namespace softsim::test
