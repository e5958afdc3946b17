// The 2D neo-Hookean tangent from invariants (see the header for the formulas).
#include "softsim/material/neo_hookean_tangent_2d.hpp"

#include <cmath>

namespace softsim {

bool neo_hookean_tangent_2d(const Mat2& F, const LameParameters& lame, bool project_psd,
                            Eigen::Matrix4d& dPdF) {
  const double mu = lame.mu;
  const double lambda = lame.lambda;
  const double J = F(0, 0) * F(1, 1) - F(0, 1) * F(1, 0);
  if (!(J > 0.0)) return false;
  const double a = lambda * std::log(J) - mu;
  const double inv_J = 1.0 / J;
  const double twist = mu + a * inv_J;
  if (project_psd) {
    const double flip = mu - a * inv_J;
    const double Ic_over_J2 = F.squaredNorm() * inv_J * inv_J;
    const double trace = 2.0 * mu + (lambda - a) * Ic_over_J2;
    const double det = mu * mu + mu * (lambda - a) * Ic_over_J2 + a * (a - 2.0 * lambda) * inv_J * inv_J;
    if (flip < 0.0 || trace < 0.0 || det < 0.0) return false;
  }
  // vec G, column-major: G = [[F11, -F10], [-F01, F00]].
  const Eigen::Vector4d g(F(1, 1), -F(0, 1), -F(1, 0), F(0, 0));
  dPdF.noalias() = ((lambda - a) * inv_J * inv_J) * g * g.transpose();
  dPdF.diagonal().array() += mu;
  // dG/dF: +1 at (0, 3) and (3, 0), -1 at (1, 2) and (2, 1).
  const double aJ = a * inv_J;
  dPdF(0, 3) += aJ;
  dPdF(3, 0) += aJ;
  dPdF(1, 2) -= aJ;
  dPdF(2, 1) -= aJ;
  if (project_psd && twist < 0.0) {
    // R = [[c, -s], [s, c]] from the rotation-like part of F (non-zero for J > 0); the twist
    // mode vec(E R)/sqrt2 = (s, -c, c, s)/sqrt2.
    const double c = F(0, 0) + F(1, 1);
    const double s = F(1, 0) - F(0, 1);
    const double scale = 1.0 / std::sqrt(c * c + s * s);
    const Eigen::Vector4d w = (scale / std::sqrt(2.0)) * Eigen::Vector4d(s, -c, c, s);
    dPdF.noalias() -= twist * w * w.transpose();
  }
  return true;
}

}  // namespace softsim
