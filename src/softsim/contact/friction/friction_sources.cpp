#include <Eigen/Geometry>

#include "softsim/contact/barrier/barrier.hpp"
#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/contact/friction/friction_source.hpp"
#include "softsim/contact/penalty/cubic_penalty.hpp"
#include "softsim/contact/penalty/penalty_contact.hpp"

namespace softsim {

namespace {

// The stencil's positions as a flat array (vertex-major), for the scalar-generic frames.
std::array<double, 12> gather(const ContactStencil& s, const VertexRows& V) {
  std::array<double, 12> x{};
  const int dim = static_cast<int>(V.cols());
  for (int a = 0; a < s.num_vertices; ++a)
    for (int r = 0; r < dim; ++r) x[a * dim + r] = V(s.ids[a], r);
  return x;
}

// Friction of a source whose frames are one template on the scalar: frame<S> of the derived
// class serves both the double and the Dual entry point.
template <class Derived>
class FrameSource : public FrictionSource {
 public:
  FrictionFrame<double> frame(const EvalContext& ctx, const FrictionContact& c, const double* xs) const override {
    return static_cast<const Derived&>(*this).template frame_on<double>(ctx, c, xs);
  }
  FrictionFrame<Dual> frame(const EvalContext& ctx, const FrictionContact& c, const Dual* xs) const override {
    return static_cast<const Derived&>(*this).template frame_on<Dual>(ctx, c, xs);
  }
};

class IpcFrictionSource : public FrameSource<IpcFrictionSource> {
 public:
  IpcFrictionSource(const IpcContact& contact, const FrictionOptions& options) : contact_(contact), options_(options) {}
  const Energy& contact_term() const override { return contact_; }
  void positions(const VecX& x, VertexRows& out) const override { contact_.collision_mesh().positions(x, out); }
  int num_dof_vertices() const override { return contact_.collision_mesh().num_dof_vertices; }

  std::vector<FrictionContact> contacts(const EvalContext& ctx, const VecX& x) const override {
    const CollisionMesh& mesh = contact_.collision_mesh();
    const double reach = contact_.options().dhat + contact_.options().thickness;
    const VertexRows V = mesh.positions(x);
    std::vector<FrictionContact> contacts;
    for (FrictionContact& c : classify_friction_contacts(mesh, V, contact_.contact_candidates(ctx, x))) {
      if (!(c.distance_squared < reach * reach && c.distance_squared > 0.0)) continue;
      c.mu = options_.mu_between_vertices(c.stencil.ids[0], c.stencil.ids[c.stencil.num_vertices - 1]);
      if (!(c.mu > 0.0)) continue;
      c.lambda = frame_on<double>(ctx, c, gather(c.stencil, V).data()).lambda;
      if (c.lambda > 0.0) contacts.push_back(std::move(c));
    }
    return contacts;
  }

  // Weights and basis of the stencil (frame.hpp), lambda from the barrier of the squared distance
  // s of the closest points: lambda = -db/dd = -2 sqrt(s) db/ds.
  template <class S>
  FrictionFrame<S> frame_on(const EvalContext& ctx, const FrictionContact& c, const S* x) const {
    const int dim = contact_.collision_mesh().dim;
    FrictionFrame<S> f = stencil_frame<S>(c.stencil.kind, x, dim);
    const S s = closest_points_distance_squared(f, x, dim);
    // lambda(s) = -2 sqrt(s) b'(s), lambda'(s) = -(b'(s) / sqrt(s) + 2 sqrt(s) b''(s)).
    const double sv = value_of(s), root = std::sqrt(sv);
    const BarrierValue b = contact_.barrier_of(sv, c.stencil);
    const double kappa = contact_.stiffness(ctx.data);
    f.lambda = chain_scalar(s, -2.0 * kappa * root * b.first, -kappa * (b.first / root + 2.0 * root * b.second));
    return f;
  }

 private:
  const IpcContact& contact_;
  FrictionOptions options_;
};

class ObstacleFrictionSource : public FrameSource<ObstacleFrictionSource> {
 public:
  ObstacleFrictionSource(const ObstacleBarrier& barrier, int dim, std::vector<double> weights, double dhat,
                         double kappa, const FrictionOptions& options)
      : barrier_(barrier), dim_(dim), weights_(std::move(weights)), dhat_(dhat), kappa_(kappa), options_(options) {}
  const Energy& contact_term() const override { return barrier_; }
  // The model's vertices, then the obstacle's feature points at its pose (no DOFs).
  void positions(const VecX& x, VertexRows& out) const override {
    if (barrier_.has_surface_pairs()) barrier_.feature_positions(x, out);
    else out = as_rows(x, dim_);
  }
  int num_dof_vertices() const override { return static_cast<int>(weights_.size()); }

  std::vector<FrictionContact> contacts(const EvalContext& ctx, const VecX& x) const override {
    std::vector<FrictionContact> contacts;
    VecUpTo3 grad, relative;
    const int pose = barrier_.pose_vertex();
    VertexRows V;  // gathered from once, not copied per contact
    positions(x, V);
    for (std::size_t i = 0; i < weights_.size(); ++i) {
      if (!(weights_[i] > 0.0) || static_cast<int>(i) == pose) continue;
      barrier_.relative_position(x, static_cast<int>(i), relative);
      const double d = barrier_.signed_distance(relative, &grad, nullptr);
      if (!(d > 0.0) || d >= dhat_ || grad.norm() == 0.0) continue;
      FrictionContact c;
      c.stencil = ContactStencil::point_obstacle(static_cast<int>(i), 0);
      if (pose >= 0) {  // a moving obstacle: friction on the velocity relative to its pose
        c.stencil.num_vertices = 2;
        c.stencil.ids[1] = pose;
      }
      c.mu = options_.mu_between_groups(options_.group_of(static_cast<int>(i)), options_.obstacle_group);
      if (!(c.mu > 0.0)) continue;
      c.set_frame(frame_on<double>(ctx, c, gather(c.stencil, V).data()));
      c.distance_squared = d * d;
      if (c.lambda > 0.0) contacts.push_back(std::move(c));
    }
    // The obstacle's features against faces and edges (a face resting on a sphere between its
    // vertices): IPC's frames of the pairs reduced to their closest features, the normal force of
    // the pair's barrier. The feature points carry no DOFs: a moving obstacle's pose feels no
    // friction reaction from these contacts.
    if (!barrier_.has_surface_pairs()) return contacts;
    std::vector<ObstacleBarrier::FeaturePair> pairs;
    barrier_.feature_pairs(V, {}, dhat_, pairs);
    const int n = num_dof_vertices();
    for (const auto& pair : pairs) {
      FrictionContact c = friction_contact(closest_features(pair.stencil, V), V);
      const double d = std::sqrt(c.distance_squared) - pair.separation;
      if (!(d > 0.0) || d >= dhat_) continue;
      int body_vertex = -1;
      for (int a = 0; a < c.stencil.num_vertices && body_vertex < 0; ++a)
        if (c.stencil.ids[static_cast<std::size_t>(a)] < n) body_vertex = c.stencil.ids[static_cast<std::size_t>(a)];
      if (body_vertex < 0) continue;
      c.mu = options_.mu_between_groups(options_.group_of(body_vertex), options_.obstacle_group);
      if (!(c.mu > 0.0)) continue;
      c.barrier_weight = pair.weight;
      c.lambda = frame_on<double>(ctx, c, gather(c.stencil, V).data()).lambda;
      if (c.lambda > 0.0) contacts.push_back(std::move(c));
    }
    return contacts;
  }

  // B = I - n n^T, n = grad d, lambda = -w b'(d) (the barrier of Li & Jiang 2025). On Duals the derivatives
  // follow from d's gradient and Hessian: dd = n . dx, with x the vertex relative to a moving
  // obstacle's pose (weights 1, -1 on the vertex and the pose).
  template <class S>
  FrictionFrame<S> frame_on(const EvalContext&, const FrictionContact& c, const S* x) const {
    if (c.stencil.kind != StencilKind::point_obstacle) {
      // A feature pair: IPC's frame of the stencil, lambda = -w b'(d) with d = sqrt(s) - the
      // obstacle's separation, so dlambda/ds = -w b''(d) / (2 sqrt s).
      FrictionFrame<S> f = stencil_frame<S>(c.stencil.kind, x, dim_);
      const S s = closest_points_distance_squared(f, x, dim_);
      const double root = std::sqrt(value_of(s)), d = root - barrier_.features().separation;
      const double w = c.barrier_weight;
      f.lambda = chain_scalar(s, -w * book_barrier_first_derivative(d, dhat_, kappa_),
                              -w * book_barrier_second_derivative(d, dhat_, kappa_) / (2.0 * root));
      return f;
    }
    const bool moving = c.stencil.num_vertices == 2;
    VecUpTo3 xv(dim_), dx(dim_), grad;
    MatUpTo3 hess;
    for (int r = 0; r < dim_; ++r) {
      xv[r] = value_of(x[r]);
      dx[r] = derivative_of(x[r]);
      if (moving) {
        xv[r] += barrier_.obstacle().point[r] - value_of(x[dim_ + r]);
        dx[r] -= derivative_of(x[dim_ + r]);
      }
    }
    const double d = barrier_.signed_distance(xv, &grad, &hess);
    const double w = weights_[static_cast<std::size_t>(c.stencil.ids[0])];
    FrictionFrame<S> f;
    f.num_vertices = moving ? 2 : 1;
    f.weights = {S(1.0), S(moving ? -1.0 : 0.0), S(0.0), S(0.0)};
    f.basis = tangent_projector<S>(unit_normal_of_distance<S>(grad, hess, dx));
    const S ds = scalar_with_derivative<S>(d, grad.dot(dx) / grad.norm());
    f.lambda = chain_scalar(ds, -w * book_barrier_first_derivative(d, dhat_, kappa_),
                            -w * book_barrier_second_derivative(d, dhat_, kappa_));
    return f;
  }

 private:
  const ObstacleBarrier& barrier_;
  int dim_;
  std::vector<double> weights_;
  double dhat_, kappa_;
  FrictionOptions options_;
};

// The unit vector r / |r|, or the fallback (no derivative) where r vanishes (p on the feature).
template <class S, int D>
FrameVec<S, D> direction_or(const FrameVec<S, D>& r, const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1>& fallback) {
  if (std::sqrt(value_of(r.squaredNorm())) > 1e-14) return normalized_vector<S, D>(r);
  FrameVec<S, D> n;
  for (int k = 0; k < D; ++k) n[k] = S(fallback[k]);
  return n;
}

class PenaltyFrictionSource : public FrameSource<PenaltyFrictionSource> {
 public:
  PenaltyFrictionSource(const PenaltyContact& contact, const FrictionOptions& options)
      : contact_(contact), options_(options) {}
  const Energy& contact_term() const override { return contact_; }
  void positions(const VecX& x, VertexRows& out) const override { contact_.collision_mesh().positions(x, out); }
  int num_dof_vertices() const override { return contact_.collision_mesh().num_dof_vertices; }

  std::vector<FrictionContact> contacts(const EvalContext& ctx, const VecX& x) const override {
    const VertexRows V = contact_.collision_mesh().positions(x);
    std::vector<FrictionContact> contacts;
    for (const PenaltyContactPoint& p : contact_.contacts(ctx, x)) {
      // Friction acts at the vertex contacts; an obstacle's feature against a face or edge
      // (penalty/obstacle_feature_points.hpp) only pushes.
      if (p.feature_of_obstacle >= 0) continue;
      if (!(p.lambda > 0.0) || !p.normal.allFinite() || p.normal.norm() == 0.0) continue;
      FrictionContact c;
      c.stencil = p.stencil;
      c.side = p.side;
      c.normal = p.normal;
      c.mu = options_.mu_of_contact(p.stencil.num_vertices, p.stencil.ids, p.stencil.obstacle);
      if (!(c.mu > 0.0)) continue;
      c.set_frame(frame_on<double>(ctx, c, gather(c.stencil, V).data()));
      c.distance_squared = p.d * p.d;
      contacts.push_back(std::move(c));
    }
    return contacts;
  }

  template <class S>
  FrictionFrame<S> frame_on(const EvalContext& ctx, const FrictionContact& c, const S* x) const {
    return contact_.collision_mesh().dim == 3 ? frame_in<S, 3>(ctx, c, x) : frame_in<S, 2>(ctx, c, x);
  }

 private:
  // lambda = -b'(d(x)) of the cubic penalty; B = I - n n^T with n the normal of the closest
  // feature at x; weights of the closest point on the feature.
  template <class S, int D>
  FrictionFrame<S> frame_in(const EvalContext& ctx, const FrictionContact& c, const S* x) const {
    using V = FrameVec<S, D>;
    const ContactStencil& st = c.stencil;
    std::array<V, 4> X;
    for (int a = 0; a < st.num_vertices; ++a) X[a] = stencil_vertex_of<S, D>(x, a);
    PenaltyContactPoint point;
    point.stencil = st;
    point.side = c.side;
    const PenaltyOptions& o = contact_.options();
    const double kappa = contact_.stiffness(ctx.data);
    const S d = penalty_signed_distance<S, D>(point, X.data(), contact_.obstacles());
    FrictionFrame<S> f;
    f.num_vertices = st.num_vertices;
    f.lambda = chain_scalar(d, penalty_force_magnitude(value_of(d), o.delta, kappa),
                            penalty_force_derivative(value_of(d), o.delta, kappa));
    V n;
    n.fill(S(0.0));  // every case below assigns it; GCC cannot see that through the enum switch
    switch (st.kind) {
      case StencilKind::point_triangle: {
        if constexpr (D == 3) {
          const auto b = point_triangle_coordinates<S>(X[0], X[1], X[2], X[3]);
          f.weights = {S(1.0), b[0] + b[1] - S(1.0), -b[0], -b[1]};
          n = normalized_vector<S, 3>(V(X[2] - X[1]).cross(V(X[3] - X[1])));
        }
        break;
      }
      case StencilKind::point_edge: {
        const S alpha = point_edge_coordinate<S, D>(X[0], X[1], X[2]);
        f.weights = {S(1.0), alpha - S(1.0), -alpha, S(0.0)};
        if constexpr (D == 2) {
          const V e = X[2] - X[1];
          n = normalized_vector<S, 2>(V(e[1], -e[0]));
        } else {
          n = direction_or<S, D>(V(S(c.side) * V(X[0] - X[1] - alpha * (X[2] - X[1]))), c.normal);
        }
        break;
      }
      case StencilKind::point_point:
        f.weights = {S(1.0), S(-1.0), S(0.0), S(0.0)};
        n = direction_or<S, D>(V(S(c.side) * V(X[0] - X[1])), c.normal);
        break;
      case StencilKind::point_obstacle: {
        // n from a second-order evaluation of the obstacle's distance at the value; a moving
        // obstacle's (p, pose) slides on the velocity of p relative to the pose.
        const AnalyticObstacle& o = contact_.obstacles()[static_cast<std::size_t>(st.obstacle)];
        const bool moving = st.num_vertices == 2;
        f.weights = {S(1.0), S(moving ? -1.0 : 0.0), S(0.0), S(0.0)};
        const V r = moving ? V(X[0] - X[1]) : X[0];
        Eigen::Matrix<Jet<D>, D, 1> pj;
        Eigen::Matrix<double, D, 1> dp;
        for (int k = 0; k < D; ++k) {
          pj[k] = Jet<D>::variable(value_of(r[k]) + (moving ? o.point[k] : 0.0), k);
          dp[k] = derivative_of(r[k]);
        }
        const Jet<D> dj = analytic_signed_distance<Jet<D>, D>(o, pj);
        const auto nd = unit_normal_of_distance<S>(dj.g, dj.H, dp);
        for (int k = 0; k < D; ++k) n[k] = nd[k];
        break;
      }
      case StencilKind::edge_edge: break;
    }
    f.basis = tangent_projector<S>(n);
    return f;
  }

  const PenaltyContact& contact_;
  FrictionOptions options_;
};

}  // namespace

std::unique_ptr<FrictionSource> ipc_friction_source(const IpcContact& contact, const FrictionOptions& options) {
  return std::make_unique<IpcFrictionSource>(contact, options);
}

std::unique_ptr<FrictionSource> obstacle_friction_source(const ObstacleBarrier& barrier, int dim,
                                                         std::vector<double> vertex_weights, double dhat,
                                                         double kappa, const FrictionOptions& options) {
  return std::make_unique<ObstacleFrictionSource>(barrier, dim, std::move(vertex_weights), dhat, kappa, options);
}

std::unique_ptr<FrictionSource> penalty_friction_source(const PenaltyContact& contact, const FrictionOptions& options) {
  return std::make_unique<PenaltyFrictionSource>(contact, options);
}

}  // namespace softsim
