#pragma once
// The result of a squared-distance evaluation on a stencil of N scalar coordinates (vertex-major,
// e.g. p, t0, t1, t2 for point-triangle: N = 12): the value d^2, its gradient and its Hessian.
#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products

namespace softsim {

template <int N>
struct DistanceDerivatives {
  double value = 0;
  Eigen::Matrix<double, N, 1> grad = Eigen::Matrix<double, N, 1>::Zero();
  Eigen::Matrix<double, N, N> hess = Eigen::Matrix<double, N, N>::Zero();
};

}  // namespace softsim
