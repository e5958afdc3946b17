#include "softsim/integrate/damping_analysis.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "softsim/integrate/generalized_alpha.hpp"

namespace softsim {

std::vector<std::string> damping_method_names() {
  std::vector<std::string> names = names_of<IntegratorType>();
  names.erase(std::find(names.begin(), names.end(), name_of(IntegratorType::static_equilibrium)));
  // Position-based steps have no amplification matrix of their own: converged, an XPBD substep is
  // backward Euler's; unconverged, it depends on the sweeps and the mesh.
  for (IntegratorType t : {IntegratorType::xpbd, IntegratorType::pbd})
    names.erase(std::find(names.begin(), names.end(), name_of(t)));
  return names;
}

namespace {

using Mat2 = Eigen::Matrix2d;

// DIRK stage on the linear system u' = A u: u_s = (I - k A)^{-1} U.
Mat2 stage(const Mat2& A, double k) { return (Mat2::Identity() - k * A).inverse(); }

MatX alpha_matrix(const AlphaParameters& p, double z) {
  // h = 1, omega = z; unknowns (q1, v1, a1): L u1 = R u0.
  const double w2 = z * z, am = p.alpha_m, af = p.alpha_f, b = p.beta, g = p.gamma;
  Eigen::Matrix3d L, R;
  L << 1, 0, -b, 0, 1, -g, (1 - af) * w2, 0, (1 - am);
  R << 1, 1, 0.5 - b, 0, 1, 1 - g, -af * w2, 0, -am;
  return L.inverse() * R;
}

// exp(k A) for A = [[0, 1], [-omega^2, 0]] (h = 1, omega = z): the exact flow over k steps.
Mat2 exact_flow(double z, double k) {
  Mat2 E;
  E << std::cos(k * z), std::sin(k * z) / z, -z * std::sin(k * z), std::cos(k * z);
  return E;
}

// (u1, u0) -> (u2, u1) for u2 = P u1 + Q u0.
MatX two_step(const Mat2& P, const Mat2& Q) {
  MatX B = MatX::Zero(4, 4);
  B.block<2, 2>(0, 0) = P;
  B.block<2, 2>(0, 2) = Q;
  B.block<2, 2>(2, 0) = Mat2::Identity();
  return B;
}

}  // namespace

MatX amplification_matrix(const DampingMethod& method, double z) {
  // Time unit h = 1, so omega = z. A = [[0, 1], [-omega^2, 0]] for u = (q, v).
  Mat2 A;
  A << 0, 1, -z * z, 0;
  const Mat2 I = Mat2::Identity();
  using T = IntegratorType;
  switch (method.type) {
    case T::forward_euler: return I + A;
    case T::symplectic_euler: {
      Mat2 S;
      S << 1 - z * z, 1, -z * z, 1;
      return S;
    }
    case T::backward_euler: return stage(A, 1.0);
    case T::trapezoidal: return stage(A, 0.5) * (I + 0.5 * A);
    case T::tr_bdf2: {
      const Mat2 half = stage(A, 0.25) * (I + 0.25 * A);
      return stage(A, 1.0 / 3.0) * ((4.0 * half - I) / 3.0);
    }
    case T::sdirk2: {
      const double gamma = 2.0 - std::sqrt(2.0), beta = std::sqrt(2.0) / 4.0, c = 2.0 * beta / gamma;
      const Mat2 first = stage(A, 0.5 * gamma) * (I + 0.5 * gamma * A);
      return stage(A, 0.5 * gamma) * (I + c * (first - I));
    }
    case T::implicit_midpoint: return 2.0 * stage(A, 0.5) - I;
    case T::bdf2: {
      // (u1, u0) -> (u2, u1): u2 = (I - 2/3 A)^{-1} (4 u1 - u0) / 3.
      const Mat2 S = stage(A, 2.0 / 3.0);
      return two_step(S * (4.0 / 3.0), S * (-1.0 / 3.0));
    }
    // On u' = A u, h phi_1(h A) F(u) = (e^{hA} - I) u.
    case T::ere: return exact_flow(z, 1.0);
    case T::siere:
    case T::beere: return method.in_subspace ? exact_flow(z, 1.0) : stage(A, 1.0);
    case T::bdf2ere:
    case T::sbdf2ere:
      if (!method.in_subspace) return amplification_matrix(DampingMethod{T::bdf2}, z);
      if (method.history == SubspaceHistory::complement) return exact_flow(z, 1.0);
      // As printed (eqs. 22-23 with H = 0): u2 = (4 u1 - u0)/3 + 2/3 (e^A - I) u1.
      return two_step((4.0 * I + 2.0 * (exact_flow(z, 1.0) - I)) / 3.0, -I / 3.0);
    case T::str_sbdf2ere: {
      const Mat2 half = stage(A, 0.25) * (I + 0.25 * A);  // eq. 27a, all modes
      if (!method.in_subspace) return stage(A, 1.0 / 3.0) * ((4.0 * half - I) / 3.0);
      // complement: the subspace mode flows exactly from u_1/2 over h/2; as printed (eqs. 27b-c
      // with H = 0): u1 = u1/2 + (u1/2 - u0)/3 + 2/3 (e^{A/2} - I) u1/2.
      if (method.history == SubspaceHistory::complement) return exact_flow(z, 0.5) * half;
      return (4.0 * half - I) / 3.0 + 2.0 / 3.0 * (exact_flow(z, 0.5) - I) * half;
    }
    case T::modal: return exact_flow(z, 1.0);  // the linear flow, in closed form
    case T::newmark: return alpha_matrix(AlphaParameters::newmark(method.beta, method.gamma), z);
    case T::generalized_alpha: return alpha_matrix(AlphaParameters::chung_hulbert(method.rho_inf), z);
    case T::static_equilibrium:
    case T::xpbd:
    case T::pbd: break;
  }
  throw std::invalid_argument(std::string("no damping analysis for '") + name_of(method.type) + "'");
}

double spectral_radius(const MatX& T) {
  Eigen::EigenSolver<MatX> solver(T, false);
  return solver.eigenvalues().cwiseAbs().maxCoeff();
}

double damping_ratio(const DampingMethod& method, double z) {
  return -2.0 * std::log(spectral_radius(amplification_matrix(method, z))) / z + 0.0;  // no "-0"
}

double scalar_backward_euler(double z) { return 1.0 / (1.0 - z); }
double scalar_trapezoidal_stage(double z, double c) { return (1.0 + 0.5 * c * z) / (1.0 - 0.5 * c * z); }
double scalar_tr_bdf2(double z) {
  const double half = scalar_trapezoidal_stage(z, 0.5);
  return (4.0 * half - 1.0) / 3.0 / (1.0 - z / 3.0);
}
double scalar_sdirk2(double z) {
  const double gamma = 2.0 - std::sqrt(2.0), beta = std::sqrt(2.0) / 4.0;
  const double first = scalar_trapezoidal_stage(z, gamma);
  return (1.0 + 2.0 * beta / gamma * (first - 1.0)) / (1.0 - 0.5 * gamma * z);
}
double scalar_bdf2(double z, double u0, double u_minus1) { return (4.0 * u0 - u_minus1) / (3.0 - 2.0 * z); }

}  // namespace softsim
