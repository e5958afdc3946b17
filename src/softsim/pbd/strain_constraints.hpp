#pragma once
// Strain-based dynamics (Müller et al. 2014) for the position-based integrators: instead of one
// continuum constraint per element, each triangle or tetrahedron gets a constraint per component
// of its strain. With F = Ds Dm^-1 = [f_1 .. f_D] (R x D: R = 3 for a shell triangle, R = D for a
// solid):
//   stretch along rest axis i:     C = |f_i| - 1,                         stiffness 2 mu V0
//   shear between axes i < j:      C = f_i . f_j / (|f_i| |f_j|),           stiffness mu V0
//   volume (area):                 C = det F - 1 (shell: |f_1 x f_2| - 1),   stiffness lambda V0
// each projected as the element E = k C^2 / 2 (XPBD compliance 1 / k). The stiffnesses are chosen
// so that for small strains C_ii ~ eps_ii, C_ij ~ 2 eps_ij, C_vol ~ tr eps and the constraints'
// energies sum to V0 (mu eps:eps + lambda/2 tr^2 eps): linear elasticity with the material's own
// Lame parameters (plane stress for shells). For large strains it is a different, anisotropic
// material (its axes are the rest coordinate axes for solids and each triangle's rest frame, first
// edge first, for shells); lambda = 0 (nu = 0) adds no volume constraint, and a negative lambda
// (an auxetic material, nu < 0) is refused: the volume constraint cannot have a negative stiffness.
#include <memory>

#include "softsim/pbd/energy_elements.hpp"

namespace softsim {

template <int D>
class SimplexElasticity;
class ShellMembrane;

// The strain constraints of every element of a term, appended to `elements` (one vertex list per
// constraint) with the source that evaluates them.
template <int D>
std::unique_ptr<EnergyElements::Source> strain_constraints(const SimplexElasticity<D>& term,
                                                           std::vector<std::vector<int>>& elements);
std::unique_ptr<EnergyElements::Source> strain_constraints(const ShellMembrane& term,
                                                           std::vector<std::vector<int>>& elements);

}  // namespace softsim
