#include "softsim/integrate/reduced_incremental_potential.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "softsim/fem/simplex_elasticity.hpp"

namespace softsim {

namespace {

template <int D>
const SimplexElasticity<D>* as_elasticity(const Energy& term) {
  return dynamic_cast<const SimplexElasticity<D>*>(&term);
}

template <int D>
std::string elasticity_obstacle(const Energy& term) {
  const SimplexElasticity<D>* elasticity = as_elasticity<D>(term);
  if (!elasticity) return fmt::format("the term '{}' is evaluated in positions", term.name());
  if (elasticity->element_weights().empty()) return "an elasticity counts every element (no cubature)";
  if (elasticity->material()->uses_frozen_rotation())
    return "a material with rotations frozen per step (they are computed over the whole mesh)";
  return "";
}

}  // namespace

std::string reduced_evaluation_obstacle(const Model& model) {
  if (model.subspace.empty()) return "no body in a subspace";
  if (model.has_velocity_forces()) return "forces without a potential";
  if (model.constraint_contact) return "constraint contact";
  if (model.rayleigh_beta != 0.0) return "stiffness-proportional damping (beta)";
  if (model.boundary.has_slip()) return "slip conditions";
  if (model.energies().empty()) return "no elasticity";
  for (const auto& term : model.energies()) {
    const std::string why = model.dim() == 2 ? elasticity_obstacle<2>(*term) : elasticity_obstacle<3>(*term);
    if (!why.empty()) return why;
  }
  // A fixed DOF must not move with any coordinate (a reduced body's basis is zero there), so
  // that nothing is left to eliminate.
  const std::vector<char>& fixed = model.boundary.fixed_dofs();
  const SparseMat& rows = model.subspace.basis_t;  // column d = row d of B
  for (int d = 0; d < static_cast<int>(fixed.size()); ++d)
    if (fixed[d] && rows.outerIndexPtr()[d + 1] > rows.outerIndexPtr()[d])
      return "a fixed vertex with coordinates of its own";
  return "";
}

struct ReducedIncrementalPotential::Compact {
  Model model;
  ModelData data;
  std::vector<int> global_vertex;  // of each local vertex
  explicit Compact(int dim) : model(dim) {}
};

namespace {

// Adds to `compact` one elasticity over the elements of `term` that have a positive weight,
// renumbered to local vertices (created on first use).
template <int D>
void add_cubature_elements(const SimplexElasticity<D>& term, const Model& model, Model& compact,
                           std::unordered_map<int, int>& local_of, std::vector<int>& global_vertex) {
  const MatXi& elements = term.elements();
  const std::vector<double>& weights = term.element_weights();
  std::vector<int> chosen;
  for (int e = 0; e < static_cast<int>(elements.rows()); ++e)
    if (weights[e] > 0.0) chosen.push_back(e);
  MatXi local(chosen.size(), D + 1);
  for (std::size_t k = 0; k < chosen.size(); ++k)
    for (int a = 0; a <= D; ++a) {
      const int g = elements(chosen[k], a);
      auto [it, added] = local_of.emplace(g, static_cast<int>(global_vertex.size()));
      if (added) global_vertex.push_back(g);
      local(k, a) = it->second;
    }
  // The compact model's vertices so far (add_vertices appends only the new ones below).
  MatX rest(global_vertex.size(), D);
  for (std::size_t v = 0; v < global_vertex.size(); ++v)
    rest.row(v) = model.rest_positions.segment<D>(global_vertex[v] * D).transpose();
  const int have = compact.num_vertices();
  if (static_cast<int>(global_vertex.size()) > have)
    compact.add_vertices(rest.bottomRows(global_vertex.size() - have));
  auto elasticity = std::make_unique<SimplexElasticity<D>>(local, rest, term.material(), "cubature elements");
  std::vector<double> local_weights(chosen.size());
  for (std::size_t k = 0; k < chosen.size(); ++k) local_weights[k] = weights[chosen[k]];
  elasticity->set_element_weights(std::move(local_weights));
  elasticity->set_inversion_filter(term.inversion_filter());
  compact.add_energy(std::move(elasticity));
}

}  // namespace

ReducedIncrementalPotential::ReducedIncrementalPotential(IncrementalPotential& positions_objective, const Model& model)
    : SubspaceObjective(positions_objective, model.subspace), positions_(positions_objective), model_(model) {
  const std::string why = reduced_evaluation_obstacle(model);
  if (!why.empty()) throw std::invalid_argument("ReducedIncrementalPotential: " + why);
  const int dim = model.dim();
  compact_ = std::make_unique<Compact>(dim);
  std::unordered_map<int, int> local_of;
  for (const auto& term : model.energies()) {
    if (dim == 2)
      add_cubature_elements<2>(*as_elasticity<2>(*term), model, compact_->model, local_of, compact_->global_vertex);
    else
      add_cubature_elements<3>(*as_elasticity<3>(*term), model, compact_->model, local_of, compact_->global_vertex);
  }
  // The compact model's mass is never used (inertia is B^T M B of the whole model), but a model
  // needs one per vertex.
  for (int v = 0; v < compact_->model.num_vertices(); ++v) compact_->model.add_lumped_mass(v, 1.0);
  compact_->model.finalize();
  compact_->data = ModelData(compact_->model);

  // U_T: row (v, a) of the compact model is row (global_vertex[v], a) of B.
  const SubspaceMap& map = model.subspace;
  const int rows = compact_->model.num_dofs();
  std::vector<Triplet> triplets;
  offset_T_.resize(rows);
  for (int v = 0; v < compact_->model.num_vertices(); ++v)
    for (int a = 0; a < dim; ++a) {
      const int row = v * dim + a, dof = compact_->global_vertex[v] * dim + a;
      offset_T_[row] = map.offset[dof];
      for (SparseMat::InnerIterator it(map.basis_t, dof); it; ++it) triplets.emplace_back(row, it.row(), it.value());
    }
  SparseMat U_T(rows, map.num_coordinates());
  U_T.setFromTriplets(triplets.begin(), triplets.end());
  U_T_ = MatX(U_T);
  reduced_mass_ = MatX(map.pull_back(model.mass_matrix()));
  reduced_mass_factor_.compute(reduced_mass_);
  if (reduced_mass_factor_.info() != Eigen::Success || reduced_mass_factor_.vectorD().minCoeff() <= 0.0)
    throw std::invalid_argument("ReducedIncrementalPotential: the reduced mass matrix is not positive definite");
  reduced_force_ = map.pull_back(model.external_force());
  offset_work_ = map.offset.dot(model.external_force());

  const int r = map.num_coordinates();
  column_bound_entry_ = VecX::Zero(r);
  column_bound_vertex_ = VecX::Zero(r);
  for (int c = 0; c < r; ++c) {
    int vertex = -1;
    double sum = 0.0;
    for (SparseMat::InnerIterator it(map.basis, c); it; ++it) {  // rows ascending
      const double a = std::abs(it.value());
      column_bound_entry_[c] = std::max(column_bound_entry_[c], a);
      if (it.row() / dim != vertex) {
        vertex = static_cast<int>(it.row() / dim);
        sum = 0.0;
      }
      sum += a;
      column_bound_vertex_[c] = std::max(column_bound_vertex_[c], sum);
    }
  }
}

ReducedIncrementalPotential::~ReducedIncrementalPotential() = default;

int ReducedIncrementalPotential::num_cubature_vertices() const { return compact_->model.num_vertices(); }

ReducedIncrementalPotential::MassQuadratic ReducedIncrementalPotential::mass_quadratic(const VecX& z) const {
  const SubspaceMap& map = model_.subspace;
  const VecX u = z - map.offset;
  const VecX Mu = model_.mass_times(u);
  const VecX b = map.pull_back(Mu);
  MassQuadratic m;
  m.q_z = reduced_mass_factor_.solve(b);
  m.c0 = 0.5 * (u.dot(Mu) - m.q_z.dot(b));
  return m;
}

// The predictor and damping reference are positions: taken to coordinates once per stage.
void ReducedIncrementalPotential::refresh_step() {
  if (configuration_seen_ == positions_.configuration_count()) return;
  configuration_seen_ = positions_.configuration_count();
  coordinate_step_ = false;
  if (positions_.inertia_weight() != 0.0) inertia_ = mass_quadratic(positions_.predictor());
  if (positions_.damping_weight() != 0.0) damping_ = mass_quadratic(positions_.damping_reference());
}

void ReducedIncrementalPotential::set_coordinate_step(const VecX& predictor, const VecX& damping_reference) {
  configuration_seen_ = positions_.configuration_count();  // refresh_step keeps these
  coordinate_step_ = true;
  inertia_ = {predictor, 0.0};
  damping_ = {damping_reference, 0.0};
}

double ReducedIncrementalPotential::step_norm(const VecX& p, int vertex_l1_dim) const {
  if (!coordinate_step_ || (vertex_l1_dim > 0 && vertex_l1_dim != model_.dim()))
    return SubspaceObjective::step_norm(p, vertex_l1_dim);
  const VecX& bound = vertex_l1_dim > 0 ? column_bound_vertex_ : column_bound_entry_;
  return bound.dot(p.cwiseAbs());
}

double ReducedIncrementalPotential::weighted_potential(const VecX& q, double w, VecX* gradient,
                                                       SparseMat* compact_hessian, bool project_psd) {
  const Model& compact = compact_->model;
  VecX g_T;
  if (gradient) g_T.setZero(compact.num_dofs());
  if (compact_hessian) *compact_hessian = compact.layout().pattern();  // zero values
  std::vector<Triplet> dynamic;
  AssemblyOutputs out{gradient ? &g_T : nullptr, compact_hessian, w, project_psd,
                      compact_hessian ? &dynamic : nullptr};
  double E = compact.potential(EvalContext{positions_.stage(), compact_->data}, cubature_positions(q), out);
  if (!dynamic.empty()) throw std::logic_error("ReducedIncrementalPotential: an elasticity wrote outside its stencils");
  // The constant forces' work, -x . f = -(offset . f + q . B^T f).
  E -= w * (offset_work_ + q.dot(reduced_force_));
  if (gradient) *gradient = U_T_.transpose() * g_T - w * reduced_force_;
  return E;
}

double ReducedIncrementalPotential::potential(const VecX& y, VecX* gradient) {
  return weighted_potential(y, 1.0, gradient, nullptr, false);
}

double ReducedIncrementalPotential::evaluate(const VecX& q, VecX* gradient, SparseMat* hessian, bool project_psd) {
  refresh_step();
  SparseMat H_T;
  double E = weighted_potential(q, positions_.potential_weight(), gradient, hessian ? &H_T : nullptr, project_psd);
  double mass_weight = 0.0;
  // inertia w_i/2 (x - x_pred)^T M (x - x_pred) and mass damping w_d alpha/2 (x - x_ref)^T M (x - x_ref)
  auto add_quadratic = [&](const MassQuadratic& m, double weight) {
    if (weight == 0.0) return;
    const VecX d = q - m.q_z;
    const VecX Md = reduced_mass_ * d;
    E += weight * (0.5 * d.dot(Md) + m.c0);
    if (gradient) *gradient += weight * Md;
    mass_weight += weight;
  };
  add_quadratic(inertia_, positions_.inertia_weight());
  add_quadratic(damping_, positions_.damping_weight() * model_.rayleigh_alpha);
  if (hessian) {
    const MatX HU = H_T * U_T_;
    MatX reduced = U_T_.transpose() * HU;
    if (mass_weight != 0.0) reduced += mass_weight * reduced_mass_;
    // Every non-zero of `reduced` lies in the pattern (bodies' blocks; zeros between bodies).
    *hessian = hessian_pattern();
    for (int c = 0; c < hessian->outerSize(); ++c)
      for (SparseMat::InnerIterator it(*hessian, c); it; ++it) it.valueRef() = reduced(it.row(), c);
  }
  return E;
}

double ReducedIncrementalPotential::max_step_fraction(const VecX& q, const VecX& p) {
  return compact_->model.max_step_fraction(EvalContext{positions_.stage(), compact_->data}, cubature_positions(q),
                                           U_T_ * p);
}

}  // namespace softsim
