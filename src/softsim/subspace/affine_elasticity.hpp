#pragma once
// An affine body's elasticity counted exactly by one element. Every element of a body whose
// positions are x = t + A (xbar - c) has Ds(x) = A Ds(xbar), so F_e = A M_e with M_e =
// Ds(xbar) Dm_e^-1; when every M_e is the same (xbar is the rest shape, or an affine image of
// it) every element has the same F and E = sum_e W_e Psi(F) = W Psi(F) with W the body's
// measure (Lan et al. 2022, §3: the affine body's elasticity is a function of A alone). One
// element weighted W / W_e then gives the energy, and through the map its gradient and Hessian
// in the body's coordinates, to round-off: the body's elasticity costs one element, not m.
#include <vector>

#include "softsim/fem/simplex_elasticity.hpp"

namespace softsim {

// Cubature weights for `term` (one per element): W / W_e* on its largest element e*, 0 elsewhere;
// empty when the elements' deformation gradients at `reference` (positions with A = I: the
// affine map's xbar) differ by more than `tolerance` relative, so that no one element speaks for
// all of them. The term's elements must be one affine body's.
template <int D>
std::vector<double> affine_one_element_weights(const SimplexElasticity<D>& term, const VecX& reference,
                                               double tolerance = 1e-10);

}  // namespace softsim
