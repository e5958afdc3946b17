#pragma once
// Damping analysis of the integrators on q'' + omega^2 q = 0 (Ascher et al. 2022, §3.2, eqs. 11-12).
// One step is u1 = T(z) u0 with z = omega h; T is 2x2 on (q, v) for the one-step methods, 3x3 on
// (q, v, a) for Newmark / generalized-alpha, and the 4x4 companion matrix on (q1, v1, q0, v0) for
// BDF2. rho(z) is its spectral radius. The damping curve compares a step with the modified ODE
// q'' + d q' + omega^2 q = 0 (eq. 12), whose modes decay by exp(-d h / 2) per step, so
//   d / omega = -2 ln(rho) / (omega h)   (this factor 2 is the definition used here).
// Linear problem: the semi-implicit variants have the same T as their implicit methods.
#include <string>
#include <vector>

#include "softsim/core/types.hpp"
#include "softsim/integrate/stepper.hpp"

namespace softsim {

// Methods: forward_euler, symplectic_euler, backward_euler, trapezoidal, implicit_midpoint, bdf2,
// tr_bdf2, sdirk2,
// newmark (beta, gamma), generalized_alpha (rho_inf), and the exponential ones: ere (exact on a
// linear problem: d = 0) and the additive methods for a mode inside the modal subspace (its
// exponential part: exact, except with history "full", where bdf2ere, sbdf2ere and str_sbdf2ere
// combine the exponential with their difference weights) or outside it (SI = BE, BDF2, TR-BDF2).
// Throws std::invalid_argument otherwise.
struct DampingMethod {
  IntegratorType type = IntegratorType::backward_euler;
  double beta = 0.25, gamma = 0.5, rho_inf = 0.5;
  bool in_subspace = false;  // additive exponential methods: the mode is one of the s modes
  SubspaceHistory history = SubspaceHistory::complement;  // bdf2ere, sbdf2ere, str_sbdf2ere
};
// Every integrator but the static solve.
std::vector<std::string> damping_method_names();

MatX amplification_matrix(const DampingMethod& method, double omega_h);
double spectral_radius(const MatX& T);
double damping_ratio(const DampingMethod& method, double omega_h);  // d / omega

// Scalar amplification factors for the test equation u' = lambda u, z = lambda h
// (Ascher et al. 2022, Example 2): backward Euler 1/(1 - z); the trapezoidal stage to t0 + c h
// used by TR-BDF2 (c = 1/2, eq. 8a) and SDIRK2 (c = gamma, eq. 9a): (1 + c z/2)/(1 - c z/2);
// the full TR-BDF2 and SDIRK2 steps; and one BDF2 step u1 = (4 u0 - u_{-1}) / (3 - 2 z).
double scalar_backward_euler(double z);
double scalar_trapezoidal_stage(double z, double c);
double scalar_tr_bdf2(double z);
double scalar_sdirk2(double z);
double scalar_bdf2(double z, double u0, double u_minus1);

}  // namespace softsim
