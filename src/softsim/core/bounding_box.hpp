#pragma once
// The diagonal of the axis-aligned bounding box of points (one point per row): the length scale
// that tolerances, default sizes and training amplitudes are relative to. 0 for no points.
#include <Eigen/Core>

namespace softsim {

template <class Derived>
double bounding_box_diagonal(const Eigen::MatrixBase<Derived>& points) {
  if (points.rows() == 0) return 0.0;
  return (points.colwise().maxCoeff() - points.colwise().minCoeff()).norm();
}

}  // namespace softsim
