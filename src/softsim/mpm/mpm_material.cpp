#include "softsim/mpm/mpm_material.hpp"

#include <algorithm>
#include <cmath>

#include "softsim/material/svd.hpp"

namespace softsim {

double MpmMaterial::wave_speed() const { return std::sqrt((lambda() + 2.0 * mu()) / density); }

double MpmMaterial::hardening_scale(double log_plastic_volume) const {
  return plasticity == MpmPlasticity::snow ? std::exp(hardening * (1.0 - std::exp(log_plastic_volume))) : 1.0;
}

template <int D>
MatD<D> mpm_stress(const MpmMaterial& m, const MatD<D>& F, double log_plastic_volume) {
  const RotationVariantSvd<D> svd = rotation_variant_svd<D>(F);
  const double scale = m.hardening_scale(log_plastic_volume);
  const double mu = scale * m.mu(), lambda = scale * m.lambda();
  VecD<D> p;  // principal stresses: P = U diag(p) V^T
  if (m.elasticity == MpmElasticity::fixed_corotated) {
    const double J = svd.sigma.prod();
    for (int i = 0; i < D; ++i) {
      double others = 1.0;  // J / sigma_i without dividing: the cofactor's singular value
      for (int j = 0; j < D; ++j)
        if (j != i) others *= svd.sigma[j];
      p[i] = 2.0 * mu * (svd.sigma[i] - 1.0) + lambda * (J - 1.0) * others;
    }
  } else {
    // Hencky strain ln(sigma); an inverted or crushed particle is held at a small positive
    // stretch, where the log is defined and its stress pushes back.
    VecD<D> s, ln_s;
    for (int i = 0; i < D; ++i) {
      s[i] = std::max(svd.sigma[i], 1e-6);
      ln_s[i] = std::log(s[i]);
    }
    const double trace = ln_s.sum();
    for (int i = 0; i < D; ++i) p[i] = (2.0 * mu * ln_s[i] + lambda * trace) / s[i];
  }
  return svd.U * p.asDiagonal() * svd.V.transpose();
}

template <int D>
MatD<D> mpm_return_mapping(const MpmMaterial& m, const MatD<D>& F_trial, double& log_volume_correction,
                           double& plastic_strain) {
  if (m.plasticity == MpmPlasticity::none) return F_trial;
  const RotationVariantSvd<D> svd = rotation_variant_svd<D>(F_trial);
  const double mu = m.mu(), lambda = m.lambda();
  VecD<D> eps;
  if (m.plasticity == MpmPlasticity::snow) {
    // Stomakhin et al. 2013, eq. 10-11: clamp the stretches; what is cut off is plastic.
    VecD<D> clamped;
    for (int i = 0; i < D; ++i)
      clamped[i] = std::clamp(svd.sigma[i], 1.0 - m.critical_compression, 1.0 + m.critical_stretch);
    const VecD<D> change = (clamped.array().log() - svd.sigma.array().abs().max(1e-12).log()).matrix();
    if (change.norm() == 0.0) return F_trial;
    plastic_strain += change.norm();
    log_volume_correction -= change.sum();
    return svd.U * clamped.asDiagonal() * svd.V.transpose();
  }
  if (m.plasticity == MpmPlasticity::von_mises) {
    for (int i = 0; i < D; ++i) eps[i] = std::log(std::max(std::abs(svd.sigma[i]), 1e-6));
    const VecD<D> dev = eps - VecD<D>::Constant(eps.sum() / D);
    const double norm = dev.norm();
    // Hencky: dev tau = 2 mu dev eps, so the cylinder has radius sqrt(2/3) yield / (2 mu).
    const double excess = norm - std::sqrt(2.0 / 3.0) * m.yield_stress / (2.0 * mu);
    if (excess <= 0.0) return F_trial;
    eps -= excess * dev / norm;
    plastic_strain += excess;
  } else {
    // Drucker-Prager (Klar et al. 2016, Algorithm 2) on eps = ln(sigma) shifted by the volume
    // the particle lost to earlier projections (Tampubolon et al. 2017), so that sand that was
    // compressed and then released does not gain volume.
    const double sin_phi = std::sin(m.friction_angle * M_PI / 180.0);
    const double alpha = std::sqrt(2.0 / 3.0) * 2.0 * sin_phi / (3.0 - sin_phi);
    VecD<D> eps_trial;
    for (int i = 0; i < D; ++i) eps_trial[i] = std::log(std::max(std::abs(svd.sigma[i]), 0.05));
    eps = eps_trial + VecD<D>::Constant(log_volume_correction / D);
    const double trace = eps.sum();
    const VecD<D> dev = eps - VecD<D>::Constant(trace / D);
    const double norm = dev.norm();
    if (trace >= 0.0) {  // separating: the cone's tip, no stress
      eps.setZero();
    } else {
      const double dgamma = norm + (D * lambda + 2.0 * mu) / (2.0 * mu) * trace * alpha;
      if (dgamma > 0.0) eps -= dgamma * dev / (norm + 1e-8);
    }
    // The strain this step removed from (or, releasing the volume correction, added to) F_E.
    plastic_strain += (eps - eps_trial).norm();
    const VecD<D> s_new = eps.array().exp().matrix();
    log_volume_correction += std::log(std::max(std::abs(svd.sigma.prod()), 1e-12)) - eps.sum();
    return svd.U * s_new.asDiagonal() * svd.V.transpose();
  }
  const VecD<D> s_new = eps.array().exp().matrix();
  return svd.U * s_new.asDiagonal() * svd.V.transpose();
}

template MatD<2> mpm_stress<2>(const MpmMaterial&, const MatD<2>&, double);
template MatD<3> mpm_stress<3>(const MpmMaterial&, const MatD<3>&, double);
template MatD<2> mpm_return_mapping<2>(const MpmMaterial&, const MatD<2>&, double&, double&);
template MatD<3> mpm_return_mapping<3>(const MpmMaterial&, const MatD<3>&, double&, double&);

}  // namespace softsim
