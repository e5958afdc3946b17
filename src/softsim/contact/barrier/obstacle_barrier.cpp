#include "softsim/contact/barrier/obstacle_barrier.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "softsim/core/hessian_layout.hpp"

namespace softsim {

ObstacleBarrier::ObstacleBarrier(int dim, AnalyticObstacle obstacle, std::vector<double> vertex_weights, double dhat,
                                 double kappa, int pose_vertex)
    : dim_(dim), obstacle_(std::move(obstacle)), weights_(std::move(vertex_weights)), dhat_(dhat), kappa_(kappa),
      pose_(pose_vertex) {
  if (pose_ >= 0 && pose_ < static_cast<int>(weights_.size())) weights_[pose_] = 0.0;
  for (std::size_t i = 0; i < weights_.size(); ++i)
    if (weights_[i] > 0.0) weighted_.push_back(static_cast<int>(i));
}

namespace {

// The signed distance (analytic_obstacle.hpp) with its exact gradient and Hessian by forward mode,
// in fixed-size storage (this runs per vertex per evaluation). A plane's distance is linear: its
// gradient is the normal and its Hessian zero, which is what the jets give, at a fraction of
// their cost (a fifth of the book's compressing square went to plane distances by jets).
template <int D>
double signed_distance_jet(const AnalyticObstacle& o, const VecD<D>& p, VecD<D>* grad, MatD<D>* hess) {
  if (!grad && !hess) return analytic_signed_distance<double, D>(o, p);
  if (o.shape == AnalyticObstacle::Shape::Plane) {
    if (grad)
      for (int k = 0; k < D; ++k) (*grad)[k] = o.normal[k];
    if (hess) hess->setZero();
    return analytic_signed_distance<double, D>(o, p);
  }
  Eigen::Matrix<Jet<D>, D, 1> x;
  for (int k = 0; k < D; ++k) x[k] = Jet<D>::variable(p[k], k);
  const Jet<D> d = analytic_signed_distance<Jet<D>, D>(o, x);
  if (grad) *grad = d.g;
  if (hess) *hess = d.H;
  return d.v;
}

}  // namespace

template <int D>
VecD<D> ObstacleBarrier::relative_motion(const VecX& v, int i) const {
  VecD<D> r = v.segment<D>(static_cast<Eigen::Index>(i) * D);
  if (pose_ >= 0) r -= v.segment<D>(static_cast<Eigen::Index>(pose_) * D);
  return r;
}

template <int D>
VecD<D> ObstacleBarrier::relative_point(const VecX& x, int i) const {
  VecD<D> p = relative_motion<D>(x, i);
  if (pose_ >= 0) p += obstacle_.point.head<D>();
  return p;
}

template <int D>
double ObstacleBarrier::distance_of(const VecX& x, int i) const {
  return signed_distance_jet<D>(obstacle_, relative_point<D>(x, i), nullptr, nullptr);
}

double ObstacleBarrier::distance_of_vertex(const VecX& x, int i) const {
  return dim_ == 3 ? distance_of<3>(x, i) : distance_of<2>(x, i);
}

bool ObstacleBarrier::vertex_support(std::vector<int>& vertices) const {
  const std::size_t first = vertices.size();
  vertices.insert(vertices.end(), weighted_.begin(), weighted_.end());
  if (pose_ >= 0) {
    const auto at = std::lower_bound(vertices.begin() + first, vertices.end(), pose_);
    if (at == vertices.end() || *at != pose_) vertices.insert(at, pose_);
  }
  return true;
}

void ObstacleBarrier::declare_stencils(HessianLayout& layout) {
  layout_ = &layout;
  if (pose_ < 0) return;
  MatXi stencils(static_cast<Eigen::Index>(weighted_.size()), 2);
  for (Eigen::Index k = 0; k < stencils.rows(); ++k) stencils.row(k) << weighted_[static_cast<std::size_t>(k)], pose_;
  set_ = layout.add_stencils(stencils);
}

namespace {

template <int D>
double signed_distance_dynamic(const AnalyticObstacle& o, const VecUpTo3& p, VecUpTo3* grad, MatUpTo3* hess) {
  VecD<D> g;
  MatD<D> H;
  const double d = signed_distance_jet<D>(o, p.head<D>(), grad ? &g : nullptr, hess ? &H : nullptr);
  if (grad) *grad = g;
  if (hess) *hess = H;
  return d;
}

}  // namespace

double ObstacleBarrier::signed_distance(const VecUpTo3& p, VecUpTo3* grad, MatUpTo3* hess) const {
  return dim_ == 3 ? signed_distance_dynamic<3>(obstacle_, p, grad, hess)
                   : signed_distance_dynamic<2>(obstacle_, p, grad, hess);
}

void ObstacleBarrier::relative_position(const VecX& x, int i, VecUpTo3& out) const {
  if (dim_ == 3) out = relative_point<3>(x, i);
  else out = relative_point<2>(x, i);
}

double ObstacleBarrier::min_contact_distance(const VecX& x, const ModelData*) const {
  double dmin = std::numeric_limits<double>::infinity();
  for (int i : weighted_) dmin = std::min(dmin, distance_of_vertex(x, i));
  // A face or edge can be nearer than its vertices (obstacle_barrier_surface.cpp).
  return std::min(dmin, feature_min_distance(x, dmin));
}

std::vector<std::pair<int, double>> ObstacleBarrier::active_contacts(const VecX& x) const {
  std::vector<std::pair<int, double>> contacts;
  for (int i : weighted_) {
    const double d = distance_of_vertex(x, i);
    if (d < dhat_) contacts.emplace_back(i, d);
  }
  return contacts;
}

double ObstacleBarrier::evaluate(const EvalContext&, const VecX& x, const AssemblyOutputs& out) const {
  const double vertices = dim_ == 3 ? evaluate_in<3>(x, out) : evaluate_in<2>(x, out);
  if (!std::isfinite(vertices)) return vertices;
  return vertices + feature_barrier(x, out);
}

template <int D>
double ObstacleBarrier::evaluate_in(const VecX& x, const AssemblyOutputs& out) const {
  double total = 0.0;
  VecD<D> grad_d;
  MatD<D> hess_d;
  double* values = out.hessian ? out.hessian->valuePtr() : nullptr;
  // A static obstacle's contacts touch only their own diagonal blocks; a moving one's share the
  // pose vertex. A plain loop is race-free and deterministic either way.
  for (std::size_t k = 0; k < weighted_.size(); ++k) {
    const int i = weighted_[k];
    const double d = signed_distance_jet<D>(obstacle_, relative_point<D>(x, i), &grad_d, &hess_d);
    if (d >= dhat_) continue;
    if (d <= 0.0) return std::numeric_limits<double>::infinity();
    const double w = weights_[static_cast<std::size_t>(i)] * out.weight;
    const double s = d / dhat_;
    total += w * 0.5 * kappa_ * (s - 1.0) * std::log(s);
    const double db = 0.5 * kappa_ * (std::log(s) / dhat_ + (s - 1.0) / d);  // b'(d) <= 0
    if (out.gradient) {
      out.gradient->segment<D>(i * D) += w * db * grad_d;
      if (pose_ >= 0) out.gradient->segment<D>(static_cast<Eigen::Index>(pose_) * D) -= w * db * grad_d;
    }
    if (!values) continue;
    const double d2b = kappa_ * (d + dhat_) / (2.0 * d * d * dhat_);
    // b'' grad grad^T is PSD; b' Hess d is not (b' < 0, Hess d >= 0 for convex shapes): drop it
    // when projecting, as a per-vertex PSD projection would. On the stencil (i, a) the Hessian
    // is [H -H; -H H], PSD exactly when H is.
    MatD<D> H = d2b * grad_d * grad_d.transpose();
    if (!out.project_psd) H += db * hess_d;
    if (pose_ < 0) {
      for (int c = 0; c < D; ++c)
        for (int r = 0; r < D; ++r)
          values[layout_->diagonal_index(i * D + c) - c + r] += w * H(r, c);
      continue;
    }
    const int* starts = layout_->block_starts(set_, static_cast<int>(k));
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        const double sign = a == b ? w : -w;
        for (int c = 0; c < D; ++c)
          for (int r = 0; r < D; ++r) values[starts[(a * 2 + b) * D + c] + r] += sign * H(r, c);
      }
  }
  return total;
}

double ObstacleBarrier::max_step_fraction(const EvalContext&, const VecX& x, const VecX& p) const {
  const double vertices = dim_ == 3 ? max_step_in<3>(x, p) : max_step_in<2>(x, p);
  return std::min(vertices, feature_step(x, p));
}

template <int D>
double ObstacleBarrier::max_step_in(const VecX& x, const VecX& p) const {
  double alpha = 1.0;
  for (int i : weighted_) {
    const VecD<D> step = relative_motion<D>(p, i);
    const double approach =
        obstacle_.shape == AnalyticObstacle::Shape::Plane ? -obstacle_.normal.head<D>().dot(step) : step.norm();
    if (approach <= 0.0) continue;
    const double d = distance_of<D>(x, i);
    alpha = std::min(alpha, 0.9 * d / approach);
  }
  return std::max(alpha, 0.0);
}

}  // namespace softsim
