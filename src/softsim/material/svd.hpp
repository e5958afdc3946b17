#pragma once
// Rotation-variant SVD and polar decomposition of a deformation gradient (Irving, Teran,
// Fedkiw 2004 "Invertible finite elements"; Stomakhin et al. 2012): F = U diag(sigma) V^T with
// U, V proper rotations (det = +1). Singular values are sorted by decreasing magnitude; a
// reflection (det F < 0) is folded into the sign of the last, smallest one, so sigma_D < 0
// exactly when F is inverted.
#include "softsim/core/types.hpp"

namespace softsim {

template <int D>
struct RotationVariantSvd {
  MatD<D> U;
  VecD<D> sigma;
  MatD<D> V;
};

template <int D>
RotationVariantSvd<D> rotation_variant_svd(const MatD<D>& F);

// F = R S with R = U V^T a proper rotation and S = V diag(sigma) V^T symmetric (positive
// definite when det F > 0, indefinite when F is inverted).
template <int D>
struct PolarDecomposition {
  MatD<D> R;
  MatD<D> S;
};

template <int D>
PolarDecomposition<D> polar_decomposition(const MatD<D>& F);

}  // namespace softsim
