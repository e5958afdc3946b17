#pragma once
// Non-negative least squares, min ||A x - b|| subject to x >= 0, by the active-set method of
// Lawson & Hanson 1974 (ch. 23, algorithm NNLS): the cubature weights of a reduced body are
// fitted with it (subspace/cubature.hpp).
#include "softsim/core/types.hpp"

namespace softsim {

struct NnlsResult {
  VecX x;
  double residual = 0.0;  // ||A x - b||
  int iterations = 0;
  bool converged = true;  // false: the iteration cap (3 x columns) was reached
};

NnlsResult solve_nnls(const MatX& A, const VecX& b);

}  // namespace softsim
