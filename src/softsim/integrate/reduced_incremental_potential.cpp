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

// Whether `term` is an elasticity, which the reduced evaluation counts by cubature; every other
// term is evaluated in positions.
bool is_elasticity(const Energy& term, int dim) {
  return dim == 2 ? as_elasticity<2>(term) != nullptr : as_elasticity<3>(term) != nullptr;
}

// Why `term` stops the evaluation by bodies: an elasticity that counts every element, or one
// whose rotations are frozen over the whole mesh, or a term that holds DOFs (their elimination
// is in positions). Other terms are evaluated in positions.
template <int D>
std::string term_obstacle(const Energy& term) {
  if (term.may_hold_dofs())
    return fmt::format("the term '{}' holds DOFs (a motion prescribed by a penalty that holds met targets)",
                       term.name());
  const SimplexElasticity<D>* elasticity = as_elasticity<D>(term);
  if (!elasticity) return "";
  if (elasticity->element_weights().empty()) return "an elasticity counts every element (no cubature)";
  if (elasticity->material()->uses_frozen_rotation())
    return "a material with rotations frozen per step (they are computed over the whole mesh)";
  return "";
}


// reduced_evaluation_obstacle for a model with a subspace, whose blocks the caller has.
std::string obstacle_with_blocks(const Model& model, const SubspaceBlocks& blocks) {
  if (model.has_velocity_forces()) return "forces without a potential";
  if (model.constraint_contact) return "constraint contact";
  // Stiffness-proportional damping is beta B^T K(x^n) B with K over the cubature elements
  // (set_stiffness_damping_start); a term in positions would need K of its own at x^n as well.
  if (model.rayleigh_beta != 0.0)
    for (const auto& term : model.energies())
      if (!is_elasticity(*term, model.dim()))
        return fmt::format("stiffness-proportional damping (beta) with a term evaluated in positions ('{}')",
                           term->name());
  if (model.boundary.has_slip()) return "slip conditions";
  for (const auto& term : model.energies()) {
    const std::string why = model.dim() == 2 ? term_obstacle<2>(*term) : term_obstacle<3>(*term);
    if (!why.empty()) return why;
  }
  // A vertex outside every body in a subspace is a block of its own dim coordinates; its terms
  // would all be pulled back entry by entry (a full FEM body among affine ones): the positions
  // path does that better.
  std::vector<int> dofs_of_block(blocks.num_blocks(), 0);
  for (int k : blocks.block_of_dof)
    if (k >= 0) ++dofs_of_block[k];
  for (int k = 0; k < blocks.num_blocks(); ++k)
    if (blocks.width(k) == model.dim() && dofs_of_block[k] == model.dim())
      return "a vertex with DOFs of its own (a body outside any subspace)";
  // A fixed DOF must not move with any coordinate (a reduced body's basis is zero there), so
  // that nothing is left to eliminate.
  const std::vector<char>& fixed = model.boundary.fixed_dofs();
  const SparseMat& rows = model.subspace.basis_t;  // column d = row d of B
  for (int d = 0; d < static_cast<int>(fixed.size()); ++d)
    if (fixed[d] && rows.outerIndexPtr()[d + 1] > rows.outerIndexPtr()[d])
      return "a fixed vertex with coordinates of its own";
  return "";
}

}  // namespace

std::string reduced_evaluation_obstacle(const Model& model) {
  if (model.subspace.empty()) return "no body in a subspace";
  return obstacle_with_blocks(model, subspace_blocks(model.subspace, model.dim()));
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
    : SubspaceObjective(positions_objective, model.subspace),
      positions_(positions_objective),
      model_(model),
      blocks_(subspace_blocks(model.subspace, model.dim())),
      hessian_blocks_(blocks_),
      stiffness_damping_(blocks_) {
  const std::string why = model.subspace.empty() ? "no body in a subspace" : obstacle_with_blocks(model, blocks_);
  if (!why.empty()) throw std::invalid_argument("ReducedIncrementalPotential: " + why);
  const int dim = model.dim();
  auto compact = std::make_unique<Compact>(dim);
  std::unordered_map<int, int> local_of;
  for (const auto& term : model.energies()) {
    if (!is_elasticity(*term, dim))
      positions_terms_.push_back(term.get());
    else if (dim == 2)
      add_cubature_elements<2>(*as_elasticity<2>(*term), model, compact->model, local_of, compact->global_vertex);
    else
      add_cubature_elements<3>(*as_elasticity<3>(*term), model, compact->model, local_of, compact->global_vertex);
  }
  if (compact->model.num_vertices() > 0) {
    // The compact model's mass is never used (inertia is B^T M B of the whole model), but a
    // model needs one per vertex.
    for (int v = 0; v < compact->model.num_vertices(); ++v) compact->model.add_lumped_mass(v, 1.0);
    compact->model.finalize();
    compact->data = ModelData(compact->model);
    compact_ = std::move(compact);
  }

  const SubspaceMap& map = model.subspace;
  if (compact_) {
    // The compact DOFs of each body: from its first to its last compact vertex. Elements never
    // span bodies and each body's elements are added together, so the ranges are disjoint; a
    // vertex whose DOFs are all fixed has zero rows of B and belongs to no body's range.
    const int rows = compact_->model.num_dofs();
    offset_T_.resize(rows);
    std::vector<int> first(blocks_.num_blocks(), -1), end(blocks_.num_blocks(), -1);
    for (int v = 0; v < compact_->model.num_vertices(); ++v) {
      int block = -1;
      for (int a = 0; a < dim; ++a) {
        const int dof = compact_->global_vertex[v] * dim + a;
        offset_T_[v * dim + a] = map.offset[dof];
        if (blocks_.block_of_dof[dof] >= 0) block = blocks_.block_of_dof[dof];
      }
      if (block < 0) continue;
      if (first[block] < 0) first[block] = v * dim;
      end[block] = (v + 1) * dim;
    }
    for (int k = 0; k < blocks_.num_blocks(); ++k)
      if (first[k] >= 0) compact_blocks_.push_back({k, first[k], end[k] - first[k], {}});
    std::sort(compact_blocks_.begin(), compact_blocks_.end(),
              [](const CompactBlock& a, const CompactBlock& b) { return a.first_dof < b.first_dof; });
    for (std::size_t k = 1; k < compact_blocks_.size(); ++k)
      if (compact_blocks_[k].first_dof < compact_blocks_[k - 1].first_dof + compact_blocks_[k - 1].num_dofs)
        throw std::logic_error("ReducedIncrementalPotential: a body's cubature vertices are not contiguous");
    for (CompactBlock& cb : compact_blocks_) {
      cb.U.setZero(cb.num_dofs, blocks_.width(cb.block));
      for (int row = 0; row < cb.num_dofs; ++row) {
        const int local = cb.first_dof + row;
        const int dof = compact_->global_vertex[local / dim] * dim + local % dim;
        for (int p = blocks_.row_start[dof]; p < blocks_.row_start[dof + 1]; ++p)
          cb.U(row, blocks_.row_column[p]) = blocks_.row_value[p];
      }
    }
  }
  // The support of the terms in positions, when each has one.
  std::vector<int> vertices;
  support_ = !positions_terms_.empty();
  for (const Energy* term : positions_terms_)
    if (support_ && !term->vertex_support(vertices)) support_ = false;
  hooks_on_support_ = support_;
  for (const auto& term : model_.energies())
    if (term->hooks_read_all_positions()) hooks_on_support_ = false;
  if (support_) {
    std::sort(vertices.begin(), vertices.end());
    vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
    for (int v : vertices)
      for (int a = 0; a < dim; ++a) support_dofs_.push_back(v * dim + a);
    std::vector<Triplet> rows;
    support_offset_.resize(support_dofs_.size());
    for (std::size_t k = 0; k < support_dofs_.size(); ++k) {
      const int d = support_dofs_[k];
      support_offset_[k] = map.offset[d];
      for (SparseMat::InnerIterator it(map.basis_t, d); it; ++it)
        rows.emplace_back(static_cast<int>(k), static_cast<int>(it.row()), it.value());
    }
    support_basis_.resize(static_cast<Eigen::Index>(support_dofs_.size()), map.num_coordinates());
    support_basis_.setFromTriplets(rows.begin(), rows.end());
  }

  reduced_mass_ = map.pull_back(model.mass_matrix());
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

int ReducedIncrementalPotential::num_cubature_vertices() const { return compact_ ? compact_->model.num_vertices() : 0; }

void ReducedIncrementalPotential::to_compact(const VecX& p, bool with_offset, VecX& out) const {
  if (with_offset)
    out = offset_T_;
  else
    out.setZero(offset_T_.size());
  for (const CompactBlock& cb : compact_blocks_)
    out.segment(cb.first_dof, cb.num_dofs).noalias() += cb.U * p.segment(blocks_.start[cb.block], cb.U.cols());
}

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

void ReducedIncrementalPotential::set_stiffness_damping_start(const VecX& y_start) {
  stiffness_damping_.clear();
  stiffness_damping_set_ = true;
  if (model_.rayleigh_beta == 0.0) return;
  // As rayleigh_damping_matrix takes K in positions: the potential's PSD-projected Hessian.
  weighted_potential(y_start, model_.rayleigh_beta, nullptr, true, true);
  stiffness_damping_.add(hessian_blocks_, 1.0);
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

double ReducedIncrementalPotential::weighted_potential(const VecX& q, double w, VecX* gradient, bool hessian,
                                                       bool project_psd) {
  const int r = model_.subspace.num_coordinates();
  if (gradient) gradient->setZero(r);
  if (hessian) hessian_blocks_.clear();
  // The constant forces' work, -x . f = -(offset . f + q . B^T f).
  double E = -w * (offset_work_ + q.dot(reduced_force_));
  if (gradient) *gradient -= w * reduced_force_;
  if (compact_) {
    const Model& compact = compact_->model;
    to_compact(q, true, x_T_);
    const AssemblyOutputs out = zeroed_outputs(gradient ? &g_T_ : nullptr, hessian ? &H_T_ : nullptr, dynamic_,
                                               compact.num_dofs(), compact.layout().pattern(), w, project_psd);
    E += compact.potential(EvalContext{positions_.stage(), compact_->data}, x_T_, out);
    if (!dynamic_.empty()) throw std::logic_error("ReducedIncrementalPotential: an elasticity wrote outside its stencils");
    for (const CompactBlock& cb : compact_blocks_) {
      const int first = blocks_.start[cb.block], width = static_cast<int>(cb.U.cols());
      if (gradient) gradient->segment(first, width).noalias() += cb.U.transpose() * g_T_.segment(cb.first_dof, cb.num_dofs);
      if (!hessian) continue;
      // H_a U_a over the body's compact DOFs (the compact Hessian is block-diagonal by body),
      // then U_a^T of it into the body's block.
      HU_.setZero(cb.num_dofs, width);
      // Rows outside the body's range are fixed vertices of its elements: zero rows of B.
      for (int j = 0; j < cb.num_dofs; ++j)
        for (SparseMat::InnerIterator it(H_T_, cb.first_dof + j); it; ++it) {
          const Eigen::Index row = it.row() - cb.first_dof;
          if (row >= 0 && row < cb.num_dofs) HU_.row(row) += it.value() * cb.U.row(j);
        }
      hessian_blocks_.block(cb.block, cb.block).noalias() += cb.U.transpose() * HU_;
    }
  }
  if (!positions_terms_.empty()) {
    const VecX& x = support_positions_at(q);
    const AssemblyOutputs out = positions_outputs(gradient != nullptr, hessian, w, project_psd);
    const EvalContext ctx = positions_.context();
    for (const Energy* term : positions_terms_) {
      E += term->evaluate(ctx, x, out);
      if (!std::isfinite(E)) return E;
    }
    if (gradient) add_pulled_back_gradient(*gradient);
    if (hessian) {
      if (support_)
        hessian_blocks_.add_entries(H_full_, support_dofs_);
      else
        hessian_blocks_.add_entries(H_full_);
      hessian_blocks_.add_entries(dynamic_);
    }
  }
  return E;
}

double ReducedIncrementalPotential::potential(const VecX& y, VecX* gradient) {
  return weighted_potential(y, 1.0, gradient, false, false);
}

double ReducedIncrementalPotential::evaluate(const VecX& q, VecX* gradient, SparseMat* hessian, bool project_psd) {
  refresh_step();
  double E = weighted_potential(q, positions_.potential_weight(), gradient, hessian != nullptr, project_psd);
  if (!std::isfinite(E)) return E;
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
  // Stiffness damping w_d/2 (q - q_ref)^T beta K_r (q - q_ref), K_r frozen at the step's start:
  // the positions path's w_d/2 (x - x_ref)^T beta K (x - x_ref) for an x_ref in the subspace
  // (a past state), whose coordinates the mass projection gives exactly.
  const double stiffness_weight = model_.rayleigh_beta != 0.0 ? positions_.damping_weight() : 0.0;
  if (stiffness_weight != 0.0) {
    if (!stiffness_damping_set_)
      throw std::logic_error("ReducedIncrementalPotential: stiffness damping without set_stiffness_damping_start");
    damping_difference_ = q - damping_.q_z;
    damping_product_.setZero(q.size());
    stiffness_damping_.multiply_add(damping_difference_, 1.0, damping_product_);
    E += stiffness_weight * 0.5 * damping_difference_.dot(damping_product_);
    if (gradient) *gradient += stiffness_weight * damping_product_;
    if (hessian) hessian_blocks_.add(stiffness_damping_, stiffness_weight);
  }
  if (hessian) {
    if (mass_weight != 0.0)  // B^T M B is block-diagonal by body
      for (int c = 0; c < reduced_mass_.outerSize(); ++c) {
        const int block = blocks_.block_of_coordinate[c], first = blocks_.start[block];
        MatX& m = hessian_blocks_.block(block, block);
        for (SparseMat::InnerIterator it(reduced_mass_, c); it; ++it)
          m(it.row() - first, c - first) += mass_weight * it.value();
      }
    hessian_blocks_.write(hessian_pattern(), *hessian);
  }
  return E;
}

double ReducedIncrementalPotential::max_step_fraction(const VecX& q, const VecX& p) {
  double alpha = 1.0;
  if (compact_) {
    to_compact(q, true, x_T_);
    to_compact(p, false, step_T_);
    alpha = compact_->model.max_step_fraction(EvalContext{positions_.stage(), compact_->data}, x_T_, step_T_);
  }
  if (positions_terms_.empty()) return alpha;
  const VecX& x = support_positions_at(q);
  if (support_) {
    // The other entries stay zero: the end point keeps them where x has them.
    if (step_full_.size() != model_.num_dofs()) step_full_.setZero(model_.num_dofs());
    support_values_.noalias() = support_basis_ * p;
    for (std::size_t k = 0; k < support_dofs_.size(); ++k) step_full_[support_dofs_[k]] = support_values_[k];
  } else {
    step_full_.noalias() = model_.subspace.basis * p;
  }
  const EvalContext ctx = positions_.context();
  for (const Energy* term : positions_terms_) alpha = std::min(alpha, term->max_step_fraction(ctx, x, step_full_));
  return alpha;
}

void ReducedIncrementalPotential::rank_one_hessian(const VecX& q, std::vector<RankOneHessian>& out) {
  if (positions_terms_.empty()) {
    out.clear();
    return;
  }
  positions_.rank_one_hessian(support_positions_at(q), out);  // an evaluation: on the support
  for (RankOneHessian& term : out) term.u = model_.subspace.pull_back(term.u);
}

bool ReducedIncrementalPotential::end_iteration(const VecX& q) {
  if (positions_terms_.empty()) return false;
  const auto whole = [&]() -> const VecX& { return positions_at(q); };
  return positions_.end_iteration(hook_positions_at(q), whole);
}

bool ReducedIncrementalPotential::before_stop(const VecX& q) {
  if (positions_terms_.empty()) return false;
  const auto whole = [&]() -> const VecX& { return positions_at(q); };
  return positions_.before_stop(hook_positions_at(q), whole);
}

namespace {
bool same_coordinates(const VecX& a, const VecX& b) { return a.size() == b.size() && a == b; }
}  // namespace

const VecX& ReducedIncrementalPotential::positions_at(const VecX& q) {
  if (!same_coordinates(x_all_of_, q)) {
    x_all_ = model_.subspace.offset;
    x_all_.noalias() += model_.subspace.basis * q;
    x_all_of_ = q;
    ++whole_positions_formed_;
  }
  return x_all_;
}

const VecX& ReducedIncrementalPotential::support_positions_at(const VecX& q) {
  if (!support_) return positions_at(q);
  if (same_coordinates(x_support_of_, q)) return x_support_;
  if (x_support_.size() == 0) {
    x_support_ = positions_at(q);
  } else {
    support_values_.noalias() = support_basis_ * q;
    for (std::size_t k = 0; k < support_dofs_.size(); ++k)
      x_support_[support_dofs_[k]] = support_offset_[k] + support_values_[k];
  }
  x_support_of_ = q;
  return x_support_;
}

const VecX& ReducedIncrementalPotential::hook_positions_at(const VecX& q) {
  return hooks_on_support_ ? support_positions_at(q) : positions_at(q);
}

AssemblyOutputs ReducedIncrementalPotential::positions_outputs(bool gradient, bool hessian, double weight,
                                                                bool project_psd) {
  const int n = model_.num_dofs();
  if (!support_)
    return zeroed_outputs(gradient ? &g_full_ : nullptr, hessian ? &H_full_ : nullptr, dynamic_, n,
                          model_.layout().pattern(), weight, project_psd);
  // The terms write on the support only: clear what they wrote there (everything, the first time).
  if (gradient) {
    if (g_full_.size() != n)
      g_full_.setZero(n);
    else
      for (int d : support_dofs_) g_full_[d] = 0.0;
  }
  if (hessian) {
    if (H_full_.rows() != n) {
      H_full_ = model_.layout().pattern();
      std::fill(H_full_.valuePtr(), H_full_.valuePtr() + H_full_.nonZeros(), 0.0);
    } else {
      const int* outer = H_full_.outerIndexPtr();
      for (int d : support_dofs_) std::fill(H_full_.valuePtr() + outer[d], H_full_.valuePtr() + outer[d + 1], 0.0);
    }
  }
  dynamic_.clear();
  return {gradient ? &g_full_ : nullptr, hessian ? &H_full_ : nullptr, weight, project_psd,
          hessian ? &dynamic_ : nullptr};
}

void ReducedIncrementalPotential::add_pulled_back_gradient(VecX& gradient) {
  if (!support_) {
    gradient.noalias() += model_.subspace.basis_t * g_full_;
    return;
  }
  support_values_.resize(static_cast<Eigen::Index>(support_dofs_.size()));
  for (std::size_t k = 0; k < support_dofs_.size(); ++k) support_values_[k] = g_full_[support_dofs_[k]];
  gradient.noalias() += support_basis_.transpose() * support_values_;
}

}  // namespace softsim
