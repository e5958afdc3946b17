#pragma once
// Places the derivatives of a sub-problem on a few of a stencil's vertices into the full
// stencil (IPC's distance types act on a subset of the pair's vertices).
#include <array>

#include "softsim/contact/distance/derivatives.hpp"

namespace softsim::contact_detail {

template <int NFull, int D, int K>
DistanceDerivatives<NFull> scatter(const DistanceDerivatives<D * K>& sub, const std::array<int, K>& vertices) {
  DistanceDerivatives<NFull> r;
  r.value = sub.value;
  for (int i = 0; i < K; ++i) {
    r.grad.template segment<D>(D * vertices[i]) = sub.grad.template segment<D>(D * i);
    for (int j = 0; j < K; ++j)
      r.hess.template block<D, D>(D * vertices[i], D * vertices[j]) = sub.hess.template block<D, D>(D * i, D * j);
  }
  return r;
}

}  // namespace softsim::contact_detail
