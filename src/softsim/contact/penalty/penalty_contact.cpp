#include "softsim/contact/penalty/penalty_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "softsim/contact/penalty/cubic_penalty.hpp"
#include "softsim/contact/stencil/stencil_assembly.hpp"
#include "softsim/core/parallel.hpp"
#include "softsim/model/model.hpp"

namespace softsim {

namespace {

using StencilVec = Eigen::Matrix<double, 12, 1>;
using StencilMat = Eigen::Matrix<double, 12, 12>;

// The signed gap of one contact with its exact gradient and Hessian over the stencil.
struct GapDerivatives {
  double d = 0.0;
  StencilVec grad = StencilVec::Zero();
  StencilMat hess = StencilMat::Zero();
};

template <int K, int D>
GapDerivatives gap_derivatives(const PenaltyContactPoint& c, const VertexRows& V,
                               const std::vector<AnalyticObstacle>& obstacles) {
  constexpr int N = K * D;
  using J = Jet<N>;
  Eigen::Matrix<J, D, 1> x[K];
  for (int a = 0; a < K; ++a)
    for (int i = 0; i < D; ++i) x[a][i] = J::variable(V(c.stencil.ids[a], i), a * D + i);
  const J d = penalty_signed_distance<J, D>(c, x, obstacles);
  GapDerivatives r;
  r.d = d.v;
  r.grad.template head<N>() = d.g;
  r.hess.template topLeftCorner<N, N>() = d.H;
  return r;
}

template <int D>
GapDerivatives gap_derivatives(const PenaltyContactPoint& c, const VertexRows& V,
                               const std::vector<AnalyticObstacle>& obstacles) {
  if (c.feature_of_obstacle >= 0) {
    // d = r - separation, r = sqrt(s): grad d = grad s / (2 r), Hess d = Hess s / (2 r) -
    // grad s grad s^T / (4 r^3).
    const DistanceDerivatives<12> s = distance_squared_derivatives(c.stencil, V);
    const double r = std::sqrt(s.value);
    GapDerivatives g;
    g.d = r - c.separation;
    if (!(r > 0.0)) return g;
    g.grad = s.grad / (2.0 * r);
    g.hess = s.hess / (2.0 * r) - (s.grad * s.grad.transpose()) / (4.0 * r * r * r);
    return g;
  }
  switch (c.stencil.num_vertices) {
    case 1: return gap_derivatives<1, D>(c, V, obstacles);
    case 2: return gap_derivatives<2, D>(c, V, obstacles);
    case 3: return gap_derivatives<3, D>(c, V, obstacles);
    default:
      if constexpr (D == 3) return gap_derivatives<4, 3>(c, V, obstacles);
  }
  return {};
}

GapDerivatives gap_derivatives(const PenaltyContactPoint& c, const VertexRows& V,
                               const std::vector<AnalyticObstacle>& obstacles) {
  return V.cols() == 3 ? gap_derivatives<3>(c, V, obstacles) : gap_derivatives<2>(c, V, obstacles);
}

// Over the bodies' vertices: a moving obstacle's pose vertex carries a mass of its own choosing.
double average_vertex_mass(const Model& model) {
  const std::vector<double> m = model.vertex_masses();
  double total = 0.0;
  std::size_t count = 0;
  for (const Body& body : model.bodies)
    for (int i = 0; i < body.mesh.num_vertices(); ++i) {
      total += m[static_cast<std::size_t>(body.first_vertex + i)];
      ++count;
    }
  return count == 0 ? 0.0 : total / static_cast<double>(count);
}

}  // namespace

PenaltyContact::PenaltyContact(const Model& model, CollisionMesh mesh, std::vector<AnalyticObstacle> obstacles,
                               const PenaltyOptions& options)
    : model_(model),
      mesh_(std::move(mesh)),
      surfaces_(mesh_, options.search_radius, mesh_.positions(model.rest_positions)),
      obstacles_(std::move(obstacles)),
      feature_rows_(obstacle_feature_rows(mesh_, obstacles_)),
      options_(options) {
  const double g = model.gravity.head(model.dim()).norm();
  const double kappa_min = average_vertex_mass(model) * (g > 0.0 ? g : 9.81) / (0.75 * options_.delta * options_.delta);
  kappa_initial_ = options_.kappa.value_or(kappa_min);
}

struct PenaltyContact::Data : TermData {
  double kappa = 0.0;
  bool balanced = false;
  int bumps = 0;
  mutable std::vector<ContactStencilTerm> terms;  // evaluate's, kept so that its capacity is reused
  void save(ArchiveWriter& out) const override {
    out.real(kappa);
    out.flag(balanced);
    out.integer(bumps);
  }
  void load(ArchiveReader& in) override {
    kappa = in.real();
    balanced = in.flag();
    bumps = static_cast<int>(in.integer(0, 1 << 30, "stiffness bumps"));
  }
};

std::unique_ptr<TermData> PenaltyContact::make_data() const {
  auto data = std::make_unique<Data>();
  data->kappa = kappa_initial_;
  return data;
}

double PenaltyContact::stiffness(const ModelData& data) const { return data.of<Data>(this).kappa; }
int PenaltyContact::stiffness_bumps(const ModelData& data) const { return data.of<Data>(this).bumps; }

std::vector<PenaltyContactPoint> PenaltyContact::find(const VertexRows& V) const {
  std::vector<PenaltyContactPoint> points;
  if (options_.between_bodies) points = surfaces_.find(V, options_.delta, options_.broad_phase);
  add_obstacle_contact_points(mesh_, V, obstacles_, options_.delta, points);
  add_obstacle_feature_points(mesh_, V, obstacles_, feature_rows_, options_.delta, points);
  return points;
}

VertexRows PenaltyContact::positions(const VecX& x) const {
  VertexRows V = mesh_.positions(x);
  append_feature_rows(feature_rows_, obstacles_, V);
  return V;
}

ContactStencil PenaltyContact::scatter_stencil(const PenaltyContactPoint& c) const {
  ContactStencil s = c.stencil;
  if (c.feature_of_obstacle < 0) return s;
  const int pose = obstacles_[static_cast<std::size_t>(c.feature_of_obstacle)].pose_vertex;
  if (pose < 0) return s;
  for (int a = 0; a < s.num_vertices; ++a)
    if (s.ids[static_cast<std::size_t>(a)] >= mesh_.num_total_vertices()) s.ids[static_cast<std::size_t>(a)] = pose;
  return s;
}

double PenaltyContact::evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  const Data& data = ctx.data.of<Data>(this);
  const double kappa = data.kappa;
  const VertexRows V = positions(x);
  const std::vector<PenaltyContactPoint> points = find(V);
  const bool derivatives = out.gradient || out.dynamic_hessian;
  const int dim = mesh_.dim;
  std::vector<ContactStencil> scattered(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) scattered[i] = scatter_stencil(points[i]);
  return assemble_contact_stencils(
      points.size(), [&](std::size_t i) -> const ContactStencil& { return scattered[i]; }, dim,
      mesh_.num_dof_vertices, out.weight, out, data.terms, [&](std::size_t i, ContactStencilTerm& t) {
        if (!derivatives) {
          t.value = cubic_penalty(points[i].d, options_.delta, kappa).value;
          return;
        }
        // b(d(x)): grad = b' grad d, Hess = b'' grad d grad d^T + b' Hess d (b' <= 0 makes the
        // second part indefinite: projected per stencil when asked).
        const GapDerivatives g = gap_derivatives(points[i], V, obstacles_);
        const PenaltyValue b = cubic_penalty(g.d, options_.delta, kappa);
        t.value = b.value;
        t.grad = b.first * g.grad;
        if (!out.dynamic_hessian) return;
        t.hess = b.second * (g.grad * g.grad.transpose()) + b.first * g.hess;
        if (out.project_psd) project_stencil_hessian(t, points[i].stencil.num_vertices * dim);
      });
}

double PenaltyContact::balanced_stiffness(const StepContext& ctx, const VecX& x, const VertexRows& V,
                                          const std::vector<PenaltyContactPoint>& points) const {
  const int dim = mesh_.dim;
  VecX G = VecX::Zero(x.size());
  for (const PenaltyContactPoint& c : points) {
    const GapDerivatives g = gap_derivatives(c, V, obstacles_);
    const ContactStencil s = scatter_stencil(c);
    for (int a = 0; a < s.num_vertices; ++a)
      if (!mesh_.is_static_vertex(s.ids[a])) G.segment(s.ids[a] * dim, dim) += g.grad.segment(a * dim, dim);
  }
  VecX gE = ctx.other_gradient();
  // Constrained directions carry their reactions: leave them out of the balance.
  model_.boundary.reduce_gradient(G);
  model_.boundary.reduce_gradient(gE);
  const double gg = G.squaredNorm();
  const double delta = options_.delta;
  return gg > 0.0 ? G.dot(gE) / (0.75 * delta * delta * gg) : 0.0;
}

void PenaltyContact::begin_step(const StepContext& ctx, const VecX& x_start) const {
  Data& data = ctx.data.of<Data>(this);
  const VertexRows V = positions(x_start);
  const std::vector<PenaltyContactPoint> points = find(V);
  if (points.empty()) {
    data.kappa = kappa_initial_;
    data.balanced = false;
    return;
  }
  if (!data.balanced && !options_.kappa) data.kappa = std::max(data.kappa, balanced_stiffness(ctx, x_start, V, points));
  data.balanced = true;
}

bool PenaltyContact::after_solve(const StepContext& ctx, const VecX& x) const {
  const double deepest = min_contact_distance(x);
  if (!(deepest < 0.0)) return false;
  Data& data = ctx.data.of<Data>(this);
  data.kappa *= penalty_stiffness_bump(deepest, options_.delta);
  ++data.bumps;
  data.balanced = true;
  return true;
}

bool PenaltyContact::vertex_support(std::vector<int>& vertices) const {
  mesh_.append_dof_vertices(vertices);
  return true;
}

double PenaltyContact::min_contact_distance(const VecX& x, const ModelData*) const {
  double deepest = std::numeric_limits<double>::infinity();
  for (const PenaltyContactPoint& c : find(positions(x))) deepest = std::min(deepest, c.d);
  return deepest;
}

std::vector<PenaltyContactPoint> PenaltyContact::contacts(const EvalContext& ctx, const VecX& x) const {
  const double kappa = ctx.data.of<Data>(this).kappa;
  const VertexRows V = positions(x);
  std::vector<PenaltyContactPoint> points = find(V);
  parallel_for(points.size(), [&](std::size_t i) {
    PenaltyContactPoint& c = points[i];
    const GapDerivatives g = gap_derivatives(c, V, obstacles_);
    c.lambda = penalty_force_magnitude(c.d, options_.delta, kappa);
    c.normal = g.grad.head(mesh_.dim);
  });
  return points;
}

}  // namespace softsim
