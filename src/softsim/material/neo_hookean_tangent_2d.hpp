#pragma once
// The 2D compressible neo-Hookean tangent dP/dF in closed form, and its PSD projection where
// that needs no SVD. With a = lambda ln J - mu and G = cof F (linear in F in 2D),
//   P = mu F + (a / J) G,
//   dP/dF = mu I + ((lambda - a) / J^2) vec G vec G^T + (a / J) dG/dF,
// (Bonet & Wood 2008, ch. 6), and the eigenvalues of dP/dF follow from I_C = ||F||^2 and J alone
// (the modes of Teran et al. 2005, in invariants as in Smith et al. 2019): twist mu + a/J on
// vec(E R)/sqrt2 (E the quarter turn, R the polar rotation), flip mu - a/J, and the 2 x 2
// scaling block with trace 2 mu + (lambda - a) I_C / J^2 and determinant
// mu^2 + (mu (lambda - a) I_C + a (a - 2 lambda)) / J^2.
// Under compression (J < 1) only the twist is negative, and projecting it off is a rank-one
// update with R, which has a closed form in 2D. That is the case the book's 2D scenes spend
// their time in; the SVD path stays for the rest.
#include "softsim/core/types.hpp"
#include "softsim/material/material.hpp"

namespace softsim {

// Fills dPdF and returns true when J > 0 and either project_psd is false or the projection is
// at most the twist's; returns false (dPdF untouched) otherwise, for the SVD path to decide.
bool neo_hookean_tangent_2d(const Mat2& F, const LameParameters& lame, bool project_psd,
                            Eigen::Matrix4d& dPdF);

}  // namespace softsim
