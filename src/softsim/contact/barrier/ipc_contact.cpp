#include "softsim/contact/barrier/ipc_contact.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <functional>
#include <limits>

#include "softsim/contact/barrier/edge_edge_mollifier.hpp"
#include "softsim/contact/barrier/stiffness.hpp"
#include "softsim/contact/distance/separation_bound.hpp"
#include "softsim/core/bounding_box.hpp"
#include "softsim/core/parallel.hpp"
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
  mutable Workspace work;
  // Kept between calls: the positions of an evaluation, and the step filter's end point and its
  // positions at both ends (the contact of a small scene allocated these on every call).
  mutable VertexRows positions, end_positions;
  mutable VecX end_point;
  // The stiffness and the distance it adapts from carry over; the CCD cache is cleared at every
  // step's start.
  void save(ArchiveWriter& out) const override {
    out.real(kappa);
    out.real(kappa_max);
    out.flag(balanced);
    out.real(previous_min_distance);
  }
  void load(ArchiveReader& in) override {
    kappa = in.real();
    kappa_max = in.real();
    balanced = in.flag();
    previous_min_distance = in.real();
  }
};

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

BarrierValue IpcContact::barrier_of(double s, const ContactStencil& st) const {
  BarrierValue b = barrier_of_gap(s);
  if (!options_.point_weights.empty()) {
    const double w = options_.point_weights[st.ids[0]];
    b.value *= w;
    b.first *= w;
    b.second *= w;
  }
  return b;
}

BarrierValue IpcContact::barrier_of_gap(double s) const {
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

const Candidates* IpcContact::swept_candidates_at(const Data* data, const VecX& x) const {
  // Candidates of the last CCD query cover every point of its segment within dhat.
  if (!data || !data->ccd.valid || data->ccd.x0.size() != x.size()) return nullptr;
  const auto& cache = data->ccd;
  // x - x0 as an expression: this runs at every evaluation, and a temporary would allocate.
  const auto dx = x - cache.x0;
  const double pp = cache.p.squaredNorm();
  const double alpha = pp > 0 ? dx.dot(cache.p) / pp : 0.0;
  const double scale = std::max(1.0, x.lpNorm<Eigen::Infinity>());
  if (alpha >= -1e-12 && alpha <= 1.0 + 1e-12 && (dx - alpha * cache.p).lpNorm<Eigen::Infinity>() <= 1e-13 * scale)
    return &cache.candidates;
  return nullptr;
}

Candidates IpcContact::candidates_near(const Data* data, const VecX& x) const {
  if (const Candidates* swept = swept_candidates_at(data, x)) return *swept;
  return proximity_candidates(mesh_, x, reach(), options_.broad_phase);
}

void IpcContact::active_stencils(const VertexRows& V, const VecX& x, const Data* data, Workspace& w) const {
  const double shat = reach() * reach();
  // Most candidates are farther than the reach: a separation bound settles them without the
  // exact distance (same active set; the distances of active stencils are the exact ones).
  const bool bound_applies = separation_bound_applies(V.size() ? V.cwiseAbs().maxCoeff() : 0.0, shat);
  if (const Candidates* swept = swept_candidates_at(data, x)) {
    candidate_stencils(mesh_, *swept, w.candidates);
  } else {
    // Without a cached sweep, the broad phase keeps only the pairs within reach, tested where it
    // finds them: a tenth of the candidates are then stored, sorted and turned into stencils.
    // Passed by reference: a PairFilter holding the lambda itself (four references) would put
    // it on the heap at every evaluation.
    const auto within_reach = [&](PairKind kind, int i, int j) {
      return distance_squared_if_below(candidate_stencil(mesh_, kind, i, j), V, shat, bound_applies) < shat;
    };
    const Candidates near =
        proximity_candidates_where(mesh_, V, reach(), options_.broad_phase, PairFilter(std::cref(within_reach)));
    candidate_stencils(mesh_, near, w.candidates);
  }
  w.distances.resize(w.candidates.size());
  parallel_for(w.candidates.size(), [&](std::size_t i) {
    w.distances[i] = distance_squared_if_below(w.candidates[i], V, shat, bound_applies);
  });
  ActiveStencils& active = w.active;
  active.stencils.clear();
  active.s.clear();
  active.multiplicity.clear();
  for (std::size_t i = 0; i < w.candidates.size(); ++i)
    if (w.distances[i] < shat) {
      active.stencils.push_back(w.candidates[i]);
      active.s.push_back(w.distances[i]);
    }
}

namespace {
// The mollifier's threshold uses rest positions (IPC: eps_x = 1e-3 |ea|^2 |eb|^2).
double mollifier_threshold(const ContactStencil& st, const VertexRows& X) {
  auto at = [&](int a) { return stencil_vertex<3>(st, X, a); };
  return edge_edge_mollifier_threshold(at(0), at(1), at(2), at(3));
}
}  // namespace

const VertexRows& IpcContact::mollifier_rest_positions(Workspace& w) const {
  const bool any_edge_edge = std::any_of(w.active.stencils.begin(), w.active.stencils.end(),
                                         [](const ContactStencil& st) { return st.kind == StencilKind::edge_edge; });
  if (any_edge_edge && w.rest.rows() == 0) w.rest = mesh_.positions(model_.rest_positions);
  return w.rest;
}

void IpcContact::compact(const VertexRows& V, Workspace& w) const {
  ActiveStencils& active = w.active;
  const std::size_t n = active.size();
  const VertexRows& X = mollifier_rest_positions(w);
  w.reduced.resize(n);
  parallel_for(n, [&](std::size_t i) {
    const ContactStencil& st = active.stencils[i];
    if (st.kind == StencilKind::edge_edge) {
      auto at = [&](int a) { return stencil_vertex<3>(st, V, a); };
      if (edge_edge_mollifier_value(at(0), at(1), at(2), at(3), mollifier_threshold(st, X)) < 1.0) {
        w.reduced[i] = st;
        return;
      }
    }
    w.reduced[i] = closest_features(st, V);
  });
  // Merged in order of first appearance, so the result does not depend on the thread count. A
  // stencil the reduction left whole is unique (the broad phase's pairs are, and a reduction
  // always drops vertices, so no reduced stencil equals a whole one): only the reduced ones are
  // looked up, in an open-addressing table of kept slots that hold merged indices (a hash map
  // allocated a node per stencil at every evaluation; a sort of them measured slower on large
  // contact sets).
  auto reduced = [&](std::size_t i) { return w.reduced[i].num_vertices < active.stencils[i].num_vertices; };
  std::size_t num_reduced = 0;
  for (std::size_t i = 0; i < n; ++i) num_reduced += reduced(i);
  const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, 2 * num_reduced));
  w.merge_slots.assign(capacity, -1);
  ActiveStencils& merged = w.merged;
  merged.stencils.clear();
  merged.s.clear();
  merged.multiplicity.clear();
  auto append = [&](std::size_t i) {
    merged.stencils.push_back(w.reduced[i]);
    merged.s.push_back(active.s[i]);
    merged.multiplicity.push_back(1);
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (!reduced(i)) {
      append(i);
      continue;
    }
    const ContactStencil& st = w.reduced[i];
    std::size_t h = static_cast<std::size_t>(st.kind);
    for (int id : st.ids) h = h * 0x9E3779B97F4A7C15ULL + static_cast<std::size_t>(id + 1);
    for (h ^= h >> 29;; ++h) {
      int& slot = w.merge_slots[h & (capacity - 1)];
      if (slot < 0) {
        slot = static_cast<int>(merged.size());
        append(i);
        break;
      }
      const ContactStencil& first = merged.stencils[static_cast<std::size_t>(slot)];
      if (first.kind == st.kind && first.ids == st.ids) {
        ++merged.multiplicity[static_cast<std::size_t>(slot)];
        break;
      }
    }
  }
  std::swap(w.active, w.merged);
}

void IpcContact::barrier_values(const VertexRows& V, Workspace& w) const {
  const ActiveStencils& active = w.active;
  const VertexRows& X = mollifier_rest_positions(w);
  w.values.resize(active.size());
  parallel_for(active.size(), [&](std::size_t i) {
    const ContactStencil& st = active.stencils[i];
    const double k = active.multiplicity.empty() ? 1.0 : active.multiplicity[i];
    const double b = barrier_of(active.s[i], st).value;
    if (st.kind != StencilKind::edge_edge) {
      w.values[i] = k * b;
      return;
    }
    auto at = [&](int a) { return stencil_vertex<3>(st, V, a); };
    w.values[i] = k * (edge_edge_mollifier_value(at(0), at(1), at(2), at(3), mollifier_threshold(st, X)) * b);
  });
}

void IpcContact::barrier_terms(const VertexRows& V, Workspace& w, bool project_psd) const {
  const ActiveStencils& active = w.active;
  const VertexRows& X = mollifier_rest_positions(w);
  const int dim = mesh_.dim;
  evaluate_stencils(active.size(), w.terms, [&](std::size_t i, ContactStencilTerm& t) {
    const ContactStencil& st = active.stencils[i];
    const auto bar = compose_barrier(barrier_of(active.s[i], st), distance_squared_derivatives(st, V));
    if (st.kind == StencilKind::edge_edge) {
      // E = m b, IPC's mollified edge-edge barrier, with the product rule for derivatives.
      auto at = [&](int a) { return stencil_vertex<3>(st, V, a); };
      const auto m = edge_edge_mollifier(at(0), at(1), at(2), at(3), mollifier_threshold(st, X));
      t.value = m.value * bar.value;
      t.grad = m.value * bar.grad + bar.value * m.grad;
      t.hess = m.value * bar.hess + m.grad * bar.grad.transpose() + bar.grad * m.grad.transpose() + bar.value * m.hess;
    } else {
      t.value = bar.value;
      t.grad = bar.grad;
      t.hess = bar.hess;
    }
    if (!active.multiplicity.empty() && active.multiplicity[i] != 1) {
      const double k = active.multiplicity[i];
      t.value *= k;
      t.grad *= k;
      t.hess *= k;
    }
    // Distances depend on differences of positions only (static vertices included).
    if (project_psd) project_relative_stencil_hessian(t, st.num_vertices, dim);
  });
}

double IpcContact::evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  const bool derivatives = out.gradient || out.hessian || out.dynamic_hessian;
  const Data& data = ctx.data.of<Data>(this);
  Workspace& w = data.work;
  VertexRows& V = data.positions;
  mesh_.positions(x, V);
  // The accepted iterate lies on the last CCD segment, so its candidates are cached too.
  active_stencils(V, x, &data, w);
  compact(V, w);
  const double weight = out.weight * data.kappa;
  if (!derivatives) {
    barrier_values(V, w);
    double total = 0.0;  // summed in stencil order, as scatter_stencils does
    for (double value : w.values) {
      if (!std::isfinite(value)) return std::numeric_limits<double>::infinity();
      total += weight * value;
    }
    return total;
  }
  const bool project = out.dynamic_hessian && out.project_psd;
  barrier_terms(V, w, project);
  return scatter_stencils(w.terms, [&](std::size_t i) -> const ContactStencil& { return w.active.stencils[i]; },
                          mesh_.dim, mesh_.num_dof_vertices, weight, out);
}

double IpcContact::max_step_fraction(const EvalContext& ctx, const VecX& x, const VecX& p) const {
  const Data& data = ctx.data.of<Data>(this);
  VecX& x1 = data.end_point;
  x1 = x + p;
  VertexRows &V0 = data.positions, &V1 = data.end_positions;
  mesh_.positions(x, V0);
  mesh_.positions(x1, V1);
  // Candidates whose swept boxes come within dhat: they serve CCD now and the line search's
  // energy evaluations along this segment.
  auto& cache = data.ccd;
  cache.candidates = ccd_candidates(mesh_, V0, V1, reach(), options_.broad_phase);
  cache.x0 = x;
  cache.p = p;
  cache.valid = true;
  const std::vector<ContactStencil> stencils = candidate_stencils(mesh_, cache.candidates);
  AccdOptions accd;
  accd.rescaling = options_.ccd_safety;
  accd.min_separation = options_.thickness;
  // Every pair stops stepping at the earliest impact found so far, as ipc-toolkit's step size
  // does. Still deterministic for any thread count: an impact found before the stop time is
  // exactly the one found without it (AccdOptions::stop_time), and the pair holding the
  // overall minimum always finds its impact before the stop time.
  std::atomic<double> earliest(1.0);
  parallel_for(stencils.size(), [&](std::size_t i) {
    AccdOptions o = accd;
    o.stop_time = earliest.load(std::memory_order_relaxed);
    const CcdResult r = time_of_impact(stencils[i], V0, V1, o);
    if (!r.collides) return;
    double current = earliest.load(std::memory_order_relaxed);
    while (r.toi < current && !earliest.compare_exchange_weak(current, r.toi, std::memory_order_relaxed)) {
    }
  });
  return earliest.load();
}

double IpcContact::min_contact_distance(const VecX& x, const ModelData* data) const {
  return min_distance(data && data->has(this) ? &data->of<Data>(this) : nullptr, x);
}

double IpcContact::min_distance(const Data* data, const VecX& x) const {
  const VertexRows V = mesh_.positions(x);
  double smin = std::numeric_limits<double>::infinity();
  for (const ContactStencil& s : candidate_stencils(mesh_, candidates_near(data, x)))
    smin = std::min(smin, distance_squared(s, V));
  return std::sqrt(smin);
}

int IpcContact::active_pairs(const VecX& x) const { return static_cast<int>(active_contacts(x).size()); }

std::vector<std::pair<ContactStencil, double>> IpcContact::active_contacts(const VecX& x) const {
  Workspace w;
  active_stencils(mesh_.positions(x), x, nullptr, w);
  std::vector<std::pair<ContactStencil, double>> contacts;
  contacts.reserve(w.active.size());
  for (std::size_t i = 0; i < w.active.size(); ++i) contacts.emplace_back(w.active.stencils[i], std::sqrt(w.active.s[i]));
  return contacts;
}

void IpcContact::initialise_stiffness(const StepContext& ctx, Data& data, const VecX& x, bool within_step) const {
  // gB: gradient of the unscaled barrier sum; gE: gradient of every other potential term.
  const VertexRows V = mesh_.positions(x);
  Workspace& w = data.work;
  active_stencils(V, x, &data, w);
  compact(V, w);
  barrier_terms(V, w, false);
  const ActiveStencils& active = w.active;
  const std::vector<ContactStencilTerm>& terms = w.terms;
  const int dim = mesh_.dim;
  const bool any = !terms.empty();
  // Nothing touches, so kappa changes nothing until contact appears: keep the step's lower
  // bound (set at its start) rather than form every position at every iteration to reset it
  // (a reduced body forms them on request only).
  if (!any && within_step) return;
  VecX gB = VecX::Zero(x.size());
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const ContactStencil& s = active.stencils[i];
    for (int a = 0; a < s.num_vertices; ++a)
      if (!mesh_.is_static_vertex(s.ids[a])) gB.segment(s.ids[a] * dim, dim) += terms[i].grad.segment(a * dim, dim);
  }
  // The other terms' gradient is only needed for the balance, i.e. once something touches.
  VecX gE = any ? ctx.other_gradient() : VecX();
  if (!any) gB.resize(0);
  const double diagonal = bounding_box_diagonal(as_rows(ctx.whole_positions(), dim));
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

bool IpcContact::vertex_support(std::vector<int>& vertices) const {
  mesh_.append_dof_vertices(vertices);
  return true;
}

bool IpcContact::end_iteration(const StepContext& ctx, const VecX& x) const {
  if (options_.kappa) return false;
  Data& data = ctx.data.of<Data>(this);
  const double before = data.kappa;
  if (!data.balanced) {
    // Contact may appear in the middle of a step: balance the stiffness as soon as it does.
    initialise_stiffness(ctx, data, x, true);
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
    initialise_stiffness(ctx, data, x_start, false);
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
