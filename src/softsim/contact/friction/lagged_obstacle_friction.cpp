#include "softsim/contact/friction/lagged_obstacle_friction.hpp"

#include "softsim/contact/barrier/barrier.hpp"

namespace softsim {

LaggedObstacleFriction::LaggedObstacleFriction(const ObstacleBarrier* barrier, int dim,
                                               std::vector<double> vertex_weights, double dhat, double kappa,
                                               const FrictionOptions& options)
    : barrier_(barrier), dim_(dim), weights_(std::move(vertex_weights)), dhat_(dhat), kappa_(kappa),
      options_(options) {}

void LaggedObstacleFriction::freeze(const VecX& x) {
  contacts_.clear();
  if (!options_.any()) return;
  VecX grad;
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    const double d = barrier_->signed_distance(x.segment(i * dim_, dim_), &grad, nullptr);
    if (!(d > 0.0) || d >= dhat_ || grad.norm() == 0.0) continue;
    FrictionContact c;
    c.kind = FrictionContactKind::point_plane;
    c.num_vertices = 1;
    c.ids = {static_cast<int>(i), -1, -1, -1};
    c.weights = {1.0, 0.0, 0.0, 0.0};
    const VecX n = grad.normalized();
    c.T = MatX::Identity(dim_, dim_) - n * n.transpose();
    c.distance_squared = d * d;
    c.lambda = -weights_[i] * book_barrier_first_derivative(d, dhat_, kappa_);
    c.mu = options_.mu_between_groups(options_.group_of(static_cast<int>(i)), options_.obstacle_group);
    if (c.lambda > 0.0 && c.mu > 0.0) contacts_.push_back(c);
  }
}

void LaggedObstacleFriction::begin_step(const VecX& x_start) {
  x_start_ = x_start;
  reference_positions_ = as_rows(x_start, dim_);
  eps_ = options_.eps_v * h_;
  fixed_point_iteration_ = 1;
  freeze(x_start);
}

void LaggedObstacleFriction::set_stage_velocity(const VecX& reference, double scale) {
  if (!(scale > 0.0) || contacts_.empty()) return;
  reference_positions_ = as_rows(reference, dim_);
  eps_ = options_.eps_v / scale;
}

bool LaggedObstacleFriction::stiffen_if_unmet(const VecX& x) {
  if (!options_.any() || fixed_point_iteration_ >= options_.iterations) return false;
  ++fixed_point_iteration_;
  freeze(x);
  return true;
}

double LaggedObstacleFriction::evaluate(const VecX& x, const AssemblyOutputs& out) const {
  if (contacts_.empty() || !(h_ > 0.0) || x_start_.size() != x.size()) return 0.0;
  const int n = static_cast<int>(x.size()) / dim_;
  return assemble_friction(contacts_, as_rows(x, dim_), reference_positions_, options_.smoothing, eps_, n, out);
}

}  // namespace softsim
