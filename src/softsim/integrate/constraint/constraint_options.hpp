#pragma once
// How a step of constraint contact is resolved (contact.constraint in a scene;
// docs/constraint-contact.md): the recursive corrective motion's Newton iterations, the update
// of the constraint matrices between them, and the projected Gauss-Seidel sweeps.
#include "softsim/contact/constraint/projected_gauss_seidel.hpp"
#include "softsim/core/enum_names.hpp"

namespace softsim {

// standard: the compliance W_i = h^2 H_i A^-1 H_i^T rebuilt from A^-1 at every iteration (3m
// solves) and one solve per correction; fast (Zeng & Courtecuisse 2023, eqs. 24-30): the
// compliance of the contacts' vertices built once per step, each iteration's W_i and positions
// from dense products, one solve after the loop.
enum class ConstraintUpdate { standard, fast };
template <>
struct EnumNames<ConstraintUpdate> {
  static constexpr std::pair<ConstraintUpdate, const char*> table[] = {{ConstraintUpdate::standard, "standard"},
                                                                       {ConstraintUpdate::fast, "fast"}};
};

struct ConstraintSolveOptions {
  // N: corrections with re-evaluated directions and gaps (eqs. 21-23); 1 is the standard scheme
  // of Duriez et al. 2006 (one linearisation per step).
  int newton_iterations = 5;
  ConstraintUpdate update = ConstraintUpdate::fast;
  // Sweeps until the largest block change is below 1e-10 m, at most 10000. The paper's fixed 30
  // sweeps (pgs_iterations 30, pgs_tolerance 0) leave PGS unconverged on stiff bodies, and an
  // unconverged stick creeps (docs/constraint-contact.md measures it).
  PgsOptions pgs{10000, 1e-10};
};

}  // namespace softsim
