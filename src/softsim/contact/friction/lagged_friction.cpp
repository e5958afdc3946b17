#include "softsim/contact/friction/lagged_friction.hpp"

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/contact/barrier/ipc_contact.hpp"
#include "softsim/contact/stencil/stencil_assembly.hpp"

namespace softsim {

double assemble_friction(const std::vector<FrictionContact>& contacts, const VertexRows& V, const VertexRows& V0,
                         FrictionSmoothing smoothing, double eps, int num_dof_vertices, const AssemblyOutputs& out) {
  if (contacts.empty()) return 0.0;
  const bool hessian = out.dynamic_hessian != nullptr;
  return assemble_contact_stencils(
      contacts.size(), static_cast<int>(V.cols()), num_dof_vertices, out.weight, out,
      [&](std::size_t i) { return std::pair(contacts[i].ids.data(), contacts[i].num_vertices); },
      [&](std::size_t i, ContactStencilTerm& t) {
        const FrictionContact& c = contacts[i];
        t.value = friction_contact_potential(c, V, V0, smoothing, eps, out.gradient ? &t.grad : nullptr,
                                             hessian ? &t.hess : nullptr, out.project_psd);
        // Each pair's own coefficient (contact.friction.pairs).
        t.value *= c.mu;
        if (out.gradient) t.grad *= c.mu;
        if (hessian) t.hess *= c.mu;
      });
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

std::vector<FrictionContact> ipc_friction_contacts(const IpcContact& contact, const VecX& x) {
  const CollisionMesh& mesh = contact.collision_mesh();
  const IpcOptions& o = contact.options();
  const double kappa = contact.stiffness();
  const double shat = o.dhat * o.dhat;
  const Candidates c = proximity_candidates(mesh, x, o.dhat, o.broad_phase);
  std::vector<FrictionContact> contacts;
  for (FrictionContact& f : classify_friction_contacts(mesh, mesh.positions(x), c)) {
    if (!(f.distance_squared < shat)) continue;
    f.lambda = normal_force_magnitude(o.form, f.distance_squared, o.dhat, kappa);
    if (f.lambda > 0.0) contacts.push_back(std::move(f));
  }
  return contacts;
}

LaggedFriction::LaggedFriction(const IpcContact* contact, const FrictionOptions& options)
    : LaggedFriction(&contact->collision_mesh(), [contact](const VecX& x) { return ipc_friction_contacts(*contact, x); },
                     options) {}

LaggedFriction::LaggedFriction(const CollisionMesh* mesh, ContactSource source, const FrictionOptions& options)
    : mesh_(mesh), source_(std::move(source)), options_(options) {}

void LaggedFriction::freeze(const VecX& x) {
  contacts_.clear();
  if (!options_.any()) return;
  for (FrictionContact& f : source_(x)) {
    f.mu = options_.mu_of_contact(f.num_vertices, f.ids, f.obstacle);
    if (f.mu > 0.0) contacts_.push_back(std::move(f));
  }
}

void LaggedFriction::begin_step(const VecX& x_start) {
  x_start_ = x_start;
  reference_positions_ = mesh_->positions(x_start);
  eps_ = options_.eps_v * h_;
  fixed_point_iteration_ = 1;
  freeze(x_start);
}

void LaggedFriction::set_stage_velocity(const VecX& reference, double scale) {
  if (!(scale > 0.0) || contacts_.empty()) return;
  reference_positions_ = mesh_->positions(reference);
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
  return assemble_friction(contacts_, mesh_->positions(x), reference_positions_, options_.smoothing, eps_,
                           mesh_->num_dof_vertices, out);
}

}  // namespace softsim
