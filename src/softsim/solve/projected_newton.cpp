#include "softsim/solve/projected_newton.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "softsim/core/debug_output.hpp"
#include "softsim/core/sparsity_pattern.hpp"
#include "softsim/solve/newton_driver.hpp"
#include "softsim/solve/rank_one_update.hpp"
#include "softsim/solve/solver_timing.hpp"

namespace softsim {

namespace {

// Energy changes below this fraction of |E| are taken as unresolvable round-off: E sums terms
// (inertia, gravity work, elastic energy) much larger than its change near the solution.
constexpr double kEnergyRoundoff = 1e-10;

class ProjectedNewton : public NewtonVariant {
 public:
  // Works in `workspace`: the Hessian takes the objective's pattern unless it has exactly that
  // pattern already (a copy reuses its storage); the vectors are sized. What the last solve left
  // in them is overwritten before it is read.
  ProjectedNewton(Objective& objective, LinearSolver& solver, const NewtonOptions& options, Eigen::Index n,
                  NewtonWorkspace& workspace)
      : objective_(objective), solver_(solver), options_(options), H_(workspace.hessian), g_(workspace.gradient),
        g_world_(workspace.world_gradient), g_trial_(workspace.trial_gradient), right_side_(workspace.right_side),
        rank_one_(workspace.rank_one), workspace_(workspace) {
    const SparseMat& pattern = objective.hessian_pattern();
    if (!same_sparsity_pattern(H_, pattern)) H_ = pattern;
    g_.resize(n);
    g_world_.resize(n);
    g_trial_.resize(n);
    right_side_.resize(n);
    workspace.bound_step.resize(n);
    workspace.bound_residual.resize(n);
  }

  const char* name() const override { return "projected newton"; }

  bool evaluate(const VecX& x, NewtonResult& result) override {
    rank_one_ready_ = false;
    if (evaluated_at_iterate_) {  // the line search assembled the accepted point (accept)
      evaluated_at_iterate_ = false;
      // Reduced here, not at accept: end_iteration may have changed the eliminated DOFs (a
      // penalty motion holds the vertices that met their targets).
      return reduce_assembled();
    }
    return assemble(x, options_.project_psd, result);
  }
  std::string evaluation_failure() const override { return "non-finite energy or gradient"; }
  double stationarity() const override { return g_.lpNorm<Eigen::Infinity>(); }
  double history_norm() const override { return g_.norm(); }
  double merit() const override { return E_; }

  // H p = -g with H the per-stencil projected Hessian (dense rank-one parts by
  // Sherman-Morrison-Woodbury); the projected Hessian when the unprojected one (project_psd
  // off) cannot be solved; steepest descent when no descent direction comes out.
  Direction direction(const VecX& x, int attempt, VecX& p, NewtonResult& result) override {
    if (attempt > 0) return Direction::none_left;
    if (!rank_one_ready_) objective_.rank_one_hessian(x, rank_one_);
    rank_one_ready_ = false;
    right_side_ = -g_;
    bool ok = factor_and_solve(solver_, H_, rank_one_, right_side_, p, result);
    if (!ok && !options_.project_psd) {
      assemble(x, true, result);
      right_side_ = -g_;
      ok = factor_and_solve(solver_, H_, rank_one_, right_side_, p, result);
    }
    workspace_.factored_by = ok ? &solver_ : nullptr;
    workspace_.factored_size = g_.size();
    if (!ok || p.dot(g_) >= 0.0) p = -g_;
    objective_.expand(p);
    return Direction::found;
  }

  // With H >= lambda I on the free DOFs (the objective's bound: the inertia term's mass where every
  // term's projected Hessian is PSD) and rank-one parts that only add to it, p = -H^-1 g has
  // ||p||_2 <= ||g||_2 / lambda, and a vertex's |p_x| + |p_y| (+ |p_z|) is at most sqrt(dim) times
  // its Euclidean length. That bound is loose by the ratio of the global to the largest vertex's
  // norm when many vertices move alike, so where it is within kRefineWindow of the tolerance it
  // is refined: for any trial q that is zero on the eliminated DOFs, p - q = -H^-1 (g + H q), so
  // ||p|| <= ||q|| + sqrt(dim) ||g + H q||_2 / lambda. q solves with the last factorization (one
  // solve and one product instead of a factorization); the bound holds whatever q is. Where the
  // Hessian changes much between factorizations (friction sticking and slipping, contacts coming
  // and going) the refinement seldom decides, so it is tried while it has recently paid and once
  // in kRefineProbe chances otherwise. The factor 1 + 1e-6 covers the solve's round-off in the p
  // it replaces.
  bool bounded_step_norm(const VecX& x, int vertex_l1_dim, double& bound) override {
    if (!options_.project_psd) return false;
    const double lambda = objective_.hessian_lower_bound();
    if (!(lambda > 0.0)) return false;
    objective_.rank_one_hessian(x, rank_one_);  // direction() uses them if it comes to that
    rank_one_ready_ = true;
    for (const RankOneHessian& part : rank_one_)
      if (part.coefficient < 0.0) return false;
    const double vertex_norm = vertex_l1_dim > 0 ? std::sqrt(double(vertex_l1_dim)) : 1.0;
    const double margin = 1.0 + 1e-6;
    bound = margin * vertex_norm * g_.norm() / lambda;
    if (!std::isfinite(bound)) return false;
    const double limit = options_.tolerance * options_.step_scale;
    if (bound < limit || bound >= kRefineWindow * limit) return true;
    if (workspace_.factored_by != &solver_ || workspace_.factored_size != g_.size() || solver_.iterative()) return true;
    if (workspace_.refine_credit <= 0 && ++workspace_.refine_skipped % kRefineProbe != 0) return true;
    VecX& q = workspace_.bound_step;
    VecX& r = workspace_.bound_residual;
    right_side_ = -g_;
    if (!solver_.solve(right_side_, q) || q.size() != g_.size()) return true;
    for (Eigen::Index i = 0; i < q.size(); ++i)
      if (g_[i] == 0.0) q[i] = 0.0;  // the eliminated DOFs (and any free one it costs nothing to hold)
    r.noalias() = H_ * q;
    r += g_;
    for (const RankOneHessian& part : rank_one_) r += (part.coefficient * part.u.dot(q)) * part.u;
    const double correction = vertex_norm * r.norm() / lambda;
    objective_.expand(q);
    const double refined = margin * (objective_.step_norm(q, vertex_l1_dim) + correction);
    if (std::isfinite(refined)) bound = std::min(bound, refined);
    const bool decided = bound < limit;
    // A success re-opens the refinement at once; failures close it after a few.
    workspace_.refine_credit = decided ? std::min(std::max(workspace_.refine_credit, 0) + 2, 8)
                                       : std::max(workspace_.refine_credit - 1, -1);
    return true;
  }

  // Backtracking from the filters' bound until the Armijo condition holds. Where the predicted
  // decrease is below the energy's round-off, Hager & Zhang's approximate Armijo condition
  // (2005) on the directional derivative decides instead, so full Newton steps keep
  // converging quadratically down to machine precision.
  // Curved trials (Objective::trial_point) are filtered one by one: the filters' fraction of the
  // trial's own displacement scales alpha down until it allows the whole of it.
  // The first trial is evaluated with its gradient and Hessian when the last search accepted its
  // first trial and the solve goes on from the accepted point: one evaluation of E instead of two
  // per iteration where full (or filtered) steps are taken, as on the small scenes of Li & Jiang
  // 2025 (docs/book-cases.md); where first trials keep failing it assembles nothing in vain.
  bool line_search(const VecX& x, const VecX& p, int, bool last, VecX& x_trial, NewtonResult& result) override {
    const PhaseTimer timer;
    const bool straight = objective_.straight_trials();
    const double bound = straight ? std::min(1.0, objective_.max_step_fraction(x, p)) : 1.0;
    double alpha = bound;
    const double slope = g_world_.dot(p);
    bool accepted = false, first_trial = true;
    trial_assembled_ = false;
    for (int b = 0; b < options_.max_backtracks && alpha > 0.0; ++b) {
      objective_.trial_point(x, p, alpha, x_trial);
      if (!straight) {
        displacement_ = x_trial - x;
        const double fraction = objective_.max_step_fraction(x, displacement_);
        if (fraction < 1.0) {
          alpha *= std::clamp(fraction, 0.0, 0.99);
          continue;
        }
      }
      trial_assembled_ = first_trial && assemble_first_trial_ && !last;
      E_trial_ = trial_assembled_ ? objective_.evaluate(x_trial, &g_trial_, &H_, options_.project_psd)
                                  : objective_.evaluate(x_trial, nullptr, nullptr, false);
      const double E_trial = E_trial_;
      if (std::isfinite(E_trial) && E_trial <= E_ + options_.armijo * alpha * std::min(slope, 0.0)) {
        accepted = true;
      } else {
        const double roundoff = kEnergyRoundoff * std::abs(E_);
        accepted = std::isfinite(E_trial) && slope < 0.0 && -alpha * slope <= roundoff && E_trial - E_ <= roundoff &&
                   approximate_armijo(x_trial, p, slope);
      }
      if (accepted) break;
      trial_assembled_ = false;
      first_trial = false;
      alpha *= 0.5;
    }
    assemble_first_trial_ = accepted && first_trial;
    if (debug_) std::fprintf(stderr, "  line search: filters allow %.3g, step taken %.3g\n", bound, accepted ? alpha : 0.0);
    timer.add_to(result.line_search_ms);
    return accepted;
  }

  // The accepted point becomes the iterate; where the search assembled it, its energy, gradient
  // and Hessian are the next iteration's (reduced when it evaluates).
  void accept(const VecX&) override {
    if (!trial_assembled_) return;
    E_ = E_trial_;
    g_world_.swap(g_trial_);
    evaluated_at_iterate_ = true;
  }
  bool end_iteration(const VecX& x) override {
    const bool changed = objective_.end_iteration(x);
    if (changed) evaluated_at_iterate_ = false;  // assembled for the objective as it was
    return changed;
  }
  double step_norm(const VecX& p, int vertex_l1_dim) const override { return objective_.step_norm(p, vertex_l1_dim); }
  bool before_stop(const VecX& x) override {
    if (!objective_.before_stop(x)) return false;
    E_ = objective_.evaluate(x, nullptr, nullptr, false);
    return true;
  }

 private:
  const bool debug_ = newton_debug_enabled();
  // E, the reduced gradient and Hessian at x.
  bool assemble(const VecX& x, bool project_psd, NewtonResult& result) {
    const PhaseTimer timer;
    E_ = objective_.evaluate(x, &g_world_, &H_, project_psd);
    const bool finite = reduce_assembled();
    timer.add_to(result.assembly_ms);
    return finite;
  }
  // The reduced gradient and Hessian from the assembled g_world_ and H_; false when not finite.
  bool reduce_assembled() {
    g_ = g_world_;
    objective_.reduce(g_, &H_);
    return std::isfinite(E_) && g_.allFinite();
  }

  // For phi(alpha) = E(x + alpha p), the Armijo test phi(alpha) - phi(0) <= c alpha phi'(0) on the
  // quadratic model phi(alpha) - phi(0) = alpha (phi'(0) + phi'(alpha)) / 2, which has no
  // cancellation: phi'(alpha) <= (2c - 1) phi'(0).
  bool approximate_armijo(const VecX& x_trial, const VecX& p, double slope) {
    const double E = trial_assembled_ ? E_trial_ : objective_.evaluate(x_trial, &g_trial_, nullptr, false);
    return std::isfinite(E) && g_trial_.dot(p) <= (2.0 * options_.armijo - 1.0) * slope;
  }

  Objective& objective_;
  LinearSolver& solver_;
  const NewtonOptions& options_;
  SparseMat& H_;
  VecX &g_, &g_world_, &g_trial_, &right_side_;
  VecX displacement_;  // a curved trial's x_trial - x
  double E_ = 0.0;
  // The first-trial assembly (line_search): whether the next search makes it, whether the
  // accepted trial had it (E_trial_, g_trial_ and H_ are then its), whether the iterate has it.
  bool assemble_first_trial_ = true, trial_assembled_ = false, evaluated_at_iterate_ = false;
  double E_trial_ = 0.0;
  std::vector<RankOneHessian>& rank_one_;
  NewtonWorkspace& workspace_;
  // Where the gradient's bound is within this factor of the tolerance, the last factorization
  // refines it (bounded_step_norm).
  static constexpr double kRefineWindow = 64.0;
  static constexpr int kRefineProbe = 16;
  bool rank_one_ready_ = false;  // rank_one_ holds the parts at the iterate (bounded_step_norm)
};

}  // namespace

NewtonResult projected_newton(Objective& objective, VecX& x, LinearSolver& solver, const NewtonOptions& options,
                              std::vector<double>* history, NewtonWorkspace* workspace) {
  std::optional<NewtonWorkspace> own;  // made only when none is given (an empty SparseMat allocates)
  if (!workspace) workspace = &own.emplace();
  ProjectedNewton variant(objective, solver, options, x.size(), *workspace);
  return run_newton(variant, x, options, history, workspace);
}

}  // namespace softsim
