#pragma once
// Constitutive models of MPM particles (Li & Jiang 2025, ch. 29-31): elasticity of the elastic
// part F_E of F = F_E F_P, and plasticity as a return mapping that projects a trial F_E back
// onto the yield surface in log-strain (Hencky) space, where both yield criteria below are
// convex cones or cylinders.
#include "softsim/core/types.hpp"

namespace softsim {

enum class MpmElasticity {
  fixed_corotated,  // Stomakhin et al. 2012: P = 2 mu (F - R) + lambda (J - 1) J F^-T
  stvk_hencky,      // P = U (2 mu S^-1 ln S + lambda tr(ln S) S^-1) V^T (Li & Jiang 2025, ch. 30)
};

enum class MpmPlasticity {
  none,
  von_mises,       // |dev tau| <= sqrt(2/3) yield_stress (metals, clay), Hencky strain
  drucker_prager,  // sand: Klar et al. 2016, with Tampubolon et al. 2017's volume correction
  snow,            // Stomakhin et al. 2013: stretches clamped, hardening under compaction
};

struct MpmMaterial {
  MpmElasticity elasticity = MpmElasticity::fixed_corotated;
  MpmPlasticity plasticity = MpmPlasticity::none;
  double youngs_modulus = 1e4;  // Pa
  double poisson_ratio = 0.3;
  double density = 1000.0;      // kg/m^3
  double yield_stress = 0.0;    // von Mises: Kirchhoff stress (Pa)
  double friction_angle = 25.0;  // Drucker-Prager: degrees
  // Snow (Stomakhin et al. 2013, Table 2's defaults): the elastic part's singular values stay in
  // [1 - critical_compression, 1 + critical_stretch]; the rest becomes plastic, and the Lame
  // parameters scale by exp(hardening (1 - J_P)) with J_P the plastic volume change.
  double critical_compression = 2.5e-2;
  double critical_stretch = 7.5e-3;
  double hardening = 10.0;

  // The factor on mu and lambda for a particle whose plasticity has taken ln J_P of its volume
  // (snow's hardening; 1 for every other material).
  double hardening_scale(double log_plastic_volume) const;
  double mu() const { return youngs_modulus / (2.0 * (1.0 + poisson_ratio)); }
  double lambda() const {
    return youngs_modulus * poisson_ratio / ((1.0 + poisson_ratio) * (1.0 - 2.0 * poisson_ratio));
  }
  // The dilational wave speed sqrt((lambda + 2 mu) / rho), for the CFL limit.
  double wave_speed() const;
};

// First Piola-Kirchhoff stress of the elastic deformation F_E, for a particle whose plasticity
// has taken ln J_P of its volume (only snow's hardening reads it).
template <int D>
MatD<D> mpm_stress(const MpmMaterial& material, const MatD<D>& F, double log_plastic_volume = 0.0);

// The return mapping: the elastic deformation after projecting the trial one onto the yield
// surface (F_trial itself when it lies inside or the material has no plasticity).
// plastic_strain accumulates the norm of the Hencky strain each projection changes;
// log_volume_correction accumulates ln J_P, the log of the volume change the projections moved
// from F_E to the plastic part (ln det F_trial - ln det F_E): Drucker-Prager's volume correction
// and snow's hardening variable.
template <int D>
MatD<D> mpm_return_mapping(const MpmMaterial& material, const MatD<D>& F_trial, double& log_volume_correction,
                           double& plastic_strain);

}  // namespace softsim
