#include "softsim/contact/plane_barrier.hpp"

#include <cmath>
#include <limits>

namespace softsim {

PlaneBarrier::PlaneBarrier(int dim, const VecX& point, const VecX& normal, std::vector<double> vertex_weights,
                           double dhat, double kappa)
    : dim_(dim), point_(point), normal_(normal.normalized()), weights_(std::move(vertex_weights)), dhat_(dhat), kappa_(kappa) {}

double PlaneBarrier::min_distance(const VecX& x) const {
  double d = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < weights_.size(); ++i) d = std::min(d, normal_.dot(x.segment(i * dim_, dim_) - point_));
  return d;
}

double PlaneBarrier::evaluate(const VecX& x, const AssemblyOutputs& out) const {
  double total = 0.0;
  // Each vertex touches only its own diagonal block: no races, a plain loop is deterministic.
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    const double d = normal_.dot(x.segment(i * dim_, dim_) - point_);
    if (d >= dhat_) continue;
    if (d <= 0.0) return std::numeric_limits<double>::infinity();
    const double w = weights_[i] * out.weight;
    const double s = d / dhat_;
    total += w * 0.5 * kappa_ * (s - 1.0) * std::log(s);
    if (out.gradient) {
      const double db = 0.5 * kappa_ * (std::log(s) / dhat_ + (s - 1.0) / d);
      out.gradient->segment(i * dim_, dim_) += w * db * normal_;
    }
    if (out.hessian) {
      const double d2b = kappa_ * (d + dhat_) / (2.0 * d * d * dhat_);  // > 0: already PSD
      for (int c = 0; c < dim_; ++c)
        for (int r = 0; r < dim_; ++r)
          out.hessian->valuePtr()[layout_->diagonal_index(static_cast<int>(i) * dim_ + c) - c + r] +=
              w * d2b * normal_[r] * normal_[c];
    }
  }
  return total;
}

double PlaneBarrier::max_step_fraction(const VecX& x, const VecX& p) const {
  double alpha = 1.0;
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    const double approach = -normal_.dot(p.segment(i * dim_, dim_));
    if (approach <= 0.0) continue;
    const double d = normal_.dot(x.segment(i * dim_, dim_) - point_);
    alpha = std::min(alpha, 0.9 * d / approach);
  }
  return std::max(alpha, 0.0);
}

}  // namespace softsim
