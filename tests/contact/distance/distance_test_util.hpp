#pragma once
// Helpers of the distance tests: stencils stacked from points, and the derivatives of a squared
// distance against central finite differences.
#include <initializer_list>
#include <random>

#include "softsim/core/types.hpp"
#include "support/finite_difference.hpp"

namespace softsim::test {

using V3 = Eigen::Vector3d;
using V2 = Eigen::Vector2d;

inline VecX stack(std::initializer_list<V3> vs) {
  VecX x(3 * vs.size());
  int i = 0;
  for (const auto& v : vs) x.segment<3>(3 * i++) = v;
  return x;
}
inline V3 at(const VecX& x, int i) { return x.segment<3>(3 * i); }

// Random points in the cube [-1, 1]^3, the same sequence for the same seed.
class RandomPoints {
 public:
  explicit RandomPoints(unsigned seed) : rng_(seed) {}
  V3 operator()() { return V3(u_(rng_), u_(rng_), u_(rng_)); }

 private:
  std::mt19937 rng_;
  std::uniform_real_distribution<double> u_{-1.0, 1.0};
};

// Checks value/gradient/Hessian of f (returning DistanceDerivatives) against central FD.
template <class F>
void check_derivatives(F f, const VecX& x, double tol = 1e-6) {
  const auto r = f(x);
  const VecX g = fd_gradient([&](const VecX& y) { return f(y).value; }, x);
  const MatX H = fd_jacobian([&](const VecX& y) { return VecX(f(y).grad); }, x);
  EXPECT_LT(relative_error(VecX(r.grad), g), tol) << "grad " << r.grad.transpose() << "\nfd " << g.transpose();
  EXPECT_LT(relative_error(MatX(r.hess), H), tol) << "hess\n" << r.hess << "\nfd\n" << H;
  EXPECT_LT((r.hess - r.hess.transpose()).norm(), 1e-12 * (1 + r.hess.norm()));
}

}  // namespace softsim::test
