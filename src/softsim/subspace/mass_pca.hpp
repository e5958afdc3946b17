#pragma once
// Mass-PCA (Li & Jiang 2025, ch. on model reduction; Barbic & James 2005, sec. 4): the r
// M-orthonormal directions that capture the most of a set of displacement fields in the mass
// norm, by the method of snapshots: the eigenvectors v_j of C = S^T M S (k x k, k the number of
// fields), u_j = S v_j / sqrt(mu_j). Cheap when k is much smaller than the DOF count.
#include "softsim/core/types.hpp"

namespace softsim {

struct MassPca {
  MatX basis;   // n x r, M-orthonormal
  VecX energy;  // r, descending: mu_j, the squared mass norm captured by u_j
};

// snapshots: n x k displacement fields; M: n x n symmetric positive semi-definite. Directions
// with mu_j <= relative_cutoff * mu_1 are dropped, so r may be less than `size` (the snapshots'
// mass-rank). Throws std::invalid_argument when the snapshots have no mass-weighted content.
MassPca mass_pca(const MatX& snapshots, const SparseMat& M, int size, double relative_cutoff = 1e-12);

}  // namespace softsim
