#pragma once
// Closed-form gradients and Hessians of the cross-product expressions that the 3D contact
// distances are made of (Li et al. 2020, §4.1 and its supplement, give the distances):
//   point-plane and line-line  d^2 = ((u x v) . w)^2 / |u x v|^2   (triple_product_ratio)
//   point-line                 d^2 = |u x v|^2 / |v - u|^2          (cross_ratio)
//   edge-edge mollifier input  c   = |u x v|^2                      (cross_squared_norm)
// in the edge vectors u, v, w, each a difference of two stencil vertices; pull_back turns
// derivatives in those vectors into derivatives in the vertices. The triple product s is
// trilinear and n = u x v bilinear, so their Hessians are constant skew blocks and the
// quotient rule does the rest: about a tenth of the work of second-order forward mode
// (core/jet.hpp) on the same expressions, which the tests use as the reference.
#include <array>

#include "softsim/contact/distance/derivatives.hpp"

namespace softsim {

// f(u, v, w) = ((u x v) . w)^2 / |u x v|^2 over (u, v, w) in R^9; u x v != 0.
DistanceDerivatives<9> triple_product_ratio(const Eigen::Vector3d& u, const Eigen::Vector3d& v,
                                            const Eigen::Vector3d& w);
// f(u, v) = |u x v|^2 / |v - u|^2 over (u, v) in R^6; u != v.
DistanceDerivatives<6> cross_ratio(const Eigen::Vector3d& u, const Eigen::Vector3d& v);
// f(u, v) = |u x v|^2 over (u, v) in R^6.
DistanceDerivatives<6> cross_squared_norm(const Eigen::Vector3d& u, const Eigen::Vector3d& v);

// Derivatives in K difference vectors y_k = x[plus[k]] - x[minus[k]] (minus[k] = -1: y_k =
// x[plus[k]]) as derivatives in the NV stencil vertices x (3 coordinates each, vertex-major).
template <int NV, int K>
DistanceDerivatives<3 * NV> pull_back(const DistanceDerivatives<3 * K>& f, const std::array<int, K>& plus,
                                      const std::array<int, K>& minus) {
  DistanceDerivatives<3 * NV> r;
  r.value = f.value;
  for (int k = 0; k < K; ++k) {
    const auto gk = f.grad.template segment<3>(3 * k);
    r.grad.template segment<3>(3 * plus[k]) += gk;
    if (minus[k] >= 0) r.grad.template segment<3>(3 * minus[k]) -= gk;
    for (int l = 0; l < K; ++l) {
      const Eigen::Matrix3d b = f.hess.template block<3, 3>(3 * k, 3 * l);
      r.hess.template block<3, 3>(3 * plus[k], 3 * plus[l]) += b;
      if (minus[l] >= 0) r.hess.template block<3, 3>(3 * plus[k], 3 * minus[l]) -= b;
      if (minus[k] >= 0) {
        r.hess.template block<3, 3>(3 * minus[k], 3 * plus[l]) -= b;
        if (minus[l] >= 0) r.hess.template block<3, 3>(3 * minus[k], 3 * minus[l]) += b;
      }
    }
  }
  return r;
}

}  // namespace softsim
