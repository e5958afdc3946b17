#include "softsim/integrate/exponential/modal_split.hpp"

#include "softsim/integrate/exponential/phi_dense.hpp"
#include "softsim/solve/inexact_newton.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace softsim {

namespace {
using Clock = std::chrono::steady_clock;
constexpr double kCorrectionTolerance = 1e-10;  // relative residual of the corrected system (iterative solvers)
}  // namespace

ModalSplit::ModalSplit(const SecondOrderSystem& system, const std::string& linear_solver)
    : system_(system), solver_(make_linear_solver(linear_solver, system.size())) {}

bool ModalSplit::prepare(const SparseMat& K, const MatX& X, double c) {
  const Model& model = system_.model();
  K_ = &K;
  X_ = X;
  c_ = c;
  auto t = Clock::now();
  // A is a member: the iterative solvers keep a reference to the matrix they were computed on.
  A_ = (c * c) * K;
  if (system_.has_damping()) A_ += c * system_.damping();
  model.add_mass_to(A_, 1.0);
  model.boundary.reduce_hessian(A_);
  if (!solver_->compute(A_)) return false;
  costs.factorization_ms += ms_since(t);

  t = Clock::now();
  const int s = static_cast<int>(X.cols());
  U_ = model.mass_matrix() * X;
  MatX W = K * X;
  system_.mask_rows(U_);
  system_.mask_rows(W);
  if (s == 0) {
    AY_.resize(system_.size(), 0);
    Z_.resize(system_.size(), 0);
    costs.smw_ms += ms_since(t);
    return true;
  }
  const MatX S = X.transpose() * W;
  MatX DX = MatX::Zero(X.rows(), s);
  if (system_.has_damping()) {
    DX = system_.damping() * X;
    system_.mask_rows(DX);
  }
  // X is zero on fixed rows, so X^T (masked K X) = X^T K X.
  reduced_jacobian_ = MatX::Zero(2 * s, 2 * s);
  reduced_jacobian_.topRightCorner(s, s).setIdentity();
  reduced_jacobian_.bottomLeftCorner(s, s) = -S;
  reduced_jacobian_.bottomRightCorner(s, s) = -(X.transpose() * DX);
  Y_.resize(X.rows(), 2 * s);
  Y_ << U_, W;
  Z_.resize(X.rows(), 2 * s);
  Z_ << -c * DX - (c * c) * W + (c * c) * U_ * S, -(c * c) * U_;
  if (solver_->iterative()) {  // matrix-free products of A + Y Z^T in solve()
    inverse_diagonal_ = A_.diagonal() + (Y_.cwiseProduct(Z_)).rowwise().sum();
    inverse_diagonal_ = inverse_diagonal_.cwiseInverse();
    costs.smw_ms += ms_since(t);
    return true;
  }
  AY_.resize(X.rows(), 2 * s);
  for (int j = 0; j < 2 * s; ++j) {
    VecX y;
    if (!solver_->solve(Y_.col(j), y)) return false;
    system_.mask(y);
    AY_.col(j) = y;
  }
  capacitance_.compute(MatX::Identity(2 * s, 2 * s) + Z_.transpose() * AY_);
  costs.smw_ms += ms_since(t);
  return true;
}

void ModalSplit::subspace_ere(double tau, const VecX& v, const VecX& f, VecX& e_q, VecX& e_v) {
  const auto t = Clock::now();
  const int s = static_cast<int>(X_.cols());
  e_q = VecX::Zero(system_.size());
  e_v = VecX::Zero(system_.size());
  if (s > 0) {
    VecX g(2 * s);
    g << U_.transpose() * system_.masked(v), X_.transpose() * f;
    const VecX y = tau * phi1_times(tau * reduced_jacobian_, g);
    e_q = X_ * y.head(s);
    e_v = X_ * y.tail(s);
  }
  costs.subspace_ms += ms_since(t);
}

void ModalSplit::h_part(const VecX& v, const VecX& f, const VecX& a, VecX& h_q, VecX& h_v) const {
  h_q = system_.masked(v);
  h_v = a;
  if (X_.cols() == 0) return;
  h_q -= X_ * (U_.transpose() * h_q);
  h_v -= X_ * (X_.transpose() * f);
}

void ModalSplit::complement(VecX& w_q, VecX& w_v) const {
  if (X_.cols() == 0) return;
  w_q -= X_ * (U_.transpose() * w_q);
  w_v -= X_ * (U_.transpose() * w_v);
}

bool ModalSplit::solve(const VecX& r_q, const VecX& r_v, VecX& dq, VecX& dv) {
  auto t = Clock::now();
  const Model& model = system_.model();
  // M r_v - c Q^T K r_q, Q^T w = w - U X^T w.
  VecX Kr = (*K_) * r_q;
  system_.mask(Kr);
  if (X_.cols() > 0) Kr -= U_ * (X_.transpose() * Kr);
  VecX rhs = model.mass_matrix() * r_v - c_ * Kr;
  system_.mask(rhs);
  if (!solver_->solve(rhs, dv)) return false;
  system_.mask(dv);
  costs.solve_ms += ms_since(t);
  t = Clock::now();
  VecX Qdv = dv;
  if (X_.cols() > 0) {
    if (solver_->iterative()) {
      // D^-1 (A + Y Z^T) dv = D^-1 rhs from dv = A^-1 rhs.
      const auto apply = [this](const VecX& x, VecX& out) {
        out = inverse_diagonal_.cwiseProduct(A_ * x + Y_ * (Z_.transpose() * x));
      };
      double residual = 0.0;
      costs.correction_iterations +=
          bicgstab(apply, inverse_diagonal_.cwiseProduct(rhs), dv, kCorrectionTolerance, 10000, &residual);
      if (!(residual <= 10.0 * kCorrectionTolerance)) return false;
      system_.mask(dv);
    } else {
      dv -= AY_ * capacitance_.solve(Z_.transpose() * dv);
    }
    Qdv = dv - X_ * (U_.transpose() * dv);
  }
  dq = r_q + c_ * Qdv;
  costs.smw_ms += ms_since(t);
  return dq.allFinite() && dv.allFinite();
}

}  // namespace softsim
