#pragma once
#include <utility>

#include "softsim/core/types.hpp"

namespace softsim {

// A term's Hessian at one point as an operator. The solver that needs many products at one
// iterate (the Krylov iterations of inexact Newton) builds it once per iterate and drops it
// with the iterate, so whatever it precomputes is never stale.
class HessianOperator {
 public:
  virtual ~HessianOperator() = default;
  // out += weight * H p
  virtual void add_product(const VecX& p, double weight, VecX& out) const = 0;
};

// The operator of a term whose forward-mode product needs nothing precomputed: it keeps x and
// calls the term's gradient_jvp(x, p, weight, out) (out += weight * H(x) p) for every product.
template <class Term>
class ForwardModeHessian : public HessianOperator {
 public:
  ForwardModeHessian(const Term& term, VecX x) : term_(term), x_(std::move(x)) {}
  void add_product(const VecX& p, double weight, VecX& out) const override { term_.gradient_jvp(x_, p, weight, out); }

 private:
  const Term& term_;
  VecX x_;
};

}  // namespace softsim
