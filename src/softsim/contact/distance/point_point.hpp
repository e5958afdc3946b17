#pragma once
// Squared point-point distance d^2 = |p - q|^2 (IPC, Li et al. 2020, sec. 4.1, type P-P), in 2D
// or 3D: grad = 2 [p - q; q - p], Hess = 2 [I -I; -I I].
#include "softsim/contact/distance/derivatives.hpp"

namespace softsim {

template <int D>
double point_point_distance_squared(const Eigen::Matrix<double, D, 1>& p, const Eigen::Matrix<double, D, 1>& q) {
  return (p - q).squaredNorm();
}

template <int D>
DistanceDerivatives<2 * D> point_point_distance_derivatives(const Eigen::Matrix<double, D, 1>& p,
                                                            const Eigen::Matrix<double, D, 1>& q) {
  DistanceDerivatives<2 * D> r;
  const Eigen::Matrix<double, D, 1> diff = p - q;
  r.value = diff.squaredNorm();
  r.grad.template head<D>() = 2 * diff;
  r.grad.template tail<D>() = -2 * diff;
  const auto I = Eigen::Matrix<double, D, D>::Identity();
  r.hess.template topLeftCorner<D, D>() = 2 * I;
  r.hess.template bottomRightCorner<D, D>() = 2 * I;
  r.hess.template topRightCorner<D, D>() = -2 * I;
  r.hess.template bottomLeftCorner<D, D>() = -2 * I;
  return r;
}

}  // namespace softsim
