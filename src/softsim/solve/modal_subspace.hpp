#pragma once
// The s lowest modes of the generalized eigenproblem K x = lambda M x (Ascher et al. 2022, sec. 3.5.2,
// the equation before (24)) over the unconstrained DOFs: the subspace in which the additive methods
// integrate exponentially. Fixed DOFs are eliminated (their entries of every mode are zero); the
// modes are M-orthonormal (X^T M X = I), so X X^T M is the M-orthogonal projector onto them.
//
// Large problems: shift-invert Lanczos (Spectra's SymGEigsShiftSolver) with (K - sigma M)^-1 by a
// sparse Cholesky factorization, sigma < 0 so that K - sigma M is positive definite even when K is
// singular (the rigid modes of an unconstrained body, lambda = 0, come out as ordinary modes).
// Small problems (or s close to the DOF count): a dense generalized eigensolver.
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

struct ModalSubspace {
  MatX modes;       // n x s (all DOFs, zero rows on fixed DOFs), M-orthonormal
  VecX eigenvalues; // s, ascending: lambda = omega^2 ((rad/s)^2)
  int count() const { return static_cast<int>(eigenvalues.size()); }
  // Natural frequencies sqrt(max(lambda, 0)) / (2 pi) in Hz.
  VecX frequencies_hz() const;
};

struct ModalOptions {
  int count = 10;              // s (clamped to the number of free DOFs)
  int dense_below = 200;       // free DOFs at or below which the dense solver is used
  double tolerance = 1e-10;    // Lanczos convergence (relative, on the Ritz values)
  int max_iterations = 1000;   // Lanczos restarts
};

// K, M: symmetric n x n (full storage); fixed: per DOF, nonzero for eliminated DOFs (may be empty).
// K must be positive semi-definite on the free DOFs (the stepper passes the per-element
// PSD-projected stiffness). Throws std::runtime_error when the eigensolver does not converge.
ModalSubspace lowest_modes(const SparseMat& K, const SparseMat& M, const std::vector<char>& fixed,
                           const ModalOptions& options = {});

}  // namespace softsim
