#include "softsim/fem/shell_membrane.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "softsim/core/errors.hpp"
#include "softsim/core/jet.hpp"
#include "softsim/core/psd_projection.hpp"

namespace softsim {

ShellMembrane::ShellMembrane(const MatXi& triangles, const MatX& rest, const std::string& model,
                             const LameParameters& lame, double thickness, const std::string& source)
    : triangles_(triangles), model_(model), thickness_(thickness) {
  mu_ = lame.mu;
  lambda_ = 2.0 * lame.mu * lame.lambda / (lame.lambda + 2.0 * lame.mu);  // plane stress
  const int m = static_cast<int>(triangles.rows());
  rest_inverse_.resize(m);
  area_.resize(m);
  for (int t = 0; t < m; ++t) {
    const Vec3 X0 = rest.row(triangles(t, 0)).transpose();
    const Vec3 e1 = rest.row(triangles(t, 1)).transpose() - X0;
    const Vec3 e2 = rest.row(triangles(t, 2)).transpose() - X0;
    const Vec3 n = e1.cross(e2);
    if (!(n.norm() > 1e-14 * e1.squaredNorm()))
      throw InputError(fmt::format("{}: triangle {} is degenerate at rest", source, t));
    // Rest frame: u along e1, w in the plane, perpendicular to u.
    const Vec3 u = e1.normalized(), w = n.cross(e1).normalized();
    Mat2 Dm;
    Dm << e1.dot(u), e2.dot(u), e1.dot(w), e2.dot(w);
    rest_inverse_[t] = Dm.inverse();
    area_[t] = 0.5 * n.norm();
  }
}

template <class T>
T ShellMembrane::density(const T& c00, const T& c01, const T& c11) const {
  if (model_ == "stvk") {
    const T e00 = 0.5 * (c00 - 1.0), e01 = 0.5 * c01, e11 = 0.5 * (c11 - 1.0);
    const T tr = e00 + e11;
    return mu_ * (e00 * e00 + 2.0 * (e01 * e01) + e11 * e11) + 0.5 * lambda_ * (tr * tr);
  }
  using std::log;
  const T det = c00 * c11 - c01 * c01;
  const T log_j = 0.5 * log(det);
  return 0.5 * mu_ * (c00 + c11 - 2.0) - mu_ * log_j + 0.5 * lambda_ * (log_j * log_j);
}

void ShellMembrane::declare_stencils(HessianLayout& layout) {
  set_ = layout.add_stencils(triangles_);
  layout_ = &layout;
}

double ShellMembrane::evaluate(const EvalContext&, const VecX& x, const AssemblyOutputs& out) const {
  using J9 = Jet<9>;
  return assemble_stencils<3, 3>(*layout_, set_, out, [&](int t, Eigen::Matrix<double, 9, 1>* grad,
                                                          Eigen::Matrix<double, 9, 9>* hess) {
    const Mat2& Bi = rest_inverse_[t];
    const double weight = thickness_ * area_[t];
    if (!grad && !hess) {
      Eigen::Matrix<double, 3, 2> Ds;
      for (int a = 0; a < 2; ++a) Ds.col(a) = x.segment<3>(triangles_(t, a + 1) * 3) - x.segment<3>(triangles_(t, 0) * 3);
      const Eigen::Matrix<double, 3, 2> F = Ds * Bi;
      const Mat2 C = F.transpose() * F;
      if (model_ == "neo_hookean" && !(C.determinant() > 0)) return HUGE_VAL;
      return weight * density(C(0, 0), C(0, 1), C(1, 1));
    }
    // F columns as jets of the 9 vertex coordinates.
    J9 xs[3][3];
    for (int a = 0; a < 3; ++a)
      for (int k = 0; k < 3; ++k) xs[a][k] = J9::variable(x[triangles_(t, a) * 3 + k], a * 3 + k);
    J9 F[3][2];
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 2; ++j)
        F[k][j] = (xs[1][k] - xs[0][k]) * Bi(0, j) + (xs[2][k] - xs[0][k]) * Bi(1, j);
    auto dot = [&](int i, int j) { return F[0][i] * F[0][j] + F[1][i] * F[1][j] + F[2][i] * F[2][j]; };
    const J9 psi = density(dot(0, 0), dot(0, 1), dot(1, 1));
    if (!std::isfinite(psi.v)) return HUGE_VAL;
    if (grad) *grad = weight * psi.g;
    if (hess) {
      *hess = weight * psi.H;
      if (out.project_psd) project_psd(*hess);
    }
    return weight * psi.v;
  });
}

double ShellMembrane::element_energy(const VecX& x, int t, double* grad) const {
  const double weight = thickness_ * area_[t];
  Eigen::Matrix<double, 3, 2> Ds;
  for (int a = 0; a < 2; ++a) Ds.col(a) = x.segment<3>(triangles_(t, a + 1) * 3) - x.segment<3>(triangles_(t, 0) * 3);
  const Eigen::Matrix<double, 3, 2> F = Ds * rest_inverse_[t];
  const Mat2 C = F.transpose() * F;
  if (model_ == "neo_hookean" && !(C.determinant() > 0)) return HUGE_VAL;
  if (!grad) return weight * density(C(0, 0), C(0, 1), C(1, 1));
  // dPsi/dC by forward mode over the three metric entries, then dC/dx by hand: cheaper than
  // the 9-variable jets of evaluate(), which also carry a Hessian.
  using J3 = Jet<3>;
  const J3 psi = density(J3::variable(C(0, 0), 0), J3::variable(C(0, 1), 1), J3::variable(C(1, 1), 2));
  // dPsi/dF = F (S + S^T) with S = [[dC00, dC01/2], [dC01/2, dC11]] (C symmetric, c01 counted once).
  Mat2 S;
  S << psi.g[0], 0.5 * psi.g[1], 0.5 * psi.g[1], psi.g[2];
  const Eigen::Matrix<double, 3, 2> dF = 2.0 * weight * F * S;
  const Eigen::Matrix<double, 3, 2> dDs = dF * rest_inverse_[t].transpose();
  for (int k = 0; k < 3; ++k) {
    grad[3 + k] = dDs(k, 0);
    grad[6 + k] = dDs(k, 1);
    grad[k] = -dDs(k, 0) - dDs(k, 1);
  }
  return weight * psi.v;
}

VecX ShellMembrane::element_energy_density(const EvalContext&, const VecX& x) const {
  VecX d(triangles_.rows());
  for (int t = 0; t < triangles_.rows(); ++t) {
    Eigen::Matrix<double, 3, 2> Ds;
    for (int a = 0; a < 2; ++a) Ds.col(a) = x.segment<3>(triangles_(t, a + 1) * 3) - x.segment<3>(triangles_(t, 0) * 3);
    const Eigen::Matrix<double, 3, 2> F = Ds * rest_inverse_[t];
    const Mat2 C = F.transpose() * F;
    d[t] = density(C(0, 0), C(0, 1), C(1, 1));
  }
  return d;
}

}  // namespace softsim
