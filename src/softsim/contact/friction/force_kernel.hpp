#pragma once
// The smoothed Coulomb friction force of one contact, fully implicit (Larionov et al. 2022,
// eq. 16 per contact): with the closest-point weights w_a, the tangent basis B and the normal
// force magnitude lambda all functions of the current positions,
//   u = B^T sum_a w_a v_a        (relative tangential velocity, Larionov et al. 2022, §3.3)
//   f_a = -mu lambda w_a B eta(u),  eta(u) = s(|u|) u / |u|                  (eqs. 8, 11)
// s = s_a (eq. 14, C1) or s_b (eq. 15, rational), eps = eps_v a velocity. Written on a generic
// scalar: on Dual numbers it gives the directional derivative of the force (forward-mode AD),
// from which implicit friction assembles its non-symmetric Jacobian and its matrix-free products.
#include <Eigen/Core>
#include <array>
#include <cmath>

#include "softsim/contact/friction/frame.hpp"
#include "softsim/contact/friction/smoothing.hpp"

namespace softsim {

// s(y)/y of the smoothing, finite at y = 0 (eqs. 14, 15).
template <class S>
S smoothing_over_speed(FrictionSmoothing kind, const S& y, double eps) {
  if (kind == FrictionSmoothing::rational) return S(1.0) / (y + S(eps));
  if (value_of(y) < eps) return S(2.0 / eps) - y * S(1.0 / (eps * eps));
  return S(1.0) / y;
}

// f (num_vertices * dim entries, vertex-major) = the friction force on the stencil's vertices
// with velocities v (same layout).
template <class S>
void friction_force_on_stencil(const FrictionFrame<S>& frame, const S* v, int dim, double mu,
                               FrictionSmoothing smoothing, double eps_v, S* f) {
  using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 3, 1>;
  Vec relative = Vec::Constant(dim, S(0.0));
  for (int a = 0; a < frame.num_vertices; ++a)
    for (int r = 0; r < dim; ++r) relative[r] += frame.weights[a] * v[a * dim + r];
  const Vec u = frame.basis.transpose() * relative;
  const S u2 = u.squaredNorm();
  using std::sqrt;
  // |u| has no derivative at u = 0, but eta does (s(y)/y is smooth there): take y = 0 exactly.
  const S y = value_of(u2) > 0.0 ? S(sqrt(u2)) : S(0.0);
  const S scale = S(-mu) * frame.lambda * smoothing_over_speed(smoothing, y, eps_v);
  const Vec g = frame.basis * u;
  for (int a = 0; a < frame.num_vertices; ++a)
    for (int r = 0; r < dim; ++r) f[a * dim + r] = scale * frame.weights[a] * g[r];
}

}  // namespace softsim
