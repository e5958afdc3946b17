#pragma once
// Forward-mode automatic differentiation to second order: a Jet carries a value, its gradient
// and its Hessian with respect to N independent variables, and every operation applies the
// chain rule exactly. Used where closed-form Hessians are long and error-prone (dihedral-angle
// bending, membrane strain), for small N (one element's DOFs).
#include <Eigen/Core>
#include <cmath>

namespace softsim {

template <int N>
struct Jet {
  using Vec = Eigen::Matrix<double, N, 1>;
  using Mat = Eigen::Matrix<double, N, N>;
  double v = 0.0;
  Vec g = Vec::Zero();
  Mat H = Mat::Zero();

  Jet() = default;
  Jet(double value) : v(value) {}  // NOLINT: constants convert implicitly
  static Jet variable(double value, int index) {
    Jet j(value);
    j.g[index] = 1.0;
    return j;
  }
};

// f(a) with f' = d1 and f'' = d2 at a.v
template <int N>
Jet<N> chain(const Jet<N>& a, double f, double d1, double d2) {
  Jet<N> r;
  r.v = f;
  r.g = d1 * a.g;
  r.H = d1 * a.H + d2 * a.g * a.g.transpose();
  return r;
}

template <int N> Jet<N> operator+(const Jet<N>& a, const Jet<N>& b) { Jet<N> r; r.v = a.v + b.v; r.g = a.g + b.g; r.H = a.H + b.H; return r; }
template <int N> Jet<N> operator-(const Jet<N>& a, const Jet<N>& b) { Jet<N> r; r.v = a.v - b.v; r.g = a.g - b.g; r.H = a.H - b.H; return r; }
template <int N> Jet<N> operator-(const Jet<N>& a) { Jet<N> r; r.v = -a.v; r.g = -a.g; r.H = -a.H; return r; }
template <int N> Jet<N> operator*(const Jet<N>& a, const Jet<N>& b) {
  Jet<N> r;
  r.v = a.v * b.v;
  r.g = a.v * b.g + b.v * a.g;
  const auto cross = a.g * b.g.transpose();
  r.H = a.v * b.H + b.v * a.H + cross + cross.transpose();
  return r;
}
template <int N> Jet<N> operator*(double s, const Jet<N>& a) { Jet<N> r; r.v = s * a.v; r.g = s * a.g; r.H = s * a.H; return r; }
template <int N> Jet<N> operator*(const Jet<N>& a, double s) { return s * a; }
template <int N> Jet<N> operator+(const Jet<N>& a, double s) { Jet<N> r = a; r.v += s; return r; }
template <int N> Jet<N> operator-(const Jet<N>& a, double s) { Jet<N> r = a; r.v -= s; return r; }
template <int N> Jet<N> operator-(double s, const Jet<N>& a) { return -a + s; }
template <int N> Jet<N> inverse(const Jet<N>& a) { return chain(a, 1.0 / a.v, -1.0 / (a.v * a.v), 2.0 / (a.v * a.v * a.v)); }
template <int N> Jet<N> operator/(const Jet<N>& a, const Jet<N>& b) { return a * inverse(b); }
template <int N> Jet<N> operator/(const Jet<N>& a, double s) { return (1.0 / s) * a; }
template <int N> Jet<N> sqrt(const Jet<N>& a) {
  const double s = std::sqrt(a.v);
  return chain(a, s, 0.5 / s, -0.25 / (s * a.v));
}
template <int N> Jet<N> log(const Jet<N>& a) { return chain(a, std::log(a.v), 1.0 / a.v, -1.0 / (a.v * a.v)); }
// atan2(y, x) with derivatives through both arguments: d = (x dy - y dx) / (x^2 + y^2).
template <int N> Jet<N> atan2(const Jet<N>& y, const Jet<N>& x) {
  Jet<N> r;
  const double r2 = x.v * x.v + y.v * y.v;
  r.v = std::atan2(y.v, x.v);
  // Partial derivatives of atan2 w.r.t. y and x, and second partials.
  const double fy = x.v / r2, fx = -y.v / r2;
  const double fyy = -2 * x.v * y.v / (r2 * r2), fxx = 2 * x.v * y.v / (r2 * r2);
  const double fxy = (y.v * y.v - x.v * x.v) / (r2 * r2);
  r.g = fy * y.g + fx * x.g;
  r.H = fy * y.H + fx * x.H + fyy * y.g * y.g.transpose() + fxx * x.g * x.g.transpose() +
        fxy * (x.g * y.g.transpose() + y.g * x.g.transpose());
  return r;
}

inline double value_of(double x) { return x; }
template <int N> double value_of(const Jet<N>& x) { return x.v; }

}  // namespace softsim

// Eigen needs to know Jet is a scalar-like type to hold it in fixed-size matrices.
namespace Eigen {
template <int N>
struct NumTraits<softsim::Jet<N>> : NumTraits<double> {
  using Real = softsim::Jet<N>;
  using NonInteger = softsim::Jet<N>;
  using Nested = softsim::Jet<N>;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 1, AddCost = 3, MulCost = 3 };
};
}  // namespace Eigen
