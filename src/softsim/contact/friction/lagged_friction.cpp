#include "softsim/contact/friction/lagged_friction.hpp"

#include "softsim/contact/stencil/stencil_assembly.hpp"

namespace softsim {

double assemble_friction(const std::vector<FrictionContact>& contacts, const VertexRows& V, const VertexRows& V0,
                         FrictionSmoothing smoothing, double eps, int num_dof_vertices, const AssemblyOutputs& out,
                         std::vector<ContactStencilTerm>& terms) {
  if (contacts.empty()) return 0.0;
  const bool hessian = out.dynamic_hessian != nullptr;
  return assemble_contact_stencils(
      contacts.size(), [&](std::size_t i) -> const ContactStencil& { return contacts[i].stencil; },
      static_cast<int>(V.cols()), num_dof_vertices, out.weight, out, terms, [&](std::size_t i, ContactStencilTerm& t) {
        const FrictionContact& c = contacts[i];
        t.value = friction_contact_potential(c, V, V0, smoothing, eps, out.gradient ? &t.grad : nullptr,
                                             hessian ? &t.hess : nullptr, out.project_psd);
        // Each pair's own coefficient (contact.friction.pairs).
        t.value *= c.mu;
        if (out.gradient) t.grad *= c.mu;
        if (hessian) t.hess *= c.mu;
      });
}

struct LaggedFriction::Data : TermData {
  std::vector<FrictionContact> contacts;
  VecX x_start;
  int pass = 0;  // fixed-point pass of the current step, 1-based
  // Kept between evaluations: the positions at x and at the reference, the contacts' terms.
  mutable VertexRows positions, reference;
  mutable std::vector<ContactStencilTerm> terms;
};

LaggedFriction::LaggedFriction(std::unique_ptr<FrictionSource> source, const FrictionOptions& options)
    : source_(std::move(source)), options_(options) {}

std::unique_ptr<TermData> LaggedFriction::make_data() const { return std::make_unique<Data>(); }

const std::vector<FrictionContact>& LaggedFriction::contacts(const ModelData& data) const {
  return data.of<Data>(this).contacts;
}

void LaggedFriction::begin_step(const StepContext& ctx, const VecX& x_start) const {
  Data& data = ctx.data.of<Data>(this);
  data.x_start = x_start;
  data.pass = 1;
  data.contacts.clear();
  if (options_.any()) data.contacts = source_->contacts(ctx.eval(), x_start);
}

bool LaggedFriction::after_solve(const StepContext& ctx, const VecX& x) const {
  Data& data = ctx.data.of<Data>(this);
  if (!options_.any() || data.pass >= options_.iterations) return false;
  ++data.pass;
  data.contacts = source_->contacts(ctx.eval(), x);
  return true;
}

double LaggedFriction::evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  const Data& data = ctx.data.of<Data>(this);
  const Stage& stage = ctx.stage;
  if (data.contacts.empty() || !(stage.h > 0.0)) return 0.0;
  // u is measured from the stage's velocity reference with eps = eps_v / scale; a solve without
  // a velocity map (the step's start forces) measures it from the step's start, eps = eps_v h.
  const bool mapped = stage.has_velocity_map();
  source_->positions(mapped ? stage.velocity_reference : data.x_start, data.reference);
  source_->positions(x, data.positions);
  const double eps = mapped ? options_.eps_v / stage.velocity_scale : options_.eps_v * stage.h;
  return assemble_friction(data.contacts, data.positions, data.reference, options_.smoothing, eps,
                           source_->num_dof_vertices(), out, data.terms);
}

}  // namespace softsim
