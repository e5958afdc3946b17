#include "softsim/fem/hinge_bending.hpp"

#include <Eigen/Geometry>

#include "softsim/core/gradient_jet.hpp"
#include "softsim/core/jet.hpp"
#include "softsim/core/psd_projection.hpp"
#include "softsim/fem/shell_hinges.hpp"

namespace softsim {

namespace {

// theta = atan2((n0 x n1) . e_hat, n0 . n1), n0 = (x1-x0) x (x2-x0), n1 = (x3-x0) x (x1-x0).
template <class T>
T hinge_angle(const T (&p)[4][3]) {
  T e[3], a[3], b[3];
  for (int k = 0; k < 3; ++k) {
    e[k] = p[1][k] - p[0][k];
    a[k] = p[2][k] - p[0][k];
    b[k] = p[3][k] - p[0][k];
  }
  auto cross = [](const T (&u)[3], const T (&v)[3], T (&w)[3]) {
    w[0] = u[1] * v[2] - u[2] * v[1];
    w[1] = u[2] * v[0] - u[0] * v[2];
    w[2] = u[0] * v[1] - u[1] * v[0];
  };
  T n0[3], n1[3], c[3];
  cross(e, a, n0);
  cross(b, e, n1);
  cross(n0, n1, c);
  using std::sqrt;
  using std::atan2;
  const T elen = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  const T sin_part = (c[0] * e[0] + c[1] * e[1] + c[2] * e[2]) / elen;
  const T cos_part = n0[0] * n1[0] + n0[1] * n1[1] + n0[2] * n1[2];
  return atan2(sin_part, cos_part);
}

}  // namespace

HingeBending::HingeBending(const MatXi& triangles, const MatX& rest, double stiffness) : stiffness_(stiffness) {
  hinges_ = interior_hinges(triangles);
  const auto hinge_count = static_cast<std::size_t>(hinges_.rows());
  const VecX X = flatten_rows(rest);
  rest_angle_.resize(hinge_count);
  weight_.resize(hinge_count);
  for (int h = 0; h < hinges_.rows(); ++h) {
    rest_angle_[h] = dihedral_angle(X, h);
    const Vec3 x0 = X.segment<3>(hinges_(h, 0) * 3), x1 = X.segment<3>(hinges_(h, 1) * 3);
    const Vec3 x2 = X.segment<3>(hinges_(h, 2) * 3), x3 = X.segment<3>(hinges_(h, 3) * 3);
    const double areas = 0.5 * ((x1 - x0).cross(x2 - x0).norm() + (x3 - x0).cross(x1 - x0).norm());
    weight_[h] = 3.0 * (x1 - x0).squaredNorm() / areas;
  }
}

double HingeBending::dihedral_angle(const VecX& x, int h) const {
  double p[4][3];
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k) p[a][k] = x[hinges_(h, a) * 3 + k];
  return hinge_angle(p);
}

void HingeBending::declare_stencils(HessianLayout& layout) {
  set_ = layout.add_stencils(hinges_);
  layout_ = &layout;
}

double HingeBending::hinge_energy(const VecX& x, int h, double* grad) const {
  const double k = stiffness_ * weight_[h];
  const double d = dihedral_angle(x, h) - rest_angle_[h];
  if (grad) {
    using G12 = GradientJet<12>;
    G12 p[4][3];
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) p[a][c] = G12::variable(x[hinges_(h, a) * 3 + c], a * 3 + c);
    const G12 angle = hinge_angle(p);
    for (int i = 0; i < 12; ++i) grad[i] = 2.0 * k * d * angle.g[i];
  }
  return k * d * d;
}

double HingeBending::evaluate(const EvalContext&, const VecX& x, const AssemblyOutputs& out) const {
  using J12 = Jet<12>;
  return assemble_stencils<4, 3>(*layout_, set_, out, [&](int h, Eigen::Matrix<double, 12, 1>* grad,
                                                          Eigen::Matrix<double, 12, 12>* hess) {
    const double k = stiffness_ * weight_[h];
    if (!grad && !hess) {
      const double d = dihedral_angle(x, h) - rest_angle_[h];
      return k * d * d;
    }
    J12 p[4][3];
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) p[a][c] = J12::variable(x[hinges_(h, a) * 3 + c], a * 3 + c);
    const J12 d = hinge_angle(p) - rest_angle_[h];
    const J12 e = k * (d * d);
    if (grad) *grad = e.g;
    if (hess) {
      *hess = e.H;
      if (out.project_psd) project_psd(*hess);
    }
    return e.v;
  });
}

}  // namespace softsim
