#include "softsim/integrate/exponential/phi_dense.hpp"

#include <unsupported/Eigen/MatrixFunctions>

namespace softsim {

VecX phi1_times(const MatX& Z, const VecX& g) {
  const Eigen::Index n = Z.rows();
  if (n == 0) return VecX();
  MatX augmented = MatX::Zero(n + 1, n + 1);
  augmented.topLeftCorner(n, n) = Z;
  augmented.topRightCorner(n, 1) = g;
  const MatX E = augmented.exp();
  return E.topRightCorner(n, 1);
}

}  // namespace softsim
