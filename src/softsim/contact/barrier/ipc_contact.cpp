#include "softsim/contact/barrier/ipc_contact.hpp"

#include <algorithm>
#include <limits>

#include "softsim/contact/ccd/additive_ccd.hpp"
#include "softsim/contact/barrier/stiffness.hpp"
#include "softsim/contact/distance/edge_edge.hpp"
#include "softsim/contact/barrier/edge_edge_mollifier.hpp"
#include "softsim/contact/distance/point_edge.hpp"
#include "softsim/contact/distance/point_triangle.hpp"
#include "softsim/core/parallel.hpp"
#include "softsim/core/psd_projection.hpp"
#include "softsim/model/model.hpp"

namespace softsim {

struct IpcContact::Data : TermData {
  double kappa = 0.0, kappa_max = 0.0;
  bool balanced = false;  // kappa was balanced once contact appeared (or is fixed)
  double previous_min_distance = HUGE_VAL;
  // Line-search cache: candidates valid for every x on the segment x0 + [0, 1] p.
  mutable struct {
    bool valid = false;
    VecX x0, p;
    Candidates candidates;
  } ccd;
};

struct IpcContact::PairTerm {
  int ids[4] = {-1, -1, -1, -1};  // global vertex ids of the stencil
  int k = 0;                      // stencil size
  bool active = false;            // closer than dhat
  double value = 0.0;
  Eigen::Matrix<double, 12, 1> grad;
  Eigen::Matrix<double, 12, 12> hess;
};

namespace {

// A stencil's positions as fixed-size vectors.
template <int D>
Eigen::Matrix<double, D, 1> row(const VertexRows& V, int id) {
  return V.row(id).transpose();
}

}  // namespace

IpcContact::IpcContact(const Model& model, CollisionMesh mesh, const IpcOptions& options)
    : model_(model), mesh_(std::move(mesh)), options_(options) {}

std::unique_ptr<TermData> IpcContact::make_data() const {
  auto data = std::make_unique<Data>();
  if (options_.kappa) {
    data->kappa = data->kappa_max = *options_.kappa;
    data->balanced = true;
  }
  return data;
}

double IpcContact::stiffness(const ModelData& data) const { return data.of<Data>(this).kappa; }

Candidates IpcContact::contact_candidates(const EvalContext& ctx, const VecX& x) const {
  return candidates_near(&ctx.data.of<Data>(this), x);
}

BarrierValue IpcContact::barrier_of(double s) const {
  const double xi = options_.thickness;
  if (xi == 0.0) return barrier_of_squared_distance(options_.form, s, options_.dhat, 1.0);
  // s_gap = (sqrt(s) - xi)^2: ds_gap/ds = 1 - xi/sqrt(s), d2s_gap/ds2 = xi / (2 s^1.5).
  const double d = std::sqrt(s);
  const double gap = d - xi;
  if (!(gap > 0.0)) return {std::numeric_limits<double>::infinity(), 0.0, 0.0};
  const BarrierValue b = barrier_of_squared_distance(options_.form, gap * gap, options_.dhat, 1.0);
  const double a = 1.0 - xi / d, c = xi / (2.0 * s * d);
  return {b.value, b.first * a, b.second * a * a + b.first * c};
}

Candidates IpcContact::candidates_near(const Data* data, const VecX& x) const {
  // Candidates of the last CCD query cover every point of its segment within dhat.
  if (data && data->ccd.valid && data->ccd.x0.size() == x.size()) {
    const auto& cache = data->ccd;
    const VecX dx = x - cache.x0;
    const double pp = cache.p.squaredNorm();
    const double alpha = pp > 0 ? dx.dot(cache.p) / pp : 0.0;
    const double scale = std::max(1.0, x.lpNorm<Eigen::Infinity>());
    if (alpha >= -1e-12 && alpha <= 1.0 + 1e-12 &&
        (dx - alpha * cache.p).lpNorm<Eigen::Infinity>() <= 1e-13 * scale)
      return cache.candidates;
  }
  return proximity_candidates(mesh_, x, reach(), options_.broad_phase);
}

std::vector<IpcContact::PairTerm> IpcContact::pair_terms(const VecX& x, const Candidates& c, bool derivatives) const {
  const VertexRows V = mesh_.positions(x);
  const VertexRows X = mesh_.positions(model_.rest_positions);
  const double shat = reach() * reach();
  const std::size_t nvf = c.vertex_face.size(), nee = c.edge_edge.size(), nve = c.vertex_edge.size();
  std::vector<PairTerm> terms(nvf + nee + nve);
  parallel_for(terms.size(), [&](std::size_t i) {
    PairTerm& t = terms[i];
    if (i < nvf) {
      const auto [v, f] = c.vertex_face[i];
      t.k = 4;
      t.ids[0] = mesh_.vertices[v];
      for (int a = 0; a < 3; ++a) t.ids[a + 1] = mesh_.faces(f, a);
      const Vec3 p = row<3>(V, t.ids[0]), t0 = row<3>(V, t.ids[1]), t1 = row<3>(V, t.ids[2]), t2 = row<3>(V, t.ids[3]);
      const double s = point_triangle_distance_squared(p, t0, t1, t2);
      if (!(s < shat)) return;
      t.active = true;
      if (!derivatives) {
        t.value = barrier_of(s).value;
        return;
      }
      const auto d = compose_barrier(barrier_of(s), point_triangle_distance(p, t0, t1, t2));
      t.value = d.value;
      t.grad = d.grad;
      t.hess = d.hess;
    } else if (i < nvf + nee) {
      const auto [a, b] = c.edge_edge[i - nvf];
      t.k = 4;
      t.ids[0] = mesh_.edges(a, 0);
      t.ids[1] = mesh_.edges(a, 1);
      t.ids[2] = mesh_.edges(b, 0);
      t.ids[3] = mesh_.edges(b, 1);
      const Vec3 ea0 = row<3>(V, t.ids[0]), ea1 = row<3>(V, t.ids[1]), eb0 = row<3>(V, t.ids[2]), eb1 = row<3>(V, t.ids[3]);
      const double s = edge_edge_distance_squared(ea0, ea1, eb0, eb1);
      if (!(s < shat)) return;
      t.active = true;
      // The mollifier's threshold uses rest positions (IPC: eps_x = 1e-3 |ea|^2 |eb|^2).
      const double eps_x = edge_edge_mollifier_threshold(row<3>(X, t.ids[0]), row<3>(X, t.ids[1]),
                                                         row<3>(X, t.ids[2]), row<3>(X, t.ids[3]));
      // E = m b (IPC's mollified edge-edge barrier), with the product rule for derivatives.
      const auto dist = edge_edge_distance(ea0, ea1, eb0, eb1);
      const auto bar = compose_barrier(barrier_of(s), dist);
      const auto m = edge_edge_mollifier(ea0, ea1, eb0, eb1, eps_x);
      t.value = m.value * bar.value;
      if (derivatives) {
        t.grad = m.value * bar.grad + bar.value * m.grad;
        t.hess = m.value * bar.hess + m.grad * bar.grad.transpose() + bar.grad * m.grad.transpose() + bar.value * m.hess;
      }
    } else {
      const auto [v, e] = c.vertex_edge[i - nvf - nee];
      t.k = 3;
      t.ids[0] = mesh_.vertices[v];
      t.ids[1] = mesh_.edges(e, 0);
      t.ids[2] = mesh_.edges(e, 1);
      const Vec2 p = row<2>(V, t.ids[0]), e0 = row<2>(V, t.ids[1]), e1 = row<2>(V, t.ids[2]);
      const double s = point_edge_distance_squared(p, e0, e1);
      if (!(s < shat)) return;
      t.active = true;
      const auto b = barrier_of(s);
      t.value = b.value;
      if (derivatives) {
        const auto d = compose_barrier(b, point_edge_distance(p, e0, e1));
        t.grad.head<6>() = d.grad;
        t.hess.topLeftCorner<6, 6>() = d.hess;
      }
    }
  });
  return terms;
}

double IpcContact::evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  const bool derivatives = out.gradient || out.hessian || out.dynamic_hessian;
  const Data& data = ctx.data.of<Data>(this);
  // The accepted iterate lies on the last CCD segment, so its candidates are cached too.
  const Candidates c = candidates_near(&data, x);
  std::vector<PairTerm> terms = pair_terms(x, c, derivatives);
  const int dim = mesh_.dim;
  const double w = out.weight * data.kappa;
  // Projection per stencil, in parallel; the scatter below is sequential (deterministic).
  if (out.dynamic_hessian && out.project_psd) {
    parallel_for(terms.size(), [&](std::size_t i) {
      PairTerm& t = terms[i];
      if (!t.active) return;
      const int n = t.k * dim;
      if (n == 12) {
        project_psd(t.hess);
      } else {
        Eigen::Matrix<double, 6, 6> h = t.hess.topLeftCorner<6, 6>();
        project_psd(h);
        t.hess.topLeftCorner<6, 6>() = h;
      }
    });
  }
  double total = 0.0;
  for (const PairTerm& t : terms) {
    if (!t.active) continue;
    if (!std::isfinite(t.value)) return std::numeric_limits<double>::infinity();
    total += w * t.value;
    for (int a = 0; a < t.k; ++a) {
      if (mesh_.is_static_vertex(t.ids[a])) continue;
      if (out.gradient) out.gradient->segment(t.ids[a] * dim, dim) += w * t.grad.segment(a * dim, dim);
      if (!out.dynamic_hessian) continue;
      for (int b = 0; b < t.k; ++b) {
        if (mesh_.is_static_vertex(t.ids[b])) continue;
        for (int r = 0; r < dim; ++r)
          for (int s = 0; s < dim; ++s)
            out.dynamic_hessian->emplace_back(t.ids[a] * dim + r, t.ids[b] * dim + s, w * t.hess(a * dim + r, b * dim + s));
      }
    }
  }
  return total;
}

double IpcContact::max_step_fraction(const EvalContext& ctx, const VecX& x, const VecX& p) const {
  const VecX x1 = x + p;
  // Candidates whose swept boxes come within dhat: they serve CCD now and the line search's
  // energy evaluations along this segment.
  auto& cache = ctx.data.of<Data>(this).ccd;
  cache.candidates = ccd_candidates(mesh_, x, x1, reach(), options_.broad_phase);
  cache.x0 = x;
  cache.p = p;
  cache.valid = true;
  const Candidates& c = cache.candidates;
  const VertexRows V0 = mesh_.positions(x), V1 = mesh_.positions(x1);
  AccdOptions accd;
  accd.rescaling = options_.ccd_safety;
  accd.min_separation = options_.thickness;
  const std::size_t nvf = c.vertex_face.size(), nee = c.edge_edge.size(), nve = c.vertex_edge.size();
  std::vector<double> toi(nvf + nee + nve, 1.0);
  parallel_for(toi.size(), [&](std::size_t i) {
    CcdResult r;
    if (i < nvf) {
      const auto [v, f] = c.vertex_face[i];
      const int ids[4] = {mesh_.vertices[v], mesh_.faces(f, 0), mesh_.faces(f, 1), mesh_.faces(f, 2)};
      r = additive_ccd_point_triangle(row<3>(V0, ids[0]), row<3>(V0, ids[1]), row<3>(V0, ids[2]), row<3>(V0, ids[3]),
                                      row<3>(V1, ids[0]), row<3>(V1, ids[1]), row<3>(V1, ids[2]), row<3>(V1, ids[3]),
                                      accd);
    } else if (i < nvf + nee) {
      const auto [a, b] = c.edge_edge[i - nvf];
      const int ids[4] = {mesh_.edges(a, 0), mesh_.edges(a, 1), mesh_.edges(b, 0), mesh_.edges(b, 1)};
      r = additive_ccd_edge_edge(row<3>(V0, ids[0]), row<3>(V0, ids[1]), row<3>(V0, ids[2]), row<3>(V0, ids[3]),
                                 row<3>(V1, ids[0]), row<3>(V1, ids[1]), row<3>(V1, ids[2]), row<3>(V1, ids[3]), accd);
    } else {
      const auto [v, e] = c.vertex_edge[i - nvf - nee];
      const int ids[3] = {mesh_.vertices[v], mesh_.edges(e, 0), mesh_.edges(e, 1)};
      r = additive_ccd_point_edge(row<2>(V0, ids[0]), row<2>(V0, ids[1]), row<2>(V0, ids[2]), row<2>(V1, ids[0]),
                                  row<2>(V1, ids[1]), row<2>(V1, ids[2]), accd);
    }
    if (r.collides) toi[i] = r.toi;
  });
  double alpha = 1.0;
  for (double t : toi) alpha = std::min(alpha, t);
  return alpha;
}

double IpcContact::min_contact_distance(const VecX& x) const { return min_distance(nullptr, x); }

double IpcContact::min_distance(const Data* data, const VecX& x) const {
  const Candidates c = candidates_near(data, x);
  const VertexRows V = mesh_.positions(x);
  double smin = std::numeric_limits<double>::infinity();
  for (const auto& [v, f] : c.vertex_face)
    smin = std::min(smin, point_triangle_distance_squared(row<3>(V, mesh_.vertices[v]), row<3>(V, mesh_.faces(f, 0)),
                                                          row<3>(V, mesh_.faces(f, 1)), row<3>(V, mesh_.faces(f, 2))));
  for (const auto& [a, b] : c.edge_edge)
    smin = std::min(smin, edge_edge_distance_squared(row<3>(V, mesh_.edges(a, 0)), row<3>(V, mesh_.edges(a, 1)),
                                                     row<3>(V, mesh_.edges(b, 0)), row<3>(V, mesh_.edges(b, 1))));
  for (const auto& [v, e] : c.vertex_edge)
    smin = std::min(smin, point_edge_distance_squared(row<2>(V, mesh_.vertices[v]), row<2>(V, mesh_.edges(e, 0)),
                                                      row<2>(V, mesh_.edges(e, 1))));
  return std::sqrt(smin);
}

int IpcContact::active_pairs(const VecX& x) const {
  const Candidates c = candidates_near(nullptr, x);
  int n = 0;
  for (const PairTerm& t : pair_terms(x, c, false)) n += t.active;
  return n;
}

void IpcContact::initialise_stiffness(const StepContext& ctx, Data& data, const VecX& x) const {
  // gB: gradient of the unscaled barrier sum; gE: gradient of every other potential term.
  const Candidates c = candidates_near(&data, x);
  std::vector<PairTerm> terms = pair_terms(x, c, true);
  const int dim = mesh_.dim;
  VecX gB = VecX::Zero(x.size());
  bool any = false;
  for (const PairTerm& t : terms) {
    if (!t.active) continue;
    any = true;
    for (int a = 0; a < t.k; ++a)
      if (!mesh_.is_static_vertex(t.ids[a])) gB.segment(t.ids[a] * dim, dim) += t.grad.segment(a * dim, dim);
  }
  // The other terms' gradient is only needed for the balance, i.e. once something touches.
  VecX gE = any ? ctx.other_gradient() : VecX();
  if (!any) gB.resize(0);
  const auto X = as_rows(x, dim);
  const double diagonal = (X.colwise().maxCoeff() - X.colwise().minCoeff()).norm();
  const double average_mass = model_.total_mass() / model_.num_vertices();
  BarrierStiffness k = initial_barrier_stiffness(diagonal, options_.dhat, average_mass, gE, gB);
  // IPC adds kappa b to the incremental potential; here every potential, the barrier included,
  // is weighted by h^2, so the mass-based bounds scale by 1/h^2 (the balance itself does not:
  // gE and gB are both unweighted potentials).
  const double h = ctx.stage.h;
  if (h > 0.0) {
    k.kappa_min /= h * h;
    k.kappa_max /= h * h;
  }
  const double gb2 = gB.squaredNorm();
  const double balance = gb2 > 0 ? -gB.dot(gE) / gb2 : 0.0;
  data.kappa = std::clamp(balance, k.kappa_min, k.kappa_max);  // kappa_min while nothing touches
  data.kappa_max = k.kappa_max;
  data.balanced = any;  // balanced once contact has appeared; until then re-evaluated every step
}

bool IpcContact::end_iteration(const StepContext& ctx, const VecX& x) const {
  if (options_.kappa) return false;
  Data& data = ctx.data.of<Data>(this);
  const double before = data.kappa;
  if (!data.balanced) {
    // Contact may appear in the middle of a step: balance the stiffness as soon as it does.
    initialise_stiffness(ctx, data, x);
    if (data.balanced) data.previous_min_distance = min_distance(&data, x);
    // Until contact appears no pair is active and kappa changes nothing.
    return data.balanced;
  }
  const double d = min_distance(&data, x);
  if (std::isfinite(d) && std::isfinite(data.previous_min_distance))
    data.kappa = update_barrier_stiffness(data.previous_min_distance - options_.thickness, d - options_.thickness,
                                          data.kappa, data.kappa_max, 1e-3 * options_.dhat);
  data.previous_min_distance = d;
  return data.kappa != before;
}

void IpcContact::begin_step(const StepContext& ctx, const VecX& x_start) const {
  Data& data = ctx.data.of<Data>(this);
  data.ccd.valid = false;
  if (!data.balanced) {
    initialise_stiffness(ctx, data, x_start);
    data.previous_min_distance = min_distance(&data, x_start);
    return;
  }
  const double d = min_distance(&data, x_start);
  if (!options_.kappa && std::isfinite(d) && std::isfinite(data.previous_min_distance))
    data.kappa = update_barrier_stiffness(data.previous_min_distance - options_.thickness, d - options_.thickness,
                                          data.kappa, data.kappa_max, 1e-3 * options_.dhat);
  data.previous_min_distance = d;
}

}  // namespace softsim
