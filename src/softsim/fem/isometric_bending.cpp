#include "softsim/fem/isometric_bending.hpp"

#include <Eigen/Geometry>

#include <stdexcept>
#include <string>

#include "softsim/core/stencil_assembly.hpp"

namespace softsim {

namespace {

double cotangent(const Vec3& u, const Vec3& v) { return u.dot(v) / u.cross(v).norm(); }

}  // namespace

IsometricBending::IsometricBending(const MatXi& triangles, const MatX& rest, double stiffness)
    : hinges_(interior_hinges(triangles)) {
  const VecX X = flatten_rows(rest);
  for (int h = 0; h < hinges_.rows(); ++h) {
    const Vec3 x0 = X.segment<3>(hinges_(h, 0) * 3), x1 = X.segment<3>(hinges_(h, 1) * 3);
    const Vec3 x2 = X.segment<3>(hinges_(h, 2) * 3), x3 = X.segment<3>(hinges_(h, 3) * 3);
    // Bergou et al. 2006, eq. 7: e0 the edge, e1, e2 from x0 and e3, e4 from x1 to the wings.
    const Vec3 e0 = x1 - x0, e1 = x2 - x0, e2 = x3 - x0, e3 = x2 - x1, e4 = x3 - x1;
    const double c01 = cotangent(e0, e1), c02 = cotangent(e0, e2), c03 = cotangent(-e0, e3), c04 = cotangent(-e0, e4);
    const Eigen::Vector4d K(c03 + c04, c01 + c02, -c01 - c03, -c02 - c04);
    if (!K.allFinite()) throw std::invalid_argument("isometric bending: a degenerate triangle at hinge " + std::to_string(h));
    const Vec3 bend = K[0] * x0 + K[1] * x1 + K[2] * x2 + K[3] * x3;
    if (bend.norm() > 1e-6 * e0.norm())
      throw std::invalid_argument("isometric bending needs a flat rest shape, and the hinge at vertices " +
                                  std::to_string(hinges_(h, 0)) + "-" + std::to_string(hinges_(h, 1)) +
                                  " is bent at rest (use the hinge bending)");
    const double areas = 0.5 * (e0.cross(e1).norm() + e0.cross(e2).norm());
    weights_.push_back(K);
    scale_.push_back(3.0 * stiffness / areas);
  }
}

Vec3 IsometricBending::curvature_vector(const VecX& x, int h) const {
  Vec3 v = Vec3::Zero();
  for (int a = 0; a < 4; ++a) v += weights_[static_cast<std::size_t>(h)][a] * x.segment<3>(hinges_(h, a) * 3);
  return v;
}

double IsometricBending::hinge_energy(const VecX& x, int h, double* grad) const {
  const Vec3 v = curvature_vector(x, h);
  const double s = scale_[static_cast<std::size_t>(h)];
  if (grad)
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) grad[3 * a + c] = 2.0 * s * weights_[static_cast<std::size_t>(h)][a] * v[c];
  return s * v.squaredNorm();
}

void IsometricBending::declare_stencils(HessianLayout& layout) {
  set_ = layout.add_stencils(hinges_);
  layout_ = &layout;
}

double IsometricBending::evaluate(const EvalContext&, const VecX& x, const AssemblyOutputs& out) const {
  return assemble_stencils<4, 3>(*layout_, set_, out, [&](int h, Eigen::Matrix<double, 12, 1>* grad,
                                                          Eigen::Matrix<double, 12, 12>* hess) {
    const double e = hinge_energy(x, h, grad ? grad->data() : nullptr);
    if (hess) {
      // 2 s K K^T (x) I3: constant and positive semi-definite, nothing to project.
      const Eigen::Vector4d& K = weights_[static_cast<std::size_t>(h)];
      const double s = scale_[static_cast<std::size_t>(h)];
      hess->setZero();
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) hess->block<3, 3>(3 * a, 3 * b) = 2.0 * s * K[a] * K[b] * Eigen::Matrix3d::Identity();
    }
    return e;
  });
}

}  // namespace softsim
