#pragma once
// Second-order forward-mode differentiation over N independent variables: a value with its
// gradient and Hessian, propagated exactly (no truncation error) through +, -, *, /. Used to get
// the exact derivatives of the closed-form squared distances (IPC, Li et al. 2020, sec. 4.1 and
// supplement) and of the edge-edge mollifier input without hand-expanding them. Only the few
// operations the distance formulas need are provided.
#include <Eigen/Core>

namespace softsim::contact_detail {

template <int N>
struct Dual2 {
  using Grad = Eigen::Matrix<double, N, 1>;
  using Hess = Eigen::Matrix<double, N, N>;
  double v = 0;
  Grad g = Grad::Zero();
  Hess h = Hess::Zero();

  static Dual2 constant(double value) {
    Dual2 r;
    r.v = value;
    return r;
  }
  static Dual2 variable(double value, int i) {
    Dual2 r;
    r.v = value;
    r.g[i] = 1;
    return r;
  }
};

template <int N>
Dual2<N> operator+(const Dual2<N>& a, const Dual2<N>& b) {
  Dual2<N> r;
  r.v = a.v + b.v;
  r.g = a.g + b.g;
  r.h = a.h + b.h;
  return r;
}
template <int N>
Dual2<N> operator-(const Dual2<N>& a, const Dual2<N>& b) {
  Dual2<N> r;
  r.v = a.v - b.v;
  r.g = a.g - b.g;
  r.h = a.h - b.h;
  return r;
}
template <int N>
Dual2<N> operator*(const Dual2<N>& a, const Dual2<N>& b) {
  // (ab)'' = a'' b + a b'' + a' b'^T + b' a'^T
  Dual2<N> r;
  r.v = a.v * b.v;
  r.g = a.g * b.v + b.g * a.v;
  r.h = a.h * b.v + b.h * a.v + a.g * b.g.transpose() + b.g * a.g.transpose();
  return r;
}
template <int N>
Dual2<N> operator*(double s, const Dual2<N>& a) {
  Dual2<N> r;
  r.v = s * a.v;
  r.g = s * a.g;
  r.h = s * a.h;
  return r;
}
template <int N>
Dual2<N> inverse(const Dual2<N>& a) {
  // f = 1/a: f' = -a'/a^2, f'' = -a''/a^2 + 2 a' a'^T / a^3
  const double inv = 1.0 / a.v, inv2 = inv * inv;
  Dual2<N> r;
  r.v = inv;
  r.g = -inv2 * a.g;
  r.h = -inv2 * a.h + (2 * inv2 * inv) * (a.g * a.g.transpose());
  return r;
}
template <int N>
Dual2<N> operator/(const Dual2<N>& a, const Dual2<N>& b) {
  return a * inverse(b);
}

// Variables x[offset .. offset+D) as a D-vector of duals.
template <int N, int D>
Eigen::Matrix<Dual2<N>, D, 1> dual_vector(const Eigen::Matrix<double, D, 1>& x, int offset) {
  Eigen::Matrix<Dual2<N>, D, 1> r;
  for (int i = 0; i < D; ++i) r[i] = Dual2<N>::variable(x[i], offset + i);
  return r;
}

template <class T, int D>
T dot(const Eigen::Matrix<T, D, 1>& a, const Eigen::Matrix<T, D, 1>& b) {
  T r = a[0] * b[0];
  for (int i = 1; i < D; ++i) r = r + a[i] * b[i];
  return r;
}
template <class T>
Eigen::Matrix<T, 3, 1> cross(const Eigen::Matrix<T, 3, 1>& a, const Eigen::Matrix<T, 3, 1>& b) {
  Eigen::Matrix<T, 3, 1> r;
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
  return r;
}

}  // namespace softsim::contact_detail

// Eigen needs to know Dual2 is a scalar-like type to hold it in fixed-size matrices.
namespace Eigen {
template <int N>
struct NumTraits<softsim::contact_detail::Dual2<N>> : NumTraits<double> {
  using Real = softsim::contact_detail::Dual2<N>;
  using NonInteger = softsim::contact_detail::Dual2<N>;
  using Nested = softsim::contact_detail::Dual2<N>;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 1, AddCost = 3, MulCost = 3 };
};
}  // namespace Eigen
