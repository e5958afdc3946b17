#include "softsim/contact/barrier/obstacle_barrier.hpp"

#include <cmath>
#include <limits>

namespace softsim {

ObstacleBarrier::ObstacleBarrier(int dim, AnalyticObstacle obstacle, std::vector<double> vertex_weights, double dhat,
                                 double kappa)
    : dim_(dim), obstacle_(std::move(obstacle)), weights_(std::move(vertex_weights)), dhat_(dhat), kappa_(kappa) {}

namespace {

// The signed distance (analytic_obstacle.hpp) with its exact gradient and Hessian by forward mode.
template <int D>
double signed_distance_jet(const AnalyticObstacle& o, const VecX& p, VecX* grad, MatX* hess) {
  if (!grad && !hess) return analytic_signed_distance<double, D>(o, p.head<D>());
  Eigen::Matrix<Jet<D>, D, 1> x;
  for (int k = 0; k < D; ++k) x[k] = Jet<D>::variable(p[k], k);
  const Jet<D> d = analytic_signed_distance<Jet<D>, D>(o, x);
  if (grad) *grad = d.g;
  if (hess) *hess = d.H;
  return d.v;
}

}  // namespace

double ObstacleBarrier::signed_distance(const VecX& p, VecX* grad, MatX* hess) const {
  return dim_ == 3 ? signed_distance_jet<3>(obstacle_, p, grad, hess) : signed_distance_jet<2>(obstacle_, p, grad, hess);
}

double ObstacleBarrier::min_contact_distance(const VecX& x, const ModelData*) const {
  double dmin = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < weights_.size(); ++i)
    dmin = std::min(dmin, signed_distance(x.segment(i * dim_, dim_), nullptr, nullptr));
  return dmin;
}

std::vector<std::pair<int, double>> ObstacleBarrier::active_contacts(const VecX& x) const {
  std::vector<std::pair<int, double>> contacts;
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    const double d = signed_distance(x.segment(i * dim_, dim_), nullptr, nullptr);
    if (d < dhat_) contacts.emplace_back(static_cast<int>(i), d);
  }
  return contacts;
}

double ObstacleBarrier::evaluate(const EvalContext&, const VecX& x, const AssemblyOutputs& out) const {
  double total = 0.0;
  VecX grad_d;
  MatX hess_d;
  // Each vertex touches only its own diagonal block: a plain loop is race-free and deterministic.
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    const double d = signed_distance(x.segment(i * dim_, dim_), &grad_d, &hess_d);
    if (d >= dhat_) continue;
    if (d <= 0.0) return std::numeric_limits<double>::infinity();
    const double w = weights_[i] * out.weight;
    const double s = d / dhat_;
    total += w * 0.5 * kappa_ * (s - 1.0) * std::log(s);
    const double db = 0.5 * kappa_ * (std::log(s) / dhat_ + (s - 1.0) / d);  // b'(d) <= 0
    if (out.gradient) out.gradient->segment(i * dim_, dim_) += w * db * grad_d;
    if (out.hessian) {
      const double d2b = kappa_ * (d + dhat_) / (2.0 * d * d * dhat_);
      // b'' grad grad^T is PSD; b' Hess d is not (b' < 0, Hess d >= 0 for convex shapes): drop it
      // when projecting, as a per-vertex PSD projection would.
      MatX H = d2b * grad_d * grad_d.transpose();
      if (!out.project_psd) H += db * hess_d;
      for (int c = 0; c < dim_; ++c)
        for (int r = 0; r < dim_; ++r)
          out.hessian->valuePtr()[layout_->diagonal_index(static_cast<int>(i) * dim_ + c) - c + r] += w * H(r, c);
    }
  }
  return total;
}

double ObstacleBarrier::max_step_fraction(const EvalContext&, const VecX& x, const VecX& p) const {
  double alpha = 1.0;
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    const VecX pi = p.segment(i * dim_, dim_);
    const double approach =
        obstacle_.shape == AnalyticObstacle::Shape::Plane ? -obstacle_.normal.dot(pi) : pi.norm();
    if (approach <= 0.0) continue;
    const double d = signed_distance(x.segment(i * dim_, dim_), nullptr, nullptr);
    alpha = std::min(alpha, 0.9 * d / approach);
  }
  return std::max(alpha, 0.0);
}

}  // namespace softsim
