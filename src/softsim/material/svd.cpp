// Rotation-variant SVD by one-sided (Hestenes) Jacobi: plane rotations V orthogonalise the
// columns of B = F V; then sigma_i = |b_i|, U = B diag(sigma)^-1 completed to a rotation.
// Rotation angles come from the current columns, not from F^T F, so the singular values keep
// their accuracy (absolute eps ||F||, like Eigen's two-sided JacobiSVD, which this replaces at a
// fraction of its cost; Demmel & Veselic 1992 "Jacobi's method is more accurate than QR").
// Tiny, zero, repeated and negative singular values need no special case beyond the
// completion of U when some columns of B vanish.
#include "softsim/material/svd.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

namespace softsim {

namespace {

constexpr int kMaxSweeps = 20;  // 3x3 converges quadratically in 3-6 sweeps; a cap for NaN input

// Rotates columns i, j of B (and V) so that b_i . b_j = 0 (Golub & Van Loan, sec. 8.6.3).
// Returns false when they already are orthogonal to machine precision.
template <int D>
bool orthogonalise_columns(MatD<D>& B, MatD<D>& V, int i, int j) {
  const double a = B.col(i).squaredNorm();
  const double b = B.col(j).squaredNorm();
  const double g = B.col(i).dot(B.col(j));
  if (!(std::abs(g) > std::numeric_limits<double>::epsilon() * std::sqrt(a * b))) return false;
  const double zeta = (b - a) / (2.0 * g);
  // The smaller root of t^2 + 2 zeta t - 1 = 0 (rotation angle below pi/4); zeta^2 may overflow
  // to infinity for nearly orthogonal columns, which correctly gives t = 0.
  const double t = std::copysign(1.0, zeta) / (std::abs(zeta) + std::sqrt(1.0 + zeta * zeta));
  const double c = 1.0 / std::sqrt(1.0 + t * t);
  const double s = c * t;
  for (int r = 0; r < D; ++r) {
    const double bi = B(r, i), bj = B(r, j);
    B(r, i) = c * bi - s * bj;
    B(r, j) = s * bi + c * bj;
    const double vi = V(r, i), vj = V(r, j);
    V(r, i) = c * vi - s * vj;
    V(r, j) = s * vi + c * vj;
  }
  return true;
}

// A unit vector orthogonal to the unit vector u.
Vec3 any_orthogonal(const Vec3& u) {
  int k = 0;
  if (std::abs(u(1)) < std::abs(u(k))) k = 1;
  if (std::abs(u(2)) < std::abs(u(k))) k = 2;
  return u.cross(Vec3::Unit(k)).normalized();
}

// A proper rotation close to the eigenvectors of F^T F (Eigen's closed-form 3x3 eigensolver),
// as the Jacobi sweeps' starting point: they then only polish (1-2 sweeps instead of 4-6). The
// closed form loses accuracy for nearly repeated eigenvalues; re-orthonormalising makes that a
// slower start, never a wrong result.
template <int D>
MatD<D> initial_rotation(const MatD<D>& F) {
  if constexpr (D == 2) {
    return MatD<D>::Identity();  // one rotation is exact in 2D
  } else {
    Eigen::SelfAdjointEigenSolver<Mat3> eig;
    eig.computeDirect(F.transpose() * F);
    const Mat3& E = eig.eigenvectors();  // ascending eigenvalues: take the columns in reverse
    const Vec3 v0 = E.col(2).normalized();
    Vec3 v1 = E.col(1) - v0.dot(E.col(1)) * v0;
    const double m1 = v1.norm();
    v1 = m1 > 0.5 ? Vec3(v1 / m1) : any_orthogonal(v0);
    Mat3 V;
    V << v0, v1, v0.cross(v1);
    return V.allFinite() && v0.squaredNorm() > 0.5 ? V : Mat3::Identity();
  }
}

}  // namespace

template <int D>
RotationVariantSvd<D> rotation_variant_svd(const MatD<D>& F) {
  MatD<D> V = initial_rotation<D>(F);
  MatD<D> B = F * V;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool rotated = false;
    for (int i = 0; i + 1 < D; ++i)
      for (int j = i + 1; j < D; ++j) rotated = orthogonalise_columns<D>(B, V, i, j) || rotated;
    if (!rotated) break;
  }
  // Sort the columns by decreasing norm; an odd permutation is undone in det V by negating the
  // last column of V and B, which keeps F = B V^T.
  VecD<D> norm = B.colwise().norm();
  bool odd = false;
  for (int i = 0; i + 1 < D; ++i)
    for (int j = D - 1; j > i; --j)
      if (norm(j) > norm(j - 1)) {
        std::swap(norm(j), norm(j - 1));
        B.col(j).swap(B.col(j - 1));
        V.col(j).swap(V.col(j - 1));
        odd = !odd;
      }
  if (odd) {
    B.col(D - 1) *= -1.0;
    V.col(D - 1) *= -1.0;
  }
  // U: the normalised columns, completed to a proper rotation (the last column is the cross
  // product), so the reflection of an inverted F lands in the sign of sigma_D = u_D . b_D.
  RotationVariantSvd<D> out;
  out.V = V;
  constexpr double tiny = 1e4 * std::numeric_limits<double>::min();
  if constexpr (D == 2) {
    const Vec2 u0 = norm(0) > tiny ? Vec2(B.col(0) / norm(0)) : Vec2::UnitX();
    out.U.col(0) = u0;
    out.U.col(1) = Vec2(-u0(1), u0(0));
  } else {
    const Vec3 u0 = norm(0) > tiny ? Vec3(B.col(0) / norm(0)) : Vec3::UnitX();
    Vec3 u1 = B.col(1) - u0.dot(B.col(1)) * u0;  // Gram-Schmidt against rounding in b_0 . b_1
    const double m1 = u1.norm();
    u1 = m1 > tiny ? Vec3(u1 / m1) : any_orthogonal(u0);
    out.U.col(0) = u0;
    out.U.col(1) = u1;
    out.U.col(2) = u0.cross(u1);
  }
  for (int i = 0; i < D; ++i) out.sigma(i) = out.U.col(i).dot(B.col(i));
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
