#include "softsim/contact/friction_lagged.hpp"

#include "softsim/contact/broad_phase.hpp"
#include "softsim/contact/ipc_contact.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {

double assemble_friction(const std::vector<FrictionContact>& contacts, const VertexRows& V, const VertexRows& V0,
                         FrictionSmoothing smoothing, double eps, int num_dof_vertices, const AssemblyOutputs& out) {
  if (contacts.empty()) return 0.0;
  const int dim = static_cast<int>(V.cols());
  const bool hessian = out.dynamic_hessian != nullptr;
  struct Local {
    double value = 0;
    FrictionStencilVec grad;
    FrictionStencilMat hess;
  };
  std::vector<Local> local(contacts.size());
  parallel_for(contacts.size(), [&](std::size_t i) {
    Local& l = local[i];
    l.value = friction_contact_potential(contacts[i], V, V0, smoothing, eps, out.gradient ? &l.grad : nullptr,
                                         hessian ? &l.hess : nullptr, out.project_psd);
  });
  double total = 0.0;
  for (std::size_t i = 0; i < contacts.size(); ++i) {  // sequential scatter: deterministic sums
    const FrictionContact& c = contacts[i];
    const Local& l = local[i];
    const double w = out.weight * c.mu;
    total += w * l.value;
    for (int a = 0; a < c.num_vertices; ++a) {
      if (c.ids[a] >= num_dof_vertices) continue;
      if (out.gradient) out.gradient->segment(c.ids[a] * dim, dim) += w * l.grad.segment(a * dim, dim);
      if (!hessian) continue;
      for (int b = 0; b < c.num_vertices; ++b) {
        if (c.ids[b] >= num_dof_vertices) continue;
        for (int r = 0; r < dim; ++r)
          for (int s = 0; s < dim; ++s)
            out.dynamic_hessian->emplace_back(c.ids[a] * dim + r, c.ids[b] * dim + s,
                                              w * l.hess(a * dim + r, b * dim + s));
      }
    }
  }
  return total;
}

std::vector<FrictionContact> classify_friction_contacts(const CollisionMesh& mesh, const VertexRows& V,
                                                        const Candidates& c) {
  std::vector<FrictionContact> contacts;
  contacts.reserve(c.vertex_face.size() + c.edge_edge.size() + c.vertex_edge.size());
  for (const auto& [v, f] : c.vertex_face)
    contacts.push_back(
        friction_contact_for_point_triangle(V, mesh.vertices[v], mesh.faces(f, 0), mesh.faces(f, 1), mesh.faces(f, 2)));
  for (const auto& [a, b] : c.edge_edge)
    contacts.push_back(
        friction_contact_for_edge_edge(V, mesh.edges(a, 0), mesh.edges(a, 1), mesh.edges(b, 0), mesh.edges(b, 1)));
  for (const auto& [v, e] : c.vertex_edge)
    contacts.push_back(friction_contact_for_point_edge(V, mesh.vertices[v], mesh.edges(e, 0), mesh.edges(e, 1)));
  return contacts;
}

LaggedFriction::LaggedFriction(const IpcContact* contact, const FrictionOptions& options)
    : contact_(contact), options_(options) {}

void LaggedFriction::freeze(const VecX& x) {
  contacts_.clear();
  if (!options_.any()) return;
  const CollisionMesh& mesh = contact_->collision_mesh();
  const IpcOptions& o = contact_->options();
  const double kappa = contact_->stiffness();
  const double shat = o.dhat * o.dhat;
  const VertexRows V = mesh.positions(x);
  const Candidates c = proximity_candidates(mesh, x, o.dhat, o.broad_phase);
  for (FrictionContact& f : classify_friction_contacts(mesh, V, c)) {
    if (!(f.distance_squared < shat)) continue;
    f.lambda = normal_force_magnitude(o.form, f.distance_squared, o.dhat, kappa);
    f.mu = options_.mu_between_vertices(f.ids[0], f.ids[f.num_vertices - 1]);
    if (f.lambda > 0.0 && f.mu > 0.0) contacts_.push_back(std::move(f));
  }
}

void LaggedFriction::begin_step(const VecX& x_start) {
  x_start_ = x_start;
  reference_positions_ = contact_->collision_mesh().positions(x_start);
  eps_ = options_.eps_v * h_;
  fixed_point_iteration_ = 1;
  freeze(x_start);
}

void LaggedFriction::set_stage_velocity(const VecX& reference, double scale) {
  if (!(scale > 0.0) || contacts_.empty()) return;
  reference_positions_ = contact_->collision_mesh().positions(reference);
  eps_ = options_.eps_v / scale;
}

bool LaggedFriction::stiffen_if_unmet(const VecX& x) {
  if (!options_.any() || fixed_point_iteration_ >= options_.iterations) return false;
  ++fixed_point_iteration_;
  freeze(x);
  return true;
}

double LaggedFriction::evaluate(const VecX& x, const AssemblyOutputs& out) const {
  if (contacts_.empty() || !(h_ > 0.0) || x_start_.size() != x.size()) return 0.0;
  const CollisionMesh& mesh = contact_->collision_mesh();
  return assemble_friction(contacts_, mesh.positions(x), reference_positions_, options_.smoothing, eps_,
                           mesh.num_dof_vertices, out);
}

}  // namespace softsim
