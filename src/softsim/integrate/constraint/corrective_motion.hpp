#pragma once
// The recursive corrective motion of constraint contact (Zeng & Courtecuisse 2023, eqs. 12-30;
// docs/constraint-contact.md): from the free motion x_free of the linearised implicit step
// A dv = b + h r, find the contact forces lambda and the corrected positions
//   x = x_free + h^2 A^-1 sum_i H_i^T lambda_i
// in N iterations, each re-evaluating the contacts' directions C_i and gaps at x_i, solving the
// constraint-space problem delta = W_i lambda + delta_i by projected Gauss-Seidel, and moving by
// its correction (eqs. 21-23).
// Forces: Signorini and Coulomb hold on the accumulated force Lambda of each contact, not on the
// increment lambda_i of Zeng & Courtecuisse 2023, eq. 22 (reconstructed), because the cone bounds
// the total friction: the iteration solves for Lambda_i with free term delta_i - W_i Lambda~, Lambda~ = C_i C_{i-1}^T
// Lambda_{i-1} the previous force in the new frame (warm start), and moves by Lambda_i - Lambda~.
// Updates (ConstraintUpdate):
//  - standard: W_i = h^2 H_i A^-1 H_i^T from 3m solves per iteration (in batches of columns),
//    the correction one solve per iteration;
//  - fast (eqs. 24-30): the compliance of the contacts' vertices W_S = h^2 S A^-1 S^T (S selects
//    their DOFs) built once per step, then W_g = B W_S B^T (B the fixed barycentric weights), and
//    per iteration W_i = C_i W_g C_i^T and the vertices' positions y_{i+1} = y_i + W_S B^T C_i^T
//    lambda_i by dense products; one solve after the loop. softsim keeps the vertices (not only
//    the contact points, as the paper's q) so that face normals are re-evaluated exactly; with
//    the matrix A fixed for the step (a linearised step) and the weights fixed, the fast update
//    is then the standard one rearranged: the same result to round-off (tested).
#include <functional>
#include <string>
#include <vector>

#include "softsim/contact/constraint/constraint_contact.hpp"
#include "softsim/integrate/constraint/constraint_options.hpp"

namespace softsim {

// Time per phase (ms), summed over a step, in the paper's Table 1 terms.
struct ConstraintPhaseTimes {
  double build_ms = 0.0;       // fast: W_S, W_g (once per step)
  double rebuild_ms = 0.0;     // W_i: standard from A^-1, fast by products
  double pgs_ms = 0.0;         // projected Gauss-Seidel
  double correction_ms = 0.0;  // standard: the solve per iteration; fast: the position product
  double final_ms = 0.0;       // fast: the one solve after the loop
  double detection_ms = 0.0;   // finding the contacts
  int iterations = 0;          // Newton iterations of the correction
  int pgs_sweeps = 0;
};

// One contact's result after a step, for outputs (contact_forces.csv).
struct ContactForce {
  ContactStencil stencil;
  Vec3 normal = Vec3::Zero();       // the last iteration's normal
  double gap = 0.0;                 // normal gap at the step's end positions (m)
  double normal_force = 0.0;        // Lambda_n >= 0 (N)
  double tangential_force = 0.0;    // |Lambda_t| <= mu Lambda_n (N)
  Vec3 force = Vec3::Zero();        // C^T Lambda: the force on the vertex side, world axes (N)
};

// X = A^-1 B for the step's matrix with the boundary conditions applied (zero at prescribed DOFs).
using SolveColumns = std::function<bool(const MatX& B, MatX& X)>;

struct CorrectionResult {
  VecX x;                            // the corrected positions
  std::vector<ContactForce> forces;  // per contact, in the contacts' order
  ConstraintPhaseTimes times;
  bool ok = true;
  std::string failure;
};

// contacts: found at x_free (frozen for the step); x_start: the step's start, the reference of the
// tangential gaps.
CorrectionResult corrective_motion(const ConstraintContact& contact, const std::vector<ContactConstraint>& contacts,
                                   const VecX& x_start, const VecX& x_free, double h, const SolveColumns& solve,
                                   const ConstraintSolveOptions& options);

}  // namespace softsim
