#include "softsim/solve/damped_newton.hpp"

#include <cmath>

#include "softsim/solve/residual_newton.hpp"
#include "softsim/solve/rank_one_update.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace softsim {

namespace {

class DampedNewton : public ResidualNewtonVariant {
 public:
  DampedNewton(ResidualProblem& problem, LinearSolver& solver, const NewtonOptions& options, Eigen::Index n)
      : ResidualNewtonVariant(problem, options, n), solver_(solver) {}

  const char* name() const override { return "damped newton"; }

  bool evaluate(const VecX& v, NewtonResult& result) override {
    assembled_any_ = false;
    if (!ResidualNewtonVariant::evaluate(v, result)) return false;
    if (norms_.empty()) norms_.push_back(r_.norm());
    return true;
  }

  // Line 7 of Algorithm 1: p = -J^{-1} r (sparse LU: J need not be symmetric). If the exact
  // Jacobian's direction gives no merit decrease (near-singular J: the IPC barrier's distance
  // Hessian is indefinite), the iteration is tried again with the projected Jacobian (every
  // potential's Hessian PSD-projected per element, forces without a potential exact): a
  // Newton-like step on a better conditioned matrix, as projected Newton takes. After a stall,
  // the projected Jacobian is the only direction for the rest of the solve.
  Direction direction(const VecX& v, int attempt, VecX& p, NewtonResult& result) override {
    if (attempt > (use_projected_ ? 0 : 1)) return Direction::none_left;
    const bool projected = use_projected_ || attempt == 1;
    if (projected && !problem_.has_projected_jacobian()) return Direction::none_left;
    const PhaseTimer timer;
    const bool assembled = projected ? problem_.projected_jacobian(v, J_) : problem_.jacobian(v, J_);
    timer.add_to(result.assembly_ms);
    if (!assembled) return Direction::failed;
    assembled_any_ = true;
    problem_.jacobian_rank_one(v, rank_one_);  // dense parts of J, by Sherman-Morrison-Woodbury
    if (!factor_and_solve(solver_, J_, rank_one_, -r_, p, result) || !p.allFinite()) return Direction::failed;
    problem_.expand(p);
    return Direction::found;
  }

  // Lines 9-10: backtracking on the merit function 1/2 ||r||^2, whose slope along an exact
  // Newton direction is -||r||^2; along the projected one it is only estimated (decrease 0.5).
  bool line_search(const VecX& v, const VecX& p, int attempt, bool, VecX& v_trial, NewtonResult& result) override {
    const bool projected = use_projected_ || attempt == 1;
    return merit_search(v, p, projected ? 0.5 : 1.0, v_trial, result);
  }

  // Stalled: the last kStallWindow iterations took less than 2% off ||r|| in all. Near a
  // (nearly) singular J, exact Newton can cycle for 100 iterations between full steps of ~1 m/s
  // that change ||r|| by 1e-5 relative each (the ball in a box, TR, contact + friction); the
  // projected Jacobian converges there, linearly where the projection is active. Far from the
  // solution a damped phase may also reduce ||r|| slowly, but by more than this (4-5% per
  // iteration in the residual-form convergence test).
  void accept(const VecX& v) override {
    norms_.push_back(r_trial_.norm());
    if (norms_.size() > kStallWindow && norms_.back() > 0.98 * norms_[norms_.size() - 1 - kStallWindow] &&
        problem_.has_projected_jacobian())
      use_projected_ = true;
    ResidualNewtonVariant::accept(v);
  }

  std::string direction_failure() const override {
    return assembled_any_ ? "singular Jacobian" : "Jacobian evaluation failed";
  }

 private:
  static constexpr std::size_t kStallWindow = 5;
  LinearSolver& solver_;
  SparseMat J_;
  std::vector<RankOneHessian> rank_one_;
  bool use_projected_ = false, assembled_any_ = false;
  std::vector<double> norms_;
};

}  // namespace

NewtonResult damped_newton(ResidualProblem& problem, VecX& v, LinearSolver& solver, const NewtonOptions& options,
                           std::vector<double>* history) {
  DampedNewton variant(problem, solver, options, v.size());
  return run_newton(variant, v, options, history);
}

}  // namespace softsim
