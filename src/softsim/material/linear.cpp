// Linear (small-strain) elasticity; also the math of corotated linear elasticity.
#include "softsim/core/psd_projection.hpp"
#include "softsim/material/models.hpp"

namespace softsim {

template <int D>
LinearMaterial<D>::LinearMaterial(const LameParameters& lame) : lame_(lame) {
  // C_{(rc),(kl)} = mu (d_rk d_cl + d_rl d_ck) + lambda d_rc d_kl, column-major vec index r + c D.
  tangent_.setZero();
  for (int c = 0; c < D; ++c)
    for (int r = 0; r < D; ++r)
      for (int l = 0; l < D; ++l)
        for (int k = 0; k < D; ++k) {
          double v = 0.0;
          if (r == k && c == l) v += lame.mu;
          if (r == l && c == k) v += lame.mu;
          if (r == c && k == l) v += lame.lambda;
          tangent_(r + c * D, k + l * D) = v;
        }
  // Eigenvalues 2 mu (deviatoric), 2 mu + D lambda (volumetric), 0 (rotations): PSD for any
  // physical material, so the projection is normally the identity; computed once regardless.
  tangent_psd_ = tangent_;
  project_psd(tangent_psd_);
}

template <int D>
double LinearMaterial<D>::evaluate(const Mat& F, Mat* P, Mat2nd* dPdF, bool project_psd) const {
  const Mat eps = 0.5 * (F + F.transpose()) - Mat::Identity();
  const double tr = eps.trace();
  if (P) *P = 2.0 * lame_.mu * eps + lame_.lambda * tr * Mat::Identity();
  if (dPdF) *dPdF = project_psd ? tangent_psd_ : tangent_;
  return lame_.mu * eps.squaredNorm() + 0.5 * lame_.lambda * tr * tr;
}

template class LinearMaterial<2>;
template class LinearMaterial<3>;

}  // namespace softsim
