#pragma once
// Numeric types used across softsim. Vertex data are stored row-per-vertex (n x dim); the
// degrees of freedom are the same data stacked vertex-major: x = (x0, y0, z0, x1, ...).
#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace softsim {

using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using MatXi = Eigen::MatrixXi;
using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Mat2 = Eigen::Matrix2d;
using Mat3 = Eigen::Matrix3d;
template <int D>
using VecD = Eigen::Matrix<double, D, 1>;
template <int D>
using MatD = Eigen::Matrix<double, D, D>;
// A point, direction or D x D block of a scene whose dimension (2 or 3) is known at run time
// only: sized then, stored inline (never on the heap), so per-contact code allocates nothing.
using VecUpTo3 = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 3, 1>;
using MatUpTo3 = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 3, 3>;
using SparseMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
using Triplet = Eigen::Triplet<double, int>;
// Vertex positions in rows (n x dim, dim = 2 or 3): collision geometry, broad phase, contact.
using VertexRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Vertex-major view of a DOF vector as an n x dim matrix (rows = vertices).
inline Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
as_rows(const VecX& x, int dim) {
  return {x.data(), x.size() / dim, dim};
}
inline Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
as_rows(VecX& x, int dim) {
  return {x.data(), x.size() / dim, dim};
}
// Stacks an n x dim vertex matrix into a vertex-major DOF vector.
inline VecX flatten_rows(const MatX& V) {
  VecX x(V.size());
  as_rows(x, static_cast<int>(V.cols())) = V;
  return x;
}

}  // namespace softsim
