#include "softsim/contact/friction/implicit_friction.hpp"

#include "softsim/contact/friction/force_kernel.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {

namespace {

constexpr int kMaxStencilDofs = 12;
using StencilValues = std::array<double, kMaxStencilDofs>;

// The force on each stencil and, per stencil DOF j with a DOF behind it, the derivative of the
// force along (dq_j = 1, dv_j = c): the Jacobian's column j (frame_of(contact, x) builds the
// frame on the scalar of x). Scatters weight * f and weight * J (triplets), deterministic order.
template <class Rows, class FrameFn>
void assemble_stencil_forces(const std::vector<FrictionContact>& contacts, const Rows& X, const VecX& v, int dim,
                             int num_dof_vertices, const FrictionOptions& o, double c, double weight, VecX* force,
                             std::vector<Triplet>* jacobian, FrameFn&& frame_of) {
  struct Local {
    StencilValues f{};
    std::array<StencilValues, kMaxStencilDofs> columns{};
  };
  std::vector<Local> local(contacts.size());
  auto has_dofs = [&](int id) { return id < num_dof_vertices; };
  parallel_for(contacts.size(), [&](std::size_t i) {
    const ContactStencil& s = contacts[i].stencil;
    const int n = s.num_vertices * dim;
    std::array<double, kMaxStencilDofs> x{}, vel{};
    for (int a = 0; a < s.num_vertices; ++a)
      for (int r = 0; r < dim; ++r) {
        x[a * dim + r] = X(s.ids[a], r);
        vel[a * dim + r] = has_dofs(s.ids[a]) ? v[s.ids[a] * dim + r] : 0.0;
      }
    Local& l = local[i];
    if (force) {
      const FrictionFrame<double> frame = frame_of(contacts[i], x.data());
      friction_force_on_stencil(frame, vel.data(), dim, contacts[i].mu, o.smoothing, o.eps_v, l.f.data());
    }
    if (!jacobian) return;
    std::array<Dual, kMaxStencilDofs> xd{}, vd{}, fd{};
    for (int j = 0; j < n; ++j) {
      if (!has_dofs(s.ids[j / dim])) continue;
      for (int k = 0; k < n; ++k) {
        xd[k] = Dual(x[k], k == j ? 1.0 : 0.0);
        vd[k] = Dual(vel[k], k == j ? c : 0.0);
      }
      const FrictionFrame<Dual> frame = frame_of(contacts[i], xd.data());
      friction_force_on_stencil(frame, vd.data(), dim, contacts[i].mu, o.smoothing, o.eps_v, fd.data());
      for (int k = 0; k < n; ++k) l.columns[j][k] = fd[k].d;
    }
  });
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const ContactStencil& s = contacts[i].stencil;
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
void stencil_forces_jacobian_times(const std::vector<FrictionContact>& contacts, const Rows& X, const VecX& v,
                                   const VecX& p, int dim, int num_dof_vertices, const FrictionOptions& o, double c,
                                   double weight, VecX& out, FrameFn&& frame_of) {
  std::vector<StencilValues> local(contacts.size());
  parallel_for(contacts.size(), [&](std::size_t i) {
    const ContactStencil& s = contacts[i].stencil;
    std::array<Dual, kMaxStencilDofs> xd{}, vd{}, fd{};
    for (int a = 0; a < s.num_vertices; ++a) {
      const bool dofs = s.ids[a] < num_dof_vertices;
      for (int r = 0; r < dim; ++r) {
        const double dir = dofs ? p[s.ids[a] * dim + r] : 0.0;
        xd[a * dim + r] = Dual(X(s.ids[a], r), dir);
        vd[a * dim + r] = Dual(dofs ? v[s.ids[a] * dim + r] : 0.0, c * dir);
      }
    }
    const FrictionFrame<Dual> frame = frame_of(contacts[i], xd.data());
    friction_force_on_stencil(frame, vd.data(), dim, contacts[i].mu, o.smoothing, o.eps_v, fd.data());
    for (int k = 0; k < s.num_vertices * dim; ++k) local[i][k] = fd[k].d;
  });
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const ContactStencil& s = contacts[i].stencil;
    for (int k = 0; k < s.num_vertices * dim; ++k)
      if (s.ids[k / dim] < num_dof_vertices) out[s.ids[k / dim] * dim + k % dim] += weight * local[i][k];
  }
}

}  // namespace

ImplicitFriction::ImplicitFriction(std::unique_ptr<FrictionSource> source, const FrictionOptions& options)
    : source_(std::move(source)), options_(options) {}

std::vector<FrictionContact> ImplicitFriction::contacts(const EvalContext& ctx, const VecX& q) const {
  if (!options_.any()) return {};
  return source_->contacts(ctx, q);
}

void ImplicitFriction::add_force(const EvalContext& ctx, const VecX& q, const VecX& v, double c, double weight,
                                 VecX* force, std::vector<Triplet>* jacobian) const {
  if (!options_.any() || (!force && !jacobian)) return;
  VertexRows X;
  source_->positions(q, X);
  assemble_stencil_forces(contacts(ctx, q), X, v, static_cast<int>(X.cols()), source_->num_dof_vertices(), options_,
                          c, weight, force, jacobian,
                          [&](const FrictionContact& fc, const auto* x) { return source_->frame(ctx, fc, x); });
}

void ImplicitFriction::add_jacobian_times(const EvalContext& ctx, const VecX& q, const VecX& v, double c,
                                          const VecX& p, double weight, VecX& out) const {
  if (!options_.any()) return;
  VertexRows X;
  source_->positions(q, X);
  stencil_forces_jacobian_times(contacts(ctx, q), X, v, p, static_cast<int>(X.cols()), source_->num_dof_vertices(),
                                options_, c, weight, out,
                                [&](const FrictionContact& fc, const auto* x) { return source_->frame(ctx, fc, x); });
}

}  // namespace softsim
