#include "softsim/fem/penalty_motion.hpp"

namespace softsim {

PenaltyMotion::PenaltyMotion(int dim, std::vector<int> vertices, std::vector<double> masses, const VecX& velocity,
                             double limit, double kappa, double tolerance)
    : dim_(dim), vertices_(std::move(vertices)), masses_(std::move(masses)), velocity_(velocity), limit_(limit),
      kappa_(kappa), tolerance_(tolerance) {}

void PenaltyMotion::begin_step(const VecX& x_start) {
  // Move the targets by h v while the distance travelled by the end of the step, |v| (t + h), is
  // within the limit. Measured from time, not summed over steps, so a step that is tried again
  // (a step cutback, integrate/subdividing_stepper.hpp) does not count its travel twice.
  const bool moving = velocity_.norm() * (t_ + h_) <= limit_ + 1e-12 * std::max(1.0, limit_);
  fraction_ = 1.0;
  targets_.resize(vertices_.size());
  starts_.resize(vertices_.size());
  for (std::size_t i = 0; i < vertices_.size(); ++i) {
    targets_[i] = x_start.segment(vertices_[i] * dim_, dim_);
    starts_[i] = targets_[i];
    if (moving) targets_[i] += h_ * velocity_;
  }
}

double PenaltyMotion::evaluate(const VecX& x, const AssemblyOutputs& out) const {
  if (targets_.empty()) return 0.0;
  double total = 0.0;
  for (std::size_t i = 0; i < vertices_.size(); ++i) {
    const int v = vertices_[i];
    const VecX r = x.segment(v * dim_, dim_) - target(i);
    const double k = out.weight * kappa_ * masses_[i];
    total += 0.5 * k * r.squaredNorm();
    if (out.gradient) out.gradient->segment(v * dim_, dim_) += k * r;
    if (out.hessian)
      for (int d = 0; d < dim_; ++d) out.hessian->valuePtr()[layout_->diagonal_index(v * dim_ + d)] += k;
  }
  return total;
}

double PenaltyMotion::max_target_error(const VecX& x) const {
  double e = 0.0;
  for (std::size_t i = 0; i < vertices_.size(); ++i)
    e = std::max(e, (x.segment(vertices_[i] * dim_, dim_) - target(i)).norm());
  return e;
}

bool PenaltyMotion::stiffen_if_unmet(const VecX& x) {
  if (targets_.empty() || h_ <= 0.0) return false;
  if (max_target_error(x) / h_ <= tolerance_) return false;
  kappa_ *= 2.0;
  return true;
}

}  // namespace softsim
