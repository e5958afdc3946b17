#pragma once
// Projected Gauss-Seidel on the contact problem in constraint space (Zeng & Courtecuisse 2023,
// eqs. 18-19; Duriez et al. 2006): find the per-contact force blocks lambda_a = (ln, lt1, lt2) with
//   delta = W lambda + delta_free,                       (W: the 3m x 3m compliance, dense)
//   0 <= delta_n  _|_  lambda_n >= 0                      (Signorini)
//   |lambda_t| <= mu lambda_n; |lambda_t| < mu lambda_n => delta_t = 0;
//                               |lambda_t| = mu lambda_n => delta_t = -alpha lambda_t, alpha >= 0
// (the exact Coulomb cone, no smoothing). Rows of a block: normal, tangent 1, tangent 2; delta_t is
// the relative tangential displacement over the step.
// Local solve of block a with d = delta_a at the current lambdas (the sweep of Duriez et al. 2006):
//   ln <- ln - d_n / W_nn; if ln < 0: the block separates (lambda_a = 0);
//   d_t <- d_t + W_tn (ln - ln_old);  lt <- lt - d_t / w, w = (W_t1t1 + W_t2t2) / 2;
//   if |lt| > mu ln: lt <- lt mu ln / |lt|                 (radial return onto the disc).
// The tangential step is a scalar w, not the 2x2 block's inverse, because then a fixed point on
// the disc's rim (lt = s (lt - d_t / w), s < 1) has d_t = -w (1 - s) / s lt, anti-parallel to lt
// (maximal dissipation, the exact slip law); with W_tt^-1 the slip direction would be skewed by W_tt's anisotropy. A fixed point
// inside the disc has delta_t = 0 exactly (stick), and ln > 0 only where delta_n = 0.
// Blocks are swept in order, so the result is deterministic. A block whose normal (tangential)
// compliance is below 1e-12 of W's largest diagonal entry gets no normal (tangential) force.
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

struct PgsOptions {
  int max_iterations = 30;  // sweeps (Zeng & Courtecuisse 2023 use a fixed 30)
  // Stop after the sweep whose largest block change max_a |W_aa dlambda_a|_inf (a displacement,
  // m) is at or below this; 0 runs max_iterations sweeps, or fewer when a sweep changes nothing.
  double tolerance = 0.0;
};

struct PgsResult {
  int iterations = 0;
  double change = 0.0;  // the last sweep's max_a |W_aa dlambda_a|_inf (m)
};

// W: 3m x 3m symmetric, positive definite diagonal blocks; free: 3m; mu: m coefficients;
// lambda: 3m, the warm start on entry, the solution on return.
PgsResult projected_gauss_seidel(const MatX& W, const VecX& free, const std::vector<double>& mu, VecX& lambda,
                                 const PgsOptions& options);

}  // namespace softsim
