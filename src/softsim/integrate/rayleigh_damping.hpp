#pragma once
// Rayleigh damping D = alpha M + beta K(x^n) (Ascher et al. 2022, eq. 2), K the Hessian of the
// potential at the step's start, PSD-projected per element so that the damping dissipates, and
// frozen for the step. Contact terms, whose stencils change between evaluations, are not part
// of K (they write only dynamic Hessian entries).
#include "softsim/model/model.hpp"

namespace softsim {

// D in the model's Hessian layout.
SparseMat rayleigh_damping_matrix(const Model& model, const EvalContext& ctx, const VecX& x_start);

}  // namespace softsim
