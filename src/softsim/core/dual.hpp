#pragma once
// First-order forward-mode automatic differentiation: a Dual carries a value and its derivative
// along one direction (x + eps p). Evaluating a gradient on Duals gives, in the derivative part,
// the Hessian-vector product H p without assembling H (matrix-free Jacobian-vector products for
// inexact Newton, Larionov et al. 2022, §4.3).
#include <Eigen/Core>
#include <cmath>

namespace softsim {

struct Dual {
  double v = 0.0;  // value
  double d = 0.0;  // directional derivative
  Dual() = default;
  Dual(double value, double derivative = 0.0) : v(value), d(derivative) {}  // NOLINT: constants convert
  Dual& operator+=(const Dual& o) { v += o.v; d += o.d; return *this; }
  Dual& operator-=(const Dual& o) { v -= o.v; d -= o.d; return *this; }
  Dual& operator*=(const Dual& o) { d = d * o.v + v * o.d; v *= o.v; return *this; }
};

inline Dual operator+(Dual a, const Dual& b) { return a += b; }
inline Dual operator-(Dual a, const Dual& b) { return a -= b; }
inline Dual operator-(const Dual& a) { return {-a.v, -a.d}; }
inline Dual operator*(Dual a, const Dual& b) { return a *= b; }
inline Dual operator/(const Dual& a, const Dual& b) { return {a.v / b.v, (a.d * b.v - a.v * b.d) / (b.v * b.v)}; }
inline Dual sqrt(const Dual& a) {
  const double s = std::sqrt(a.v);
  return {s, a.d / (2.0 * s)};
}
inline Dual log(const Dual& a) { return {std::log(a.v), a.d / a.v}; }
inline double value_of(const Dual& a) { return a.v; }  // as for double and Jet (core/jet.hpp)

}  // namespace softsim

namespace Eigen {
// Lets Eigen's fixed-size matrices hold Duals (for small kernels).
template <>
struct NumTraits<softsim::Dual> : NumTraits<double> {
  using Real = softsim::Dual;
  using NonInteger = softsim::Dual;
  using Nested = softsim::Dual;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 2, AddCost = 2, MulCost = 4 };
};
}  // namespace Eigen
