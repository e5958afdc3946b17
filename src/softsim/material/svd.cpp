// Rotation-variant SVD on top of Eigen's two-sided Jacobi SVD (accurate to machine precision
// relative to ||F|| for these tiny matrices).
#include "softsim/material/svd.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>

namespace softsim {

template <int D>
RotationVariantSvd<D> rotation_variant_svd(const MatD<D>& F) {
  Eigen::JacobiSVD<MatD<D>, Eigen::NoQRPreconditioner> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  RotationVariantSvd<D> out{svd.matrixU(), svd.singularValues(), svd.matrixV()};
  // Eigen sorts sigma decreasingly, so the last column pairs with the smallest singular value.
  if (out.U.determinant() < 0.0) {
    out.U.col(D - 1) *= -1.0;
    out.sigma(D - 1) *= -1.0;
  }
  if (out.V.determinant() < 0.0) {
    out.V.col(D - 1) *= -1.0;
    out.sigma(D - 1) *= -1.0;
  }
  return out;
}

template <int D>
PolarDecomposition<D> polar_decomposition(const MatD<D>& F) {
  const RotationVariantSvd<D> svd = rotation_variant_svd<D>(F);
  MatD<D> S = svd.V * svd.sigma.asDiagonal() * svd.V.transpose();
  S = 0.5 * (S + S.transpose()).eval();
  return {svd.U * svd.V.transpose(), S};
}

template RotationVariantSvd<2> rotation_variant_svd<2>(const MatD<2>&);
template RotationVariantSvd<3> rotation_variant_svd<3>(const MatD<3>&);
template PolarDecomposition<2> polar_decomposition<2>(const MatD<2>&);
template PolarDecomposition<3> polar_decomposition<3>(const MatD<3>&);

}  // namespace softsim
