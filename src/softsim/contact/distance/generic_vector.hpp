#pragma once
// Second-order forward-mode differentiation for the contact distances: exact derivatives of the
// closed-form squared distances (IPC, Li et al. 2020, sec. 4.1 and supplement) and of the
// edge-edge mollifier input without hand-expanding them, plus small vector helpers.
#include <Eigen/Core>

#include "softsim/contact/distance/derivatives.hpp"
#include "softsim/core/jet.hpp"

namespace softsim::contact_detail {

// The project's second-order forward-mode type (core/jet.hpp) under the name the distance code
// uses.
template <int N>
using Dual2 = Jet<N>;

// A distance-like result with its exact gradient and Hessian.
template <int N>
DistanceDerivatives<N> to_derivatives(const Dual2<N>& d) {
  DistanceDerivatives<N> r;
  r.value = d.v;
  r.grad = d.g;
  r.hess = d.H;
  return r;
}

// Variables x[offset .. offset+D) as a D-vector of duals.
template <int N, int D>
Eigen::Matrix<Dual2<N>, D, 1> dual_vector(const Eigen::Matrix<double, D, 1>& x, int offset) {
  Eigen::Matrix<Dual2<N>, D, 1> r;
  for (int i = 0; i < D; ++i) r[i] = Dual2<N>::variable(x[i], offset + i);
  return r;
}

template <class T, int D>
T dot(const Eigen::Matrix<T, D, 1>& a, const Eigen::Matrix<T, D, 1>& b) {
  T r = a[0] * b[0];
  for (int i = 1; i < D; ++i) r = r + a[i] * b[i];
  return r;
}
template <class T>
Eigen::Matrix<T, 3, 1> cross(const Eigen::Matrix<T, 3, 1>& a, const Eigen::Matrix<T, 3, 1>& b) {
  Eigen::Matrix<T, 3, 1> r;
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
  return r;
}

}  // namespace softsim::contact_detail

