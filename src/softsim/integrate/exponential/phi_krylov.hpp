#pragma once
// The action of the matrix function phi_1(z) = (e^z - 1) / z on a vector, tau phi_1(tau A) b,
// with A known only through products A v: the step of the exponential Rosenbrook-Euler method
// (ERE, Ascher et al. 2022, eqs. 17-18: u1 = u0 + h phi_1(h J) F(u0)).
//
// tau phi_1(tau A) b is y(tau) for y' = A y + b, y(0) = 0. It is integrated in sub-steps
// y(t + d) = y(t) + d phi_1(d A) (A y(t) + b), each sub-step's product approximated in the Krylov
// space of A and r = A y(t) + b by Arnoldi (Saad 1992): d phi_1(d A) r ~ |r| V_m d phi_1(d H_m) e1,
// with phi_1(d H_m) e1 and phi_2(d H_m) e1 read off the exponential of a matrix of size m + 2
// (Sidje 1998, Thm. 1). The error of a sub-step is estimated a posteriori by its leading term
// |r| h_{m+1,m} d^2 |e_m^T phi_2(d H_m) e1| (Niesen & Wright 2012, §3); sub-steps whose estimate
// exceeds their share of the tolerance are retried shorter, and the next sub-step is lengthened
// or shortened from the last estimate, in the manner of Expokit and phipm.
#include <functional>

#include "softsim/core/types.hpp"

namespace softsim {

struct KrylovPhiOptions {
  double tolerance = 1e-8;  // on |error| / |result| over the whole interval
  int max_dimension = 30;   // Krylov space dimension m per sub-step
  int max_substeps = 10000;
};

struct KrylovPhiResult {
  VecX value;                 // tau phi_1(tau A) b
  int max_dimension_used = 0; // largest Krylov dimension of an accepted sub-step
  int substeps = 0;           // accepted sub-steps
  int rejected = 0;           // sub-steps retried shorter
  int products = 0;           // products with A
  double error_estimate = 0;  // sum of the accepted sub-steps' estimates
};

// apply(v, out): out = A v (out has the size of v).
using LinearOperator = std::function<void(const VecX&, VecX&)>;

// tau phi_1(tau A) b. Throws std::runtime_error when max_substeps is exceeded.
KrylovPhiResult phi1_action(const LinearOperator& apply, const VecX& b, double tau,
                            const KrylovPhiOptions& options = {});

}  // namespace softsim
