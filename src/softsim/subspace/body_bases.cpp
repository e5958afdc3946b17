#include "softsim/subspace/body_bases.hpp"

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "softsim/core/bounding_box.hpp"
#include "softsim/model/model_data.hpp"
#include "softsim/model/stage.hpp"
#include "softsim/solve/free_dofs.hpp"
#include "softsim/solve/modal_subspace.hpp"
#include "softsim/subspace/mass_pca.hpp"

namespace softsim {

namespace {

struct BodyDofs {
  int first = 0, count = 0;
};

BodyDofs dofs_of(const Model& model, int body) {
  const Body& b = model.bodies.at(body);
  return {b.first_vertex * model.dim(), b.mesh.num_vertices() * model.dim()};
}

SparseMat block(const SparseMat& A, BodyDofs d) {
  std::vector<Triplet> t;
  for (int c = d.first; c < d.first + d.count; ++c)
    for (SparseMat::InnerIterator it(A, c); it; ++it)
      if (it.row() >= d.first && it.row() < d.first + d.count) t.emplace_back(it.row() - d.first, c - d.first, it.value());
  SparseMat B(d.count, d.count);
  B.setFromTriplets(t.begin(), t.end());
  return B;
}

// The Hessian of the model's potential at x (contact's changing stencils left out: a basis is a
// property of the body), the body's block.
SparseMat body_stiffness(const Model& model, BodyDofs d, const VecX& x, bool project_psd) {
  const ModelData data(model);
  const Stage stage;
  SparseMat K = model.layout().pattern();
  AssemblyOutputs out;
  out.hessian = &K;
  out.project_psd = project_psd;
  model.potential(EvalContext{stage, data}, x, out);
  return block(K, d);
}

std::vector<char> body_fixed(const Model& model, BodyDofs d) {
  const std::vector<char>& all = model.boundary.fixed_dofs();
  return std::vector<char>(all.begin() + d.first, all.begin() + d.first + d.count);
}

ModalSubspace body_modes(const Model& model, BodyDofs d, const std::vector<char>& fixed, int size) {
  if (std::all_of(fixed.begin(), fixed.end(), [](char f) { return f != 0; }))
    throw std::invalid_argument("every DOF of the body is fixed: there is nothing to reduce");
  ModalOptions options;
  options.count = size;
  return lowest_modes(body_stiffness(model, d, model.rest_positions, true), block(model.mass_matrix(), d), fixed,
                      options);
}

ReducedBasis from_pca(ReducedBasisKind kind, int dim, const MassPca& pca) {
  ReducedBasis basis;
  basis.kind = kind;
  basis.dim = dim;
  basis.columns = pca.basis;
  basis.values = pca.energy;
  return basis;
}

}  // namespace

ReducedBasis modal_basis(const Model& model, int body, int size) {
  const BodyDofs d = dofs_of(model, body);
  const ModalSubspace modes = body_modes(model, d, body_fixed(model, d), size);
  ReducedBasis basis;
  basis.kind = ReducedBasisKind::modes;
  basis.dim = model.dim();
  basis.columns = modes.modes;
  basis.values = modes.eigenvalues;
  return basis;
}

ReducedBasis modal_derivative_basis(const Model& model, int body, int size) {
  const BodyDofs d = dofs_of(model, body);
  const std::vector<char> fixed = body_fixed(model, d);
  const ModalSubspace modes = body_modes(model, d, fixed, size);
  const int m = modes.count();
  int k = 1;
  while (k < m && k * (k + 1) / 2 < size) ++k;
  const FreeDofs free(d.count, fixed);
  const Eigen::SimplicialLDLT<SparseMat> ldlt(free.block(body_stiffness(model, d, model.rest_positions, false)));
  const double lambda_1 = modes.eigenvalues[0];
  if (ldlt.info() != Eigen::Success || !(lambda_1 > 1e-9 * modes.eigenvalues[m - 1]) ||
      ldlt.vectorD().minCoeff() <= 0.0)
    throw std::invalid_argument(
        "modal derivatives need a body held by fixed vertices (its stiffness at rest must be invertible)");

  // The step of the central difference: a motion of 1e-4 of the body's size at its largest vertex.
  const Body& b = model.bodies[body];
  const double size_of_body = bounding_box_diagonal(b.mesh.vertices);
  MatX mixed(d.count, m + k * (k + 1) / 2);
  for (int i = 0; i < m; ++i) mixed.col(i) = modes.modes.col(i) * (lambda_1 / modes.eigenvalues[i]);
  int column = m;
  for (int j = 0; j < k; ++j) {
    const VecX psi_j = modes.modes.col(j);
    const double eps = 1e-4 * size_of_body / psi_j.lpNorm<Eigen::Infinity>();
    VecX x = model.rest_positions;
    x.segment(d.first, d.count) += eps * psi_j;
    const SparseMat K_plus = body_stiffness(model, d, x, false);
    x.segment(d.first, d.count) -= 2.0 * eps * psi_j;
    const SparseMat K_minus = body_stiffness(model, d, x, false);
    const SparseMat dK = (K_plus - K_minus) / (2.0 * eps);
    for (int i = 0; i <= j; ++i) {
      const VecX phi = free.extend(ldlt.solve(free.restrict(-(dK * modes.modes.col(i)))));
      mixed.col(column++) = phi * (lambda_1 * lambda_1 / (modes.eigenvalues[i] * modes.eigenvalues[j]));
    }
  }
  return from_pca(ReducedBasisKind::modes_and_derivatives, model.dim(),
                  mass_pca(mixed, block(model.mass_matrix(), d), size));
}

ReducedBasis pod_basis(const Model& model, int body, const MatX& snapshots, int size) {
  const BodyDofs d = dofs_of(model, body);
  if (snapshots.rows() != d.count) throw std::invalid_argument("pod_basis: the snapshots are not the body's DOFs");
  MatX displacements = snapshots.colwise() - model.rest_positions.segment(d.first, d.count);
  const std::vector<char> fixed = body_fixed(model, d);
  for (int i = 0; i < d.count; ++i)
    if (fixed[i]) displacements.row(i).setZero();
  return from_pca(ReducedBasisKind::pod, model.dim(), mass_pca(displacements, block(model.mass_matrix(), d), size));
}

}  // namespace softsim
