#pragma once
// First-order forward-mode jets: a value and its gradient over N variables, without the Hessian
// that core/jet.hpp carries, for code that needs gradients only and evaluates them often (the
// position-based solvers project one element at a time, pbd/).
#include <Eigen/Core>
#include <cmath>

namespace softsim {

template <int N>
struct GradientJet {
  double v = 0.0;
  Eigen::Matrix<double, N, 1> g = Eigen::Matrix<double, N, 1>::Zero();
  GradientJet() = default;
  GradientJet(double value) : v(value) {}  // NOLINT: constants convert implicitly
  static GradientJet variable(double value, int index) {
    GradientJet j(value);
    j.g[index] = 1.0;
    return j;
  }
};

template <int N>
GradientJet<N> chain(const GradientJet<N>& a, double f, double df) {
  GradientJet<N> r;
  r.v = f;
  r.g = df * a.g;
  return r;
}
template <int N> GradientJet<N> operator+(const GradientJet<N>& a, const GradientJet<N>& b) { GradientJet<N> r; r.v = a.v + b.v; r.g = a.g + b.g; return r; }
template <int N> GradientJet<N> operator-(const GradientJet<N>& a, const GradientJet<N>& b) { GradientJet<N> r; r.v = a.v - b.v; r.g = a.g - b.g; return r; }
template <int N> GradientJet<N> operator-(const GradientJet<N>& a) { GradientJet<N> r; r.v = -a.v; r.g = -a.g; return r; }
template <int N> GradientJet<N> operator*(const GradientJet<N>& a, const GradientJet<N>& b) { GradientJet<N> r; r.v = a.v * b.v; r.g = b.v * a.g + a.v * b.g; return r; }
template <int N> GradientJet<N> operator/(const GradientJet<N>& a, const GradientJet<N>& b) { GradientJet<N> r; r.v = a.v / b.v; r.g = (a.g - r.v * b.g) / b.v; return r; }
template <int N> GradientJet<N> sqrt(const GradientJet<N>& a) { const double s = std::sqrt(a.v); return chain(a, s, 0.5 / s); }
template <int N>
GradientJet<N> atan2(const GradientJet<N>& y, const GradientJet<N>& x) {
  GradientJet<N> r;
  r.v = std::atan2(y.v, x.v);
  const double r2 = x.v * x.v + y.v * y.v;
  r.g = (x.v * y.g - y.v * x.g) / r2;
  return r;
}

}  // namespace softsim
