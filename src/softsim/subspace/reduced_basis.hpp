#pragma once
// A reduced body's basis: its positions are x = x0 + U q (Li & Jiang 2025, the chapter on model
// reduction), x0 the body's positions at t = 0 and U a few displacement fields over its vertices.
// Made at load time from the scene's `reduction` key or read from a file that `softsim reduce`
// wrote (scene/reduced_basis_file.hpp); the model's subspace map takes it as one group.
#include <string>

#include "softsim/core/enum_names.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

// Where the columns come from: the lowest vibration modes at t = 0; proper orthogonal
// decomposition of snapshots of a run (mass-PCA); modes mixed with their modal derivatives and
// compressed by mass-PCA (Barbic & James 2005).
enum class ReducedBasisKind { modes, pod, modes_and_derivatives };
template <>
struct EnumNames<ReducedBasisKind> {
  static constexpr std::pair<ReducedBasisKind, const char*> table[] = {{ReducedBasisKind::modes, "modes"},
                                                                       {ReducedBasisKind::pod, "pod"},
                                                                       {ReducedBasisKind::modes_and_derivatives,
                                                                        "modes+derivatives"}};
};

struct ReducedBasis {
  ReducedBasisKind kind = ReducedBasisKind::modes;
  int dim = 3;
  // The body's DOFs, vertex-major (num_vertices * dim rows), one column per coordinate. The
  // columns are M-orthonormal (U^T M U = I, M the body's mass matrix) and zero at fixed DOFs.
  MatX columns;
  // Per column: modes: the eigenvalue lambda = omega^2 (1/s^2); pod and modes+derivatives: the
  // mass-weighted energy the column captures (the eigenvalue of S^T M S).
  VecX values;
  int size() const { return static_cast<int>(columns.cols()); }
  int num_vertices() const { return dim > 0 ? static_cast<int>(columns.rows()) / dim : 0; }
};

}  // namespace softsim
