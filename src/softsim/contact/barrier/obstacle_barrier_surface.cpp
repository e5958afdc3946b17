// The part of the analytic obstacle barrier that keeps the body's faces and edges out of the
// obstacle, not only its vertices (obstacle_barrier.hpp, obstacle_features.hpp): the pairs of
// the obstacle's feature points and edges with the body's faces and edges, their barrier and
// their continuous collision detection.
#include <algorithm>
#include <cmath>
#include <limits>

#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/barrier/edge_edge_mollifier.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/contact/stencil/stencil_assembly.hpp"

namespace softsim {

namespace {

// IPC's mollifier threshold (Li et al. 2020, eq. 17) from the two edges' squared rest lengths.
constexpr double kMollifierScale = 1e-3;

}  // namespace

void ObstacleBarrier::set_surface(const MatXi& faces, const MatXi& edges, const VecX& rest_positions) {
  features_ = obstacle_features(obstacle_, dim_);
  faces_.resize(0, 3);
  edges_.resize(0, 2);
  face_weight_.clear();
  edge_weight_.clear();
  edge_in_face_.clear();
  edge_rest_length2_.clear();
  if (features_.empty()) return;
  // A primitive's weight: the mean of its vertices' (dhat times contact area); none when a
  // vertex has none (not a collision vertex, a pose vertex, a position-based run).
  auto weight_of = [&](const MatXi& cells, Eigen::Index row) {
    double sum = 0.0;
    for (Eigen::Index a = 0; a < cells.cols(); ++a) {
      const int v = cells(row, a);
      if (v < 0 || v >= static_cast<int>(weights_.size()) || !(weights_[static_cast<std::size_t>(v)] > 0.0)) return 0.0;
      sum += weights_[static_cast<std::size_t>(v)];
    }
    return sum / static_cast<double>(cells.cols());
  };
  std::vector<Eigen::Index> kept;
  if (dim_ == 3) {
    for (Eigen::Index f = 0; f < faces.rows(); ++f)
      if (weight_of(faces, f) > 0.0) kept.push_back(f);
    faces_.resize(static_cast<Eigen::Index>(kept.size()), 3);
    for (std::size_t k = 0; k < kept.size(); ++k) {
      faces_.row(static_cast<Eigen::Index>(k)) = faces.row(kept[k]);
      face_weight_.push_back(weight_of(faces, kept[k]));
    }
  }
  kept.clear();
  for (Eigen::Index e = 0; e < edges.rows(); ++e)
    if (weight_of(edges, e) > 0.0) kept.push_back(e);
  edges_.resize(static_cast<Eigen::Index>(kept.size()), 2);
  for (std::size_t k = 0; k < kept.size(); ++k) {
    const Eigen::Index e = kept[k];
    edges_.row(static_cast<Eigen::Index>(k)) = edges.row(e);
    edge_weight_.push_back(weight_of(edges, e));
    const int u = edges(e, 0), v = edges(e, 1);
    edge_rest_length2_.push_back(
        (rest_positions.segment(static_cast<Eigen::Index>(u) * dim_, dim_) -
         rest_positions.segment(static_cast<Eigen::Index>(v) * dim_, dim_)).squaredNorm());
  }
  edge_in_face_ = edges_of_faces(faces_, edges_);
}

void ObstacleBarrier::feature_positions(const VecX& x, VertexRows& V) const {
  const Eigen::Index n = x.size() / dim_, m = features_.points.rows();
  V.resize(n + m, dim_);
  V.topRows(n) = Eigen::Map<const VertexRows>(x.data(), n, dim_);
  for (Eigen::Index k = 0; k < m; ++k) {
    V.row(n + k) = features_.points.row(k);
    if (pose_ >= 0)
      for (int c = 0; c < dim_; ++c) V(n + k, c) += x[static_cast<Eigen::Index>(pose_) * dim_ + c] - obstacle_.point[c];
  }
}

void ObstacleBarrier::feature_pairs(const VertexRows& V, const std::vector<double>& motion, double reach,
                                    std::vector<FeaturePair>& out) const {
  out.clear();
  const int n = static_cast<int>(V.rows() - features_.points.rows());
  const int m = static_cast<int>(features_.points.rows());
  // The vertices' signed distances, computed as the primitives ask for them.
  std::vector<double> vertex_distance(static_cast<std::size_t>(n), std::numeric_limits<double>::quiet_NaN());
  auto distance_at = [&](int v) {
    double& d = vertex_distance[static_cast<std::size_t>(v)];
    if (std::isnan(d)) {
      VecUpTo3 p = V.row(v).transpose();
      if (pose_ >= 0) p += obstacle_.point.head(dim_) - V.row(pose_).transpose();
      d = signed_distance(p, nullptr, nullptr);
    }
    return d;
  };
  auto motion_of = [&](int v) { return motion.empty() ? 0.0 : motion[static_cast<std::size_t>(v)]; };
  // Whether a primitive (its vertices' rows) can come within reach: no point of it is nearer the
  // obstacle than its nearest vertex less its extent (the distance is 1-Lipschitz), less its motion.
  Eigen::Matrix<double, 3, 1> lo, hi;
  auto near = [&](const int* ids, int k) {
    double nearest = std::numeric_limits<double>::infinity(), extent = 0.0, moved = 0.0;
    for (int a = 0; a < k; ++a) {
      nearest = std::min(nearest, distance_at(ids[a]));
      moved = std::max(moved, motion_of(ids[a]));
      for (int b = a + 1; b < k; ++b) extent = std::max(extent, (V.row(ids[a]) - V.row(ids[b])).norm());
    }
    if (nearest - extent - moved >= reach) return false;
    // Its box, grown by what may close the gap to a feature.
    const double grow = reach + features_.separation + moved;
    for (int c = 0; c < dim_; ++c) {
      lo[c] = V(ids[0], c);
      hi[c] = V(ids[0], c);
      for (int a = 1; a < k; ++a) {
        lo[c] = std::min(lo[c], V(ids[a], c));
        hi[c] = std::max(hi[c], V(ids[a], c));
      }
      lo[c] -= grow;
      hi[c] += grow;
    }
    return true;
  };
  auto point_in_box = [&](int row) {
    for (int c = 0; c < dim_; ++c)
      if (V(row, c) < lo[c] || V(row, c) > hi[c]) return false;
    return true;
  };
  auto edge_meets_box = [&](int r0, int r1) {
    for (int c = 0; c < dim_; ++c)
      if (std::max(V(r0, c), V(r1, c)) < lo[c] || std::min(V(r0, c), V(r1, c)) > hi[c]) return false;
    return true;
  };
  for (Eigen::Index f = 0; f < faces_.rows(); ++f) {
    const int ids[3] = {faces_(f, 0), faces_(f, 1), faces_(f, 2)};
    if (!near(ids, 3)) continue;
    for (int k = 0; k < m; ++k)
      if (point_in_box(n + k))
        out.push_back({ContactStencil::point_triangle(n + k, ids[0], ids[1], ids[2]),
                       face_weight_[static_cast<std::size_t>(f)], features_.separation});
  }
  for (Eigen::Index e = 0; e < edges_.rows(); ++e) {
    const int ids[2] = {edges_(e, 0), edges_(e, 1)};
    const bool points = dim_ == 2 || !edge_in_face_[static_cast<std::size_t>(e)];
    if ((!points && features_.edges.rows() == 0) || !near(ids, 2)) continue;
    const double w = edge_weight_[static_cast<std::size_t>(e)];
    if (points)
      for (int k = 0; k < m; ++k)
        if (point_in_box(n + k)) out.push_back({ContactStencil::point_edge(n + k, ids[0], ids[1]), w, features_.separation});
    for (Eigen::Index g = 0; g < features_.edges.rows(); ++g) {
      const int r0 = n + features_.edges(g, 0), r1 = n + features_.edges(g, 1);
      if (edge_meets_box(r0, r1))
        out.push_back({ContactStencil::edge_edge(r0, r1, ids[0], ids[1]), w, 0.0,
                       kMollifierScale * (V.row(r1) - V.row(r0)).squaredNorm() *
                           edge_rest_length2_[static_cast<std::size_t>(e)]});
    }
  }
}

double ObstacleBarrier::pair_distance(const FeaturePair& pair, const VertexRows& V) const {
  return std::sqrt(distance_squared(pair.stencil, V)) - pair.separation;
}

ContactStencil ObstacleBarrier::scatter_stencil(const ContactStencil& s, int num_vertices) const {
  ContactStencil out = s;
  if (pose_ < 0) return out;
  for (int a = 0; a < s.num_vertices; ++a)
    if (out.ids[static_cast<std::size_t>(a)] >= num_vertices) out.ids[static_cast<std::size_t>(a)] = pose_;
  return out;
}

double ObstacleBarrier::feature_barrier(const VecX& x, const AssemblyOutputs& out) const {
  if (!has_surface_pairs()) return 0.0;
  const int n = static_cast<int>(x.size() / dim_);
  VertexRows V;
  feature_positions(x, V);
  std::vector<FeaturePair> pairs;
  feature_pairs(V, {}, dhat_, pairs);
  if (pairs.empty()) return 0.0;
  const bool derivatives = out.gradient || out.dynamic_hessian;
  const bool project = out.dynamic_hessian && out.project_psd;
  std::vector<ContactStencilTerm> terms;
  evaluate_stencils(pairs.size(), terms, [&](std::size_t i, ContactStencilTerm& t) {
    const FeaturePair& pair = pairs[i];
    const ContactStencil& st = pair.stencil;
    const DistanceDerivatives<12> s = derivatives ? distance_squared_derivatives(st, V) : DistanceDerivatives<12>{};
    const double s_value = derivatives ? s.value : distance_squared(st, V);
    const double root = std::sqrt(s_value), d = root - pair.separation;
    t.grad.setZero();
    t.hess.setZero();
    if (d >= dhat_) {
      t.active = false;
      t.value = 0.0;
      return;
    }
    if (d <= 0.0) {
      t.value = std::numeric_limits<double>::infinity();
      return;
    }
    // b(d) with d = sqrt(s) - separation: db/ds = b'/(2 sqrt s), d2b/ds2 = b''/(4 s) - b'/(4 s sqrt s).
    const double b1 = book_barrier_first_derivative(d, dhat_, kappa_);
    BarrierValue b;
    b.value = book_barrier(d, dhat_, kappa_);
    b.first = b1 / (2.0 * root);
    b.second = book_barrier_second_derivative(d, dhat_, kappa_) / (4.0 * s_value) - b1 / (4.0 * s_value * root);
    if (!derivatives) {
      t.value = pair.weight * b.value;
      if (st.kind == StencilKind::edge_edge) {
        auto at = [&](int a) { return stencil_vertex<3>(st, V, a); };
        t.value *= edge_edge_mollifier_value(at(0), at(1), at(2), at(3), pair.mollifier_threshold);
      }
      return;
    }
    const auto bar = compose_barrier(b, s);
    if (st.kind == StencilKind::edge_edge) {
      auto at = [&](int a) { return stencil_vertex<3>(st, V, a); };
      // A box edge against a body edge: IPC's mollified edge-edge barrier m b (Li et al. 2020, eq. 16).
      const auto mol = edge_edge_mollifier(at(0), at(1), at(2), at(3), pair.mollifier_threshold);
      t.value = mol.value * bar.value;
      t.grad = mol.value * bar.grad + bar.value * mol.grad;
      t.hess = mol.value * bar.hess + mol.grad * bar.grad.transpose() + bar.grad * mol.grad.transpose() +
               bar.value * mol.hess;
    } else {
      t.value = bar.value;
      t.grad = bar.grad;
      t.hess = bar.hess;
    }
    t.value *= pair.weight;
    t.grad *= pair.weight;
    t.hess *= pair.weight;
    // Distances depend on differences of positions only (the feature rows included).
    if (project) project_relative_stencil_hessian(t, st.num_vertices, dim_);
  });
  if (!derivatives) {
    double total = 0.0;
    for (const auto& t : terms) {
      if (!t.active) continue;
      if (!std::isfinite(t.value)) return std::numeric_limits<double>::infinity();
      total += out.weight * t.value;
    }
    return total;
  }
  std::vector<ContactStencil> scattered(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) scattered[i] = scatter_stencil(pairs[i].stencil, n);
  return scatter_stencils(terms, [&](std::size_t i) -> const ContactStencil& { return scattered[i]; }, dim_, n,
                          out.weight, out);
}

double ObstacleBarrier::feature_step(const VecX& x, const VecX& p) const {
  if (!has_surface_pairs()) return 1.0;
  const int n = static_cast<int>(x.size() / dim_);
  VertexRows V0, V1;
  feature_positions(x, V0);
  const VecX x1 = x + p;
  feature_positions(x1, V1);
  // How far each vertex moves relative to the obstacle over the step.
  std::vector<double> motion(static_cast<std::size_t>(n), 0.0);
  for (int i = 0; i < n; ++i) {
    double sq = 0.0;
    for (int c = 0; c < dim_; ++c) {
      double step = p[static_cast<Eigen::Index>(i) * dim_ + c];
      if (pose_ >= 0) step -= p[static_cast<Eigen::Index>(pose_) * dim_ + c];
      sq += step * step;
    }
    motion[static_cast<std::size_t>(i)] = std::sqrt(sq);
  }
  std::vector<FeaturePair> pairs;
  feature_pairs(V0, motion, 0.0, pairs);
  double alpha = 1.0;
  for (const FeaturePair& pair : pairs) {
    const ContactStencil& st = pair.stencil;
    if (st.kind == StencilKind::point_edge && dim_ == 3) {
      // A sphere's centre or a box corner against an edge of no face (a rod): no point of the
      // edge closes its gap faster than the fastest of its two vertices moves (relative to the
      // obstacle), so 0.9 of the gap over that speed is safe.
      const double moved = std::max(motion[static_cast<std::size_t>(st.ids[1])], motion[static_cast<std::size_t>(st.ids[2])]);
      if (moved > 0.0) alpha = std::min(alpha, 0.9 * std::max(pair_distance(pair, V0), 0.0) / moved);
      continue;
    }
    AccdOptions options;
    options.min_separation = pair.separation;
    options.stop_time = alpha;
    const CcdResult impact = time_of_impact(st, V0, V1, options);
    if (impact.collides) alpha = std::min(alpha, impact.toi);
  }
  return std::max(alpha, 0.0);
}

double ObstacleBarrier::feature_min_distance(const VecX& x, double below) const {
  if (!has_surface_pairs()) return std::numeric_limits<double>::infinity();
  VertexRows V;
  feature_positions(x, V);
  std::vector<FeaturePair> pairs;
  feature_pairs(V, {}, below, pairs);
  double dmin = std::numeric_limits<double>::infinity();
  for (const FeaturePair& pair : pairs) dmin = std::min(dmin, pair_distance(pair, V));
  return dmin;
}

}  // namespace softsim
