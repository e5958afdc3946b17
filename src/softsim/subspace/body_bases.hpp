#pragma once
// A body's reduced bases (Li & Jiang 2025, ch. on model reduction), made from the model at t = 0:
// the lowest modes of K psi = lambda M psi (the body's block of the stiffness and mass, fixed
// DOFs eliminated: the shared eigensolver of solve/modal_subspace.hpp), modes mixed with their
// modal derivatives (Barbic & James 2005), and POD of snapshots of a run. Every basis is
// M-orthonormal and zero at the body's fixed DOFs.
#include "softsim/model/model.hpp"
#include "softsim/subspace/reduced_basis.hpp"

namespace softsim {

// The `size` lowest modes (rigid modes of an unheld body included, lambda = 0).
ReducedBasis modal_basis(const Model& model, int body, int size);

// `size` columns by mass-PCA of the lowest `size` modes and the modal derivatives
// Phi_ij = -K^-1 (dK/dpsi_j) psi_i of the first k modes (i <= j < k, k the least with
// k (k + 1) / 2 >= size), weighted lambda_1 / lambda_i and lambda_1^2 / (lambda_i lambda_j) as
// Barbic & James 2005, sec. 4. The derivative of K is a central difference of the assembled
// Hessian. Needs a body held by fixed vertices (K invertible): throws std::invalid_argument.
ReducedBasis modal_derivative_basis(const Model& model, int body, int size);

// Mass-PCA of the snapshots' displacements from the body's positions at t = 0. snapshots: the
// body's positions, one column per snapshot (num_vertices * dim rows, vertex-major).
ReducedBasis pod_basis(const Model& model, int body, const MatX& snapshots, int size);

}  // namespace softsim
