#include "softsim/contact/friction/implicit_friction.hpp"

#include <Eigen/Geometry>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/friction/frame.hpp"
#include "softsim/contact/friction/force_kernel.hpp"
#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/penalty/cubic_penalty.hpp"
#include "softsim/contact/penalty/penalty_contact.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {

namespace {

// One contact's stencil: its vertices (global ids; ids >= num_dof_vertices carry no DOFs).
struct Stencil {
  FrictionContactKind kind = FrictionContactKind::point_point;
  int num_vertices = 0;
  std::array<int, 4> ids{-1, -1, -1, -1};
  double mu = 0.0;  // the pair's friction coefficient
  int source = -1;  // index of the contact it came from (penalty contact points)
};

constexpr int kMaxStencilDofs = 12;
using StencilValues = std::array<double, kMaxStencilDofs>;

// The force on each stencil and, per stencil DOF j with a DOF behind it, the derivative of the
// force along (dq_j = 1, dv_j = c): the Jacobian's column j (frame_of(stencil, x) builds the
// frame on the scalar of x). Scatters weight * f and weight * J (triplets), deterministic order.
template <class Rows, class FrameFn>
void assemble_stencil_forces(const std::vector<Stencil>& stencils, const Rows& X, const VecX& v, int dim,
                             int num_dof_vertices, const FrictionOptions& o, double c, double weight, VecX* force,
                             std::vector<Triplet>* jacobian, FrameFn&& frame_of) {
  struct Local {
    StencilValues f{};
    std::array<StencilValues, kMaxStencilDofs> columns{};
  };
  std::vector<Local> local(stencils.size());
  auto has_dofs = [&](int id) { return id < num_dof_vertices; };
  parallel_for(stencils.size(), [&](std::size_t i) {
    const Stencil& s = stencils[i];
    const int n = s.num_vertices * dim;
    std::array<double, kMaxStencilDofs> x{}, vel{};
    for (int a = 0; a < s.num_vertices; ++a)
      for (int r = 0; r < dim; ++r) {
        x[a * dim + r] = X(s.ids[a], r);
        vel[a * dim + r] = has_dofs(s.ids[a]) ? v[s.ids[a] * dim + r] : 0.0;
      }
    Local& l = local[i];
    if (force) {
      const FrictionFrame<double> frame = frame_of(s, x.data());
      friction_force_on_stencil(frame, vel.data(), dim, s.mu, o.smoothing, o.eps_v, l.f.data());
    }
    if (!jacobian) return;
    std::array<Dual, kMaxStencilDofs> xd{}, vd{}, fd{};
    for (int j = 0; j < n; ++j) {
      if (!has_dofs(s.ids[j / dim])) continue;
      for (int k = 0; k < n; ++k) {
        xd[k] = Dual(x[k], k == j ? 1.0 : 0.0);
        vd[k] = Dual(vel[k], k == j ? c : 0.0);
      }
      const FrictionFrame<Dual> frame = frame_of(s, xd.data());
      friction_force_on_stencil(frame, vd.data(), dim, s.mu, o.smoothing, o.eps_v, fd.data());
      for (int k = 0; k < n; ++k) l.columns[j][k] = fd[k].d;
    }
  });
  for (std::size_t i = 0; i < stencils.size(); ++i) {
    const Stencil& s = stencils[i];
    const int n = s.num_vertices * dim;
    for (int k = 0; k < n; ++k) {
      const int row_id = s.ids[k / dim];
      if (!has_dofs(row_id)) continue;
      const int row = row_id * dim + k % dim;
      if (force) (*force)[row] += weight * local[i].f[k];
      if (!jacobian) continue;
      for (int j = 0; j < n; ++j) {
        const int col_id = s.ids[j / dim];
        if (has_dofs(col_id)) jacobian->emplace_back(row, col_id * dim + j % dim, weight * local[i].columns[j][k]);
      }
    }
  }
}

// out += weight * (df/dq + c df/dv) p, one forward-mode pass per stencil.
template <class Rows, class FrameFn>
void stencil_forces_jacobian_times(const std::vector<Stencil>& stencils, const Rows& X, const VecX& v,
                                   const VecX& p, int dim, int num_dof_vertices, const FrictionOptions& o, double c,
                                   double weight, VecX& out, FrameFn&& frame_of) {
  std::vector<StencilValues> local(stencils.size());
  parallel_for(stencils.size(), [&](std::size_t i) {
    const Stencil& s = stencils[i];
    std::array<Dual, kMaxStencilDofs> xd{}, vd{}, fd{};
    for (int a = 0; a < s.num_vertices; ++a) {
      const bool dofs = s.ids[a] < num_dof_vertices;
      for (int r = 0; r < dim; ++r) {
        const double dir = dofs ? p[s.ids[a] * dim + r] : 0.0;
        xd[a * dim + r] = Dual(X(s.ids[a], r), dir);
        vd[a * dim + r] = Dual(dofs ? v[s.ids[a] * dim + r] : 0.0, c * dir);
      }
    }
    const FrictionFrame<Dual> frame = frame_of(s, xd.data());
    friction_force_on_stencil(frame, vd.data(), dim, s.mu, o.smoothing, o.eps_v, fd.data());
    for (int k = 0; k < s.num_vertices * dim; ++k) local[i][k] = fd[k].d;
  });
  for (std::size_t i = 0; i < stencils.size(); ++i) {
    const Stencil& s = stencils[i];
    for (int k = 0; k < s.num_vertices * dim; ++k)
      if (s.ids[k / dim] < num_dof_vertices) out[s.ids[k / dim] * dim + k % dim] += weight * local[i][k];
  }
}

// Assembles (p null) or multiplies by p, as ImplicitFrictionForce::apply asks.
template <class Rows, class FrameFn>
void apply_stencil_forces(const std::vector<Stencil>& stencils, const Rows& X, const VecX& v, const VecX* p, int dim,
                          int num_dof_vertices, const FrictionOptions& o, double c, double weight, VecX* force,
                          std::vector<Triplet>* jacobian, VecX* out, FrameFn&& frame_of) {
  if (p)
    stencil_forces_jacobian_times(stencils, X, v, *p, dim, num_dof_vertices, o, c, weight, *out, frame_of);
  else
    assemble_stencil_forces(stencils, X, v, dim, num_dof_vertices, o, c, weight, force, jacobian, frame_of);
}

template <class S, int D>
FrameVec<S, D> vertex_of(const S* x, int a) {
  return Eigen::Map<const Eigen::Matrix<S, D, 1>>(x + a * D);
}

// Weights and basis of an IPC contact stencil (friction/frame.hpp), lambda from the barrier of
// the squared distance s of the closest points: lambda = -db/dd = -2 sqrt(s) db/ds.
template <class S>
FrictionFrame<S> ipc_frame(const Stencil& st, const S* x, int dim, const IpcContact& contact, double kappa) {
  FrictionFrame<S> f;
  f.num_vertices = st.num_vertices;
  if (dim == 3) {
    switch (st.kind) {
      case FrictionContactKind::point_point:
        f.weights = {S(1.0), S(-1.0), S(0.0), S(0.0)};
        f.basis = point_point_basis<S>(vertex_of<S, 3>(x, 0), vertex_of<S, 3>(x, 1));
        break;
      case FrictionContactKind::point_edge: {
        const S alpha = point_edge_coordinate<S, 3>(vertex_of<S, 3>(x, 0), vertex_of<S, 3>(x, 1), vertex_of<S, 3>(x, 2));
        f.weights = {S(1.0), alpha - S(1.0), -alpha, S(0.0)};
        f.basis = point_edge_basis<S>(vertex_of<S, 3>(x, 0), vertex_of<S, 3>(x, 1), vertex_of<S, 3>(x, 2));
        break;
      }
      case FrictionContactKind::point_triangle: {
        const auto b = point_triangle_coordinates<S>(vertex_of<S, 3>(x, 0), vertex_of<S, 3>(x, 1),
                                                     vertex_of<S, 3>(x, 2), vertex_of<S, 3>(x, 3));
        f.weights = {S(1.0), b[0] + b[1] - S(1.0), -b[0], -b[1]};
        f.basis = plane_basis<S>(vertex_of<S, 3>(x, 2) - vertex_of<S, 3>(x, 1), vertex_of<S, 3>(x, 3) - vertex_of<S, 3>(x, 1));
        break;
      }
      default: {  // edge-edge
        const auto ab = edge_edge_coordinates<S>(vertex_of<S, 3>(x, 0), vertex_of<S, 3>(x, 1), vertex_of<S, 3>(x, 2),
                                                 vertex_of<S, 3>(x, 3));
        f.weights = {S(1.0) - ab[0], ab[0], ab[1] - S(1.0), -ab[1]};
        f.basis = plane_basis<S>(vertex_of<S, 3>(x, 1) - vertex_of<S, 3>(x, 0), vertex_of<S, 3>(x, 3) - vertex_of<S, 3>(x, 2));
        break;
      }
    }
  } else if (st.kind == FrictionContactKind::point_point) {
    f.weights = {S(1.0), S(-1.0), S(0.0), S(0.0)};
    f.basis = point_point_basis<S>(vertex_of<S, 2>(x, 0), vertex_of<S, 2>(x, 1));
  } else {  // 2D point-edge
    const S alpha = point_edge_coordinate<S, 2>(vertex_of<S, 2>(x, 0), vertex_of<S, 2>(x, 1), vertex_of<S, 2>(x, 2));
    f.weights = {S(1.0), alpha - S(1.0), -alpha, S(0.0)};
    f.basis = point_edge_basis<S>(vertex_of<S, 2>(x, 1), vertex_of<S, 2>(x, 2));
  }
  S s(0.0);
  for (int r = 0; r < dim; ++r) {
    S gap(0.0);
    for (int a = 0; a < st.num_vertices; ++a) gap += f.weights[a] * x[a * dim + r];
    s += gap * gap;
  }
  // lambda(s) = -2 sqrt(s) b'(s), lambda'(s) = -(b'(s) / sqrt(s) + 2 sqrt(s) b''(s)).
  const double sv = value_of(s), root = std::sqrt(sv);
  const BarrierValue b = contact.barrier_of(sv);
  f.lambda = chain_scalar(s, -2.0 * kappa * root * b.first, -kappa * (b.first / root + 2.0 * root * b.second));
  return f;
}

}  // namespace

ImplicitFriction::ImplicitFriction(const IpcContact* contact, const FrictionOptions& options)
    : ImplicitFrictionForce(options), contact_(contact) {}

std::vector<const Energy*> ImplicitFriction::reads_data_of() const { return {contact_}; }

std::vector<FrictionContact> ImplicitFriction::contacts_at(const EvalContext& ctx, const VecX& q) const {
  std::vector<FrictionContact> contacts;
  if (!options_.any()) return contacts;
  const CollisionMesh& mesh = contact_->collision_mesh();
  const double reach = contact_->options().dhat + contact_->options().thickness;
  const VertexRows V = mesh.positions(q);
  for (FrictionContact& f : classify_friction_contacts(mesh, V, contact_->contact_candidates(ctx, q))) {
    f.mu = options_.mu_between_vertices(f.ids[0], f.ids[f.num_vertices - 1]);
    if (f.distance_squared < reach * reach && f.distance_squared > 0.0 && f.mu > 0.0) contacts.push_back(std::move(f));
  }
  return contacts;
}

namespace {

std::vector<Stencil> stencils_of(const std::vector<FrictionContact>& contacts) {
  std::vector<Stencil> stencils;
  stencils.reserve(contacts.size());
  for (const FrictionContact& c : contacts) stencils.push_back({c.kind, c.num_vertices, c.ids, c.mu});
  return stencils;
}

}  // namespace

void ImplicitFriction::apply(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX* p,
                             double weight, VecX* force, std::vector<Triplet>* jacobian, VecX* out) const {
  const CollisionMesh& mesh = contact_->collision_mesh();
  const std::vector<Stencil> stencils = stencils_of(contacts_at(ctx, q));
  const int dim = mesh.dim;
  const double kappa = contact_->stiffness(ctx.data);
  apply_stencil_forces(stencils, mesh.positions(q), v, p, dim, mesh.num_dof_vertices, options_, c, weight, force,
                       jacobian, out,
                       [&](const Stencil& s, const auto* x) { return ipc_frame(s, x, dim, *contact_, kappa); });
}

ImplicitObstacleFriction::ImplicitObstacleFriction(const ObstacleBarrier* barrier, int dim,
                                                   std::vector<double> vertex_weights, double dhat, double kappa,
                                                   const FrictionOptions& options)
    : ImplicitFrictionForce(options), barrier_(barrier), dim_(dim), weights_(std::move(vertex_weights)), dhat_(dhat),
      kappa_(kappa) {}

namespace {

// The unit normal n = g / |g| of a distance field with gradient g and Hessian H at p, on the
// scalar of p: on Duals (p' = dp) its derivative is dn = (I - n n^T) H dp / |g|.
template <class S, class Grad, class Hess, class Dir>
Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 3, 1> unit_normal_of_distance(const Grad& g, const Hess& H, const Dir& dp) {
  const double gn = g.norm();
  const VecX n = g / gn;
  const VecX Hdp = H * dp;
  const VecX dn = Hdp / gn - n * (n.dot(Hdp) / gn);
  Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 3, 1> out(n.size());
  for (Eigen::Index k = 0; k < n.size(); ++k) out[k] = scalar_with_derivative<S>(n[k], dn[k]);
  return out;
}

// The tangent projector B = I - n n^T of a unit normal, the friction basis of point-plane
// contacts (its derivative follows by the product rule on Duals).
template <class S, class N>
typename FrictionFrame<S>::Basis tangent_projector(const N& n) {
  const auto dim = n.size();
  typename FrictionFrame<S>::Basis B(dim, dim);
  for (Eigen::Index r = 0; r < dim; ++r)
    for (Eigen::Index k = 0; k < dim; ++k) B(r, k) = S(r == k ? 1.0 : 0.0) - n[r] * n[k];
  return B;
}

// Frame of a vertex against an obstacle with signed distance d: B = I - n n^T, n = grad d,
// lambda = -w b'(d) (the book's barrier). On Duals the derivatives follow from d's gradient and
// Hessian: dd = n . dx.
template <class S>
FrictionFrame<S> obstacle_frame(const S* x, int dim, const ObstacleBarrier& barrier, double weight, double dhat,
                                double kappa) {
  VecX xv(dim), dx(dim), grad;
  MatX hess;
  for (int r = 0; r < dim; ++r) {
    xv[r] = value_of(x[r]);
    dx[r] = derivative_of(x[r]);
  }
  const double d = barrier.signed_distance(xv, &grad, &hess);
  FrictionFrame<S> f;
  f.num_vertices = 1;
  f.weights = {S(1.0), S(0.0), S(0.0), S(0.0)};
  f.basis = tangent_projector<S>(unit_normal_of_distance<S>(grad, hess, dx));
  const S ds = scalar_with_derivative<S>(d, grad.dot(dx) / grad.norm());
  f.lambda = chain_scalar(ds, -weight * book_barrier_first_derivative(d, dhat, kappa),
                          -weight * book_barrier_second_derivative(d, dhat, kappa));
  return f;
}

std::vector<Stencil> vertex_stencils(const std::vector<int>& ids, const FrictionOptions& o) {
  std::vector<Stencil> stencils;
  stencils.reserve(ids.size());
  for (int i : ids) {
    const double mu = o.mu_between_groups(o.group_of(i), o.obstacle_group);
    if (mu > 0.0) stencils.push_back({FrictionContactKind::point_plane, 1, {i, -1, -1, -1}, mu});
  }
  return stencils;
}

}  // namespace

void ImplicitObstacleFriction::apply(const EvalContext&, const VecX& q, const VecX& v, double c, const VecX* p,
                                     double weight, VecX* force, std::vector<Triplet>* jacobian, VecX* out) const {
  std::vector<int> ids;
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    const double d = barrier_->signed_distance(q.segment(i * dim_, dim_), nullptr, nullptr);
    if (d > 0.0 && d < dhat_) ids.push_back(static_cast<int>(i));
  }
  const std::vector<Stencil> stencils = vertex_stencils(ids, options_);
  const int n = static_cast<int>(q.size()) / dim_;
  apply_stencil_forces(stencils, as_rows(q, dim_), v, p, dim_, n, options_, c, weight, force, jacobian, out,
                       [&](const Stencil& s, const auto* x) {
                         return obstacle_frame(x, dim_, *barrier_, weights_[s.ids[0]], dhat_, kappa_);
                       });
}

namespace {

// The unit vector r / |r|, or the fallback (no derivative) where r vanishes (p on the feature).
template <class S, int D>
FrameVec<S, D> direction_or(const FrameVec<S, D>& r, const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1>& fallback) {
  if (std::sqrt(value_of(r.squaredNorm())) > 1e-14) return normalized_vector<S, D>(r);
  FrameVec<S, D> n;
  for (int k = 0; k < D; ++k) n[k] = S(fallback[k]);
  return n;
}

// Frame of a penalty contact point (see friction/implicit_friction.hpp) on the scalar of x.
template <class S, int D>
FrictionFrame<S> penalty_frame(const PenaltyContactPoint& c, const S* x, const PenaltyContact& contact, double kappa) {
  using V = FrameVec<S, D>;
  std::array<V, 4> X;
  for (int a = 0; a < c.num_vertices; ++a) X[a] = vertex_of<S, D>(x, a);
  const PenaltyOptions& o = contact.options();
  const S d = penalty_signed_distance<S, D>(c, X.data(), contact.obstacles());
  FrictionFrame<S> f;
  f.num_vertices = c.num_vertices;
  f.lambda = chain_scalar(d, penalty_force_magnitude(value_of(d), o.delta, kappa),
                          penalty_force_derivative(value_of(d), o.delta, kappa));
  V n;
  n.fill(S(0.0));  // every case below assigns it; GCC cannot see that through the enum switch
  switch (c.feature) {
    case PenaltyFeature::face: {
      if constexpr (D == 3) {
        const auto b = point_triangle_coordinates<S>(X[0], X[1], X[2], X[3]);
        f.weights = {S(1.0), b[0] + b[1] - S(1.0), -b[0], -b[1]};
        n = normalized_vector<S, 3>(V(X[2] - X[1]).cross(V(X[3] - X[1])));
      }
      break;
    }
    case PenaltyFeature::edge: {
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
    case PenaltyFeature::vertex:
      f.weights = {S(1.0), S(-1.0), S(0.0), S(0.0)};
      n = direction_or<S, D>(V(S(c.side) * V(X[0] - X[1])), c.normal);
      break;
    case PenaltyFeature::obstacle: {
      // n from a second-order evaluation of the obstacle's distance at the value.
      f.weights = {S(1.0), S(0.0), S(0.0), S(0.0)};
      Eigen::Matrix<Jet<D>, D, 1> pj;
      Eigen::Matrix<double, D, 1> dp;
      for (int k = 0; k < D; ++k) {
        pj[k] = Jet<D>::variable(value_of(X[0][k]), k);
        dp[k] = derivative_of(X[0][k]);
      }
      const Jet<D> dj = analytic_signed_distance<Jet<D>, D>(contact.obstacles()[static_cast<std::size_t>(c.obstacle)], pj);
      const auto nd = unit_normal_of_distance<S>(dj.g, dj.H, dp);
      for (int k = 0; k < D; ++k) n[k] = nd[k];
      break;
    }
  }
  f.basis = tangent_projector<S>(n);
  return f;
}

std::vector<Stencil> penalty_stencils(const std::vector<PenaltyContactPoint>& points, const FrictionOptions& o) {
  std::vector<Stencil> stencils;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PenaltyContactPoint& c = points[i];
    if (!(c.lambda > 0.0)) continue;
    const double mu = o.mu_of_contact(c.num_vertices, c.ids, c.obstacle);
    if (mu > 0.0)
      stencils.push_back({FrictionContactKind::point_plane, c.num_vertices, c.ids, mu, static_cast<int>(i)});
  }
  return stencils;
}

}  // namespace

ImplicitPenaltyFriction::ImplicitPenaltyFriction(const PenaltyContact* contact, const FrictionOptions& options)
    : ImplicitFrictionForce(options), contact_(contact) {}

std::vector<const Energy*> ImplicitPenaltyFriction::reads_data_of() const { return {contact_}; }

void ImplicitPenaltyFriction::apply(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX* p,
                                    double weight, VecX* force, std::vector<Triplet>* jacobian, VecX* out) const {
  const CollisionMesh& mesh = contact_->collision_mesh();
  const std::vector<PenaltyContactPoint> points = contact_->contacts(ctx, q);
  const double kappa = contact_->stiffness(ctx.data);
  const std::vector<Stencil> stencils = penalty_stencils(points, options_);
  apply_stencil_forces(stencils, mesh.positions(q), v, p, mesh.dim, mesh.num_dof_vertices, options_, c, weight, force,
                       jacobian, out, [&](const Stencil& s, const auto* x) {
                         using S = std::remove_cv_t<std::remove_reference_t<decltype(*x)>>;
                         return mesh.dim == 3 ? penalty_frame<S, 3>(points[s.source], x, *contact_, kappa)
                                              : penalty_frame<S, 2>(points[s.source], x, *contact_, kappa);
                       });
}

}  // namespace softsim
