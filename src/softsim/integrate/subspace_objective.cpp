#include "softsim/integrate/subspace_objective.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "softsim/integrate/reduced_incremental_potential.hpp"
#include "softsim/solve/newton_options.hpp"
#include "softsim/solve/projected_newton.hpp"

namespace softsim {

SubspaceObjective::SubspaceObjective(Objective& positions_objective, const SubspaceMap& map)
    : full_(positions_objective), map_(map), pull_back_(map) {
  SparseMat ones = full_.hessian_pattern();
  std::fill(ones.valuePtr(), ones.valuePtr() + ones.nonZeros(), 1.0);
  pattern_ = pull_back_.apply(ones);  // analyses the pattern the first Hessians will have
  std::fill(pattern_.valuePtr(), pattern_.valuePtr() + pattern_.nonZeros(), 0.0);
}

double SubspaceObjective::evaluate(const VecX& y, VecX* gradient, SparseMat* hessian, bool project_psd) {
  const VecX x = map_.positions(y);
  has_hessian_ = hessian != nullptr;
  const double E = full_.evaluate(x, gradient ? &gradient_x_ : nullptr, hessian ? &hessian_x_ : nullptr, project_psd);
  if (gradient) *gradient = map_.pull_back(gradient_x_);
  if (hessian) {
    *hessian = pull_back_.apply(hessian_x_);
    pulled_back_ = *hessian;
  }
  return E;
}

double SubspaceObjective::max_step_fraction(const VecX& y, const VecX& p) {
  return full_.max_step_fraction(map_.positions(y), map_.to_positions(p));
}

namespace {

// exp(W) of a skew 2 x 2 or 3 x 3 matrix (Rodrigues: W^2 = -theta^2 I in 2D, so one formula).
template <int D>
Eigen::Matrix<double, D, D> skew_exponential(const Eigen::Matrix<double, D, D>& W) {
  using Mat = Eigen::Matrix<double, D, D>;
  const Mat W2 = W * W;
  const double theta = std::sqrt(std::max(0.0, -0.5 * W2.trace()));
  // sin(t)/t and (1 - cos t)/t^2 by their series below 1e-4 (cancellation otherwise).
  const double a = theta < 1e-4 ? 1.0 - theta * theta / 6.0 : std::sin(theta) / theta;
  const double b = theta < 1e-4 ? 0.5 - theta * theta / 24.0 : (1.0 - std::cos(theta)) / (theta * theta);
  return Mat::Identity() + a * W + b * W2;
}

template <int D>
void turn_frames(const std::vector<int>& frames, const VecX& y, const VecX& p, double alpha, VecX& y_trial) {
  using Mat = Eigen::Matrix<double, D, D>;
  for (int first : frames) {
    // The coordinates are t, then A column by column (SubspaceMapBuilder::add_group).
    const Eigen::Map<const Mat> A(y.data() + first + D), dA(p.data() + first + D);
    const Eigen::FullPivLU<Mat> lu(A);
    if (!lu.isInvertible()) continue;  // a flattened frame: the straight step stays
    const Mat M = dA * lu.inverse();
    const Mat W = 0.5 * (M - M.transpose()), S = 0.5 * (M + M.transpose());
    Eigen::Map<Mat>(y_trial.data() + first + D) = skew_exponential<D>(alpha * W) * (Mat::Identity() + alpha * S) * A;
  }
}

}  // namespace

void SubspaceObjective::trial_point(const VecX& y, const VecX& p, double alpha, VecX& y_trial) {
  y_trial = y + alpha * p;
  if (map_.turning_frames.empty()) return;
  if (map_.dim == 2)
    turn_frames<2>(map_.turning_frames, y, p, alpha, y_trial);
  else
    turn_frames<3>(map_.turning_frames, y, p, alpha, y_trial);
}

void SubspaceObjective::reduce(VecX& gradient, SparseMat* hessian) const {
  // Eliminate in positions, then pull back (the gradient passed in is B^T of the last one).
  VecX g = gradient_x_;
  if (hessian && has_hessian_ && !full_.reduce_changes_hessian()) {
    full_.reduce(g, nullptr);  // nothing eliminated: no copy of the positions Hessian to compare
    *hessian = pulled_back_;
  } else if (hessian && has_hessian_) {
    reduced_x_ = hessian_x_;
    full_.reduce(g, &reduced_x_);
    const bool unchanged = reduced_x_.nonZeros() == hessian_x_.nonZeros() &&
                           std::equal(reduced_x_.valuePtr(), reduced_x_.valuePtr() + reduced_x_.nonZeros(),
                                      hessian_x_.valuePtr());
    *hessian = unchanged ? pulled_back_ : pull_back_.apply(reduced_x_);
  } else {
    full_.reduce(g, nullptr);
  }
  gradient = map_.pull_back(g);
}

void SubspaceObjective::expand(VecX& step) const {
  VecX u = map_.to_positions(step);
  full_.expand(u);
  step = map_.to_coordinates(u);
}

std::function<void(const VecX& p, VecX& out)> SubspaceObjective::hessian_operator(const VecX& y) {
  auto full = full_.hessian_operator(map_.positions(y));
  if (!full) return {};
  return [this, full](const VecX& p, VecX& out) {
    VecX product;
    full(map_.to_positions(p), product);
    out = map_.pull_back(product);
  };
}

void SubspaceObjective::rank_one_hessian(const VecX& y, std::vector<RankOneHessian>& out) {
  full_.rank_one_hessian(map_.positions(y), out);
  for (RankOneHessian& term : out) term.u = map_.pull_back(term.u);
}

double SubspaceObjective::step_norm(const VecX& p, int vertex_l1_dim) const {
  return newton_step_norm(map_.to_positions(p), vertex_l1_dim);
}

std::unique_ptr<SubspaceObjective> make_subspace_objective(IncrementalPotential& positions_objective,
                                                           const Model& model) {
  if (model.subspace.empty()) return nullptr;
  if (reduced_evaluation_obstacle(model).empty())
    return std::make_unique<ReducedIncrementalPotential>(positions_objective, model);
  return std::make_unique<SubspaceObjective>(positions_objective, model.subspace);
}

NewtonResult projected_newton_on_positions(Objective& positions_objective, SubspaceObjective* subspace, VecX& x,
                                           LinearSolver& solver, const NewtonOptions& options,
                                           std::vector<double>* history, NewtonWorkspace* workspace) {
  if (!subspace) return projected_newton(positions_objective, x, solver, options, history, workspace);
  VecX y = subspace->map().coordinates(x);
  const NewtonResult result = projected_newton(*subspace, y, solver, options, history, workspace);
  x = subspace->map().positions(y);
  return result;
}

}  // namespace softsim
