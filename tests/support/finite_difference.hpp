#pragma once
// Central finite differences for derivative checks: gradients of scalar functions and Jacobians
// of vector functions, with a relative error measure that is meaningful near zero.
#include <functional>
#include <random>

#include "softsim/core/types.hpp"

namespace softsim::test {

// (f(x + h) - f(x - h)) / 2h for a scalar function of one variable.
inline double central_difference(const std::function<double(double)>& f, double x, double h) {
  return (f(x + h) - f(x - h)) / (2 * h);
}

inline VecX fd_gradient(const std::function<double(const VecX&)>& f, const VecX& x, double h = 1e-6) {
  VecX g(x.size());
  VecX xp = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double xi = x[i];
    xp[i] = xi + h;
    const double fp = f(xp);
    xp[i] = xi - h;
    const double fm = f(xp);
    xp[i] = xi;
    g[i] = (fp - fm) / (2 * h);
  }
  return g;
}

inline MatX fd_jacobian(const std::function<VecX(const VecX&)>& f, const VecX& x, double h = 1e-6) {
  const VecX f0 = f(x);
  MatX J(f0.size(), x.size());
  VecX xp = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double xi = x[i];
    xp[i] = xi + h;
    const VecX fp = f(xp);
    xp[i] = xi - h;
    const VecX fm = f(xp);
    xp[i] = xi;
    J.col(i) = (fp - fm) / (2 * h);
  }
  return J;
}

// ||a - b|| / max(||b||, floor): relative error that does not blow up when b vanishes.
template <class A, class B>
double relative_error(const A& a, const B& b, double floor = 1e-8) {
  return (a - b).norm() / std::max(b.norm(), floor);
}

// Uniform random perturbation in [-amplitude, amplitude] per coordinate.
inline VecX random_perturbation(Eigen::Index n, double amplitude, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  VecX p(n);
  for (Eigen::Index i = 0; i < n; ++i) p[i] = u(rng);
  return p;
}

}  // namespace softsim::test
