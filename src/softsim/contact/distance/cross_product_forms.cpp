#include "softsim/contact/distance/cross_product_forms.hpp"

namespace softsim {
namespace {

using Mat3 = Eigen::Matrix3d;
using Vec3 = Eigen::Vector3d;

// [a]x with [a]x b = a x b.
Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return m;
}

// q = |n|^2 with n = u x v, over (u, v): dn/du = -[v]x, dn/dv = [u]x, so dq = 2 J^T n and
// d2q = 2 J^T J + 2 sum_k n_k d2n_k, whose (u, v) block is sum_k n_k eps_kij = -[n]x.
struct CrossNorm {
  Vec3 n;
  double q;
  Eigen::Matrix<double, 6, 1> grad;
  Eigen::Matrix<double, 6, 6> hess;
};

CrossNorm cross_norm(const Vec3& u, const Vec3& v) {
  CrossNorm c;
  c.n = u.cross(v);
  c.q = c.n.squaredNorm();
  Eigen::Matrix<double, 3, 6> J;
  J << -skew(v), skew(u);
  c.grad = 2.0 * J.transpose() * c.n;
  c.hess = 2.0 * J.transpose() * J;
  const Mat3 N = skew(c.n);
  c.hess.block<3, 3>(0, 3) -= 2.0 * N;
  c.hess.block<3, 3>(3, 0) += 2.0 * N;
  return c;
}

}  // namespace

DistanceDerivatives<6> cross_squared_norm(const Vec3& u, const Vec3& v) {
  const CrossNorm c = cross_norm(u, v);
  DistanceDerivatives<6> r;
  r.value = c.q;
  r.grad = c.grad;
  r.hess = c.hess;
  return r;
}

DistanceDerivatives<9> triple_product_ratio(const Vec3& u, const Vec3& v, const Vec3& w) {
  const CrossNorm c = cross_norm(u, v);
  const double s = c.n.dot(w), q = c.q;
  // s = (u x v) . w is trilinear: ds = (v x w, w x u, u x v); its Hessian has the blocks
  // d2s/du dv = -[w]x, d2s/du dw = [v]x, d2s/dv dw = -[u]x (and their transposes).
  Eigen::Matrix<double, 9, 1> ds;
  ds << v.cross(w), w.cross(u), c.n;
  Eigen::Matrix<double, 9, 9> d2s = Eigen::Matrix<double, 9, 9>::Zero();
  const Mat3 W = skew(w), V = skew(v), U = skew(u);
  d2s.block<3, 3>(0, 3) = -W;
  d2s.block<3, 3>(3, 0) = W;
  d2s.block<3, 3>(0, 6) = V;
  d2s.block<3, 3>(6, 0) = -V;
  d2s.block<3, 3>(3, 6) = -U;
  d2s.block<3, 3>(6, 3) = U;
  Eigen::Matrix<double, 9, 1> dq = Eigen::Matrix<double, 9, 1>::Zero();
  dq.head<6>() = c.grad;
  // f = s^2 / q: quotient rule to second order.
  DistanceDerivatives<9> r;
  r.value = s * s / q;
  r.grad = (2.0 * s / q) * ds - (s * s / (q * q)) * dq;
  const Eigen::Matrix<double, 9, 9> sq = ds * dq.transpose();
  r.hess = (2.0 / q) * ds * ds.transpose() + (2.0 * s / q) * d2s - (2.0 * s / (q * q)) * (sq + sq.transpose()) +
           (2.0 * s * s / (q * q * q)) * dq * dq.transpose();
  r.hess.topLeftCorner<6, 6>() -= (s * s / (q * q)) * c.hess;
  return r;
}

DistanceDerivatives<6> cross_ratio(const Vec3& u, const Vec3& v) {
  const CrossNorm c = cross_norm(u, v);
  // m = |v - u|^2: dm = 2 (u - v, v - u), d2m = 2 [[I, -I], [-I, I]].
  const Vec3 e = v - u;
  const double m = e.squaredNorm();
  Eigen::Matrix<double, 6, 1> dm;
  dm << -2.0 * e, 2.0 * e;
  Eigen::Matrix<double, 6, 6> d2m;
  d2m << 2.0 * Mat3::Identity(), -2.0 * Mat3::Identity(), -2.0 * Mat3::Identity(), 2.0 * Mat3::Identity();
  DistanceDerivatives<6> f;
  f.value = c.q / m;
  f.grad = c.grad / m - (c.q / (m * m)) * dm;
  const Eigen::Matrix<double, 6, 6> rm = c.grad * dm.transpose();
  f.hess = c.hess / m - (rm + rm.transpose()) / (m * m) + (2.0 * c.q / (m * m * m)) * dm * dm.transpose() -
           (c.q / (m * m)) * d2m;
  return f;
}

}  // namespace softsim
