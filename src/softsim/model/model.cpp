#include "softsim/model/model.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>

#include "softsim/core/debug_output.hpp"

namespace softsim {

Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

int Model::add_vertices(const MatX& vertices) {
  if (finalized()) throw std::logic_error("Model: add_vertices after finalize");
  const int first = num_vertices();
  const VecX x = flatten_rows(vertices);
  rest_positions.conservativeResize(rest_positions.size() + x.size());
  rest_positions.tail(x.size()) = x;
  initial_velocity.conservativeResize(rest_positions.size());
  initial_velocity.tail(x.size()).setZero();
  lumped_.resize(num_vertices(), 0.0);
  return first;
}

void Model::add_lumped_mass(int vertex, double mass) { lumped_[vertex] += mass; }

void Model::add_mass_triplet(int row, int col, double value) { mass_triplets_.emplace_back(row, col, value); }

namespace {

// Terms read the data only of terms added before them, whose hooks therefore run first.
template <class Term>
void check_reads(const Term& term, const std::vector<std::unique_ptr<Energy>>& energies) {
  for (const Energy* read : term.reads_data_of()) {
    const bool before = std::any_of(energies.begin(), energies.end(), [&](const auto& e) { return e.get() == read; });
    if (!before)
      throw std::logic_error("Model: '" + term.name() + "' reads the data of a term that is not in the model before it");
  }
}

}  // namespace

int Model::add_energy(std::unique_ptr<Energy> term) {
  if (finalized()) throw std::logic_error("Model: add_energy after finalize");
  check_reads(*term, energies_);
  energies_.push_back(std::move(term));
  return static_cast<int>(energies_.size()) - 1;
}

int Model::add_force(std::unique_ptr<VelocityForce> force) {
  check_reads(*force, energies_);
  forces_.push_back(std::move(force));
  return static_cast<int>(forces_.size()) - 1;
}

std::vector<double> Model::vertex_masses() const {
  std::vector<double> m = lumped_;
  for (const Triplet& t : mass_triplets_)
    if (t.row() % dim_ == 0) m[t.row() / dim_] += t.value();
  return m;
}

void Model::finalize() {
  const int n = num_vertices();
  // Models without boundary conditions never sized them.
  if (boundary.fixed_dofs().size() != static_cast<std::size_t>(num_dofs())) boundary.set_dimensions(n, dim_);
  layout_ = HessianLayout(n, dim_);
  for (auto& term : energies_) term->declare_stencils(layout_);
  layout_.finalize();

  std::vector<Triplet> triplets = mass_triplets_;
  for (int v = 0; v < n; ++v)
    for (int d = 0; d < dim_; ++d)
      if (lumped_[v] != 0.0) triplets.emplace_back(v * dim_ + d, v * dim_ + d, lumped_[v]);
  mass_.resize(num_dofs(), num_dofs());
  mass_.setFromTriplets(triplets.begin(), triplets.end());
  mass_.makeCompressed();
  // Map each mass non-zero into the layout (consistent mass couples vertices of one element,
  // which the elasticity stencils already put in the pattern).
  const SparseMat& P = layout_.pattern();
  mass_to_layout_.clear();
  for (int c = 0; c < mass_.outerSize(); ++c) {
    const int* begin = P.innerIndexPtr() + P.outerIndexPtr()[c];
    const int* end = P.innerIndexPtr() + P.outerIndexPtr()[c + 1];
    for (SparseMat::InnerIterator it(mass_, c); it; ++it) {
      const int* pos = std::lower_bound(begin, end, static_cast<int>(it.row()));
      if (pos == end || *pos != it.row())
        throw std::logic_error("Model: consistent mass couples vertices that share no stencil");
      mass_to_layout_.push_back(static_cast<int>(pos - P.innerIndexPtr()));
    }
  }
  VecX g_stacked = VecX::Zero(num_dofs());
  for (int v = 0; v < n; ++v) g_stacked.segment(v * dim_, dim_) = gravity.head(dim_);
  external_force_ = mass_ * g_stacked;
  if (nodal_forces.size() == num_dofs()) external_force_ += nodal_forces;
  for (int v = 0; v < n; ++v) {
    double diag = 0.0;
    for (int d = 0; d < dim_; ++d) diag += mass_.coeff(v * dim_ + d, v * dim_ + d);
    if (!(diag > 0.0)) throw std::logic_error("Model: vertex " + std::to_string(v) + " has no mass");
  }
  mass_lower_bound_ = 0.0;
  if (mass_triplets_.empty() && n > 0) mass_lower_bound_ = *std::min_element(lumped_.begin(), lumped_.begin() + n);
}

bool Model::hessians_psd_when_projected() const {
  if (!forces_.empty()) return false;
  for (const auto& term : energies_)
    if (!term->hessian_psd_when_projected()) return false;
  return true;
}

double Model::potential(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  double total = -out.weight * x.dot(external_force_);
  if (out.gradient) *out.gradient -= out.weight * external_force_;
  for (const auto& term : energies_) total += term->evaluate(ctx, x, out);
  return total;
}

namespace {

// The terms' operators in term order, then the summed assembled Hessian of the terms without
// one (assembled at weight 1: each term is linear in its weight, so the product is scaled).
class PotentialHessian : public HessianOperator {
 public:
  std::vector<std::unique_ptr<HessianOperator>> operators;
  SparseMat assembled;
  bool has_assembled = false;
  void add_product(const VecX& p, double weight, VecX& out) const override {
    for (const auto& op : operators) op->add_product(p, weight, out);
    if (has_assembled) out.noalias() += weight * (assembled * p);
  }
};

}  // namespace

std::unique_ptr<HessianOperator> Model::potential_hessian(const EvalContext& ctx, const VecX& x) const {
  auto op = std::make_unique<PotentialHessian>();
  std::vector<int> assembled;
  for (std::size_t k = 0; k < energies_.size(); ++k) {
    if (auto term_op = energies_[k]->hessian_operator(ctx, x)) op->operators.push_back(std::move(term_op));
    else assembled.push_back(static_cast<int>(k));
  }
  if (!assembled.empty()) {
    SparseMat H = layout_.pattern();
    std::vector<Triplet> dynamic;
    for (int k : assembled) energies_[k]->evaluate(ctx, x, AssemblyOutputs{nullptr, &H, 1.0, false, &dynamic});
    SparseMat D(H.rows(), H.cols());
    D.setFromTriplets(dynamic.begin(), dynamic.end());
    op->assembled = H + D;
    op->assembled.prune([](Eigen::Index, Eigen::Index, double value) { return value != 0.0; });
    op->has_assembled = true;
  }
  return op;
}

void Model::rank_one_hessian(const EvalContext& ctx, const VecX& x, double weight,
                             std::vector<RankOneHessian>& out) const {
  for (const auto& term : energies_) term->rank_one_hessian(ctx, x, weight, out);
}

template <class Hook>
bool Model::run_hook(const Stage& stage, ModelData& data, FunctionRef<const VecX&()> whole, Hook&& hook) const {
  bool any = false;
  for (std::size_t k = 0; k < energies_.size(); ++k) {
    // The gradient of every other potential at x, with the external forces' work, on request.
    const auto other_gradient = [&, k]() {
      const VecX& x = whole();
      VecX g = -external_force_;
      const EvalContext ctx{stage, data};
      for (std::size_t j = 0; j < energies_.size(); ++j)
        if (j != k) energies_[j]->evaluate(ctx, x, AssemblyOutputs{&g, nullptr, 1.0, false});
      return g;
    };
    any = hook(*energies_[k], StepContext{stage, data, other_gradient, whole}) || any;
  }
  return any;
}

void Model::begin_step(const Stage& stage, ModelData& data, const VecX& x_start) const {
  const auto whole = [&]() -> const VecX& { return x_start; };
  run_hook(stage, data, whole, [&](const Energy& term, const StepContext& ctx) {
    term.begin_step(ctx, x_start);
    return false;
  });
}

std::vector<int> Model::held_dofs(const ModelData& data) const {
  std::vector<int> dofs;
  held_dofs(data, dofs);
  return dofs;
}

void Model::held_dofs(const ModelData& data, std::vector<int>& dofs) const {
  dofs.clear();
  for (const auto& term : energies_) term->held_dofs(data, dofs);
}

bool Model::end_iteration(const Stage& stage, ModelData& data, const VecX& x) const {
  const auto whole = [&]() -> const VecX& { return x; };
  return end_iteration(stage, data, x, whole);
}

bool Model::end_iteration(const Stage& stage, ModelData& data, const VecX& x, FunctionRef<const VecX&()> whole) const {
  return run_hook(stage, data, whole, [&](const Energy& term, const StepContext& ctx) { return term.end_iteration(ctx, x); });
}

bool Model::after_solve(const Stage& stage, ModelData& data, const VecX& x) const {
  const auto whole = [&]() -> const VecX& { return x; };
  return after_solve(stage, data, x, whole);
}

bool Model::after_solve(const Stage& stage, ModelData& data, const VecX& x, FunctionRef<const VecX&()> whole) const {
  return run_hook(stage, data, whole, [&](const Energy& term, const StepContext& ctx) { return term.after_solve(ctx, x); });
}

double Model::max_step_fraction(const EvalContext& ctx, const VecX& x, const VecX& p) const {
  double alpha = 1.0;
  const bool debug = newton_debug_enabled();
  for (const auto& term : energies_) {
    const double a = term->max_step_fraction(ctx, x, p);
    if (debug && a < 1.0) std::fprintf(stderr, "  step filter: %s allows %.3g of the step\n", term->name().c_str(), a);
    alpha = std::min(alpha, a);
  }
  return alpha;
}

void Model::add_velocity_forces(const EvalContext& ctx, const VecX& q, const VecX& v, double c, double weight,
                                VecX* force, std::vector<Triplet>* jacobian) const {
  for (const auto& f : forces_) f->add_force(ctx, q, v, c, weight, force, jacobian);
}

void Model::velocity_forces_jacobian_times(const EvalContext& ctx, const VecX& q, const VecX& v, double c,
                                           const VecX& p, double weight, VecX& out) const {
  for (const auto& f : forces_) f->add_jacobian_times(ctx, q, v, c, p, weight, out);
}

void Model::add_mass_to(SparseMat& H, double weight) const {
  double* dst = H.valuePtr();
  const double* src = mass_.valuePtr();
  for (std::size_t i = 0; i < mass_to_layout_.size(); ++i) dst[mass_to_layout_[i]] += weight * src[i];
}

double Model::total_mass() const {
  // Sum over the x-components of M * 1.
  VecX ones = VecX::Zero(num_dofs());
  for (int v = 0; v < num_vertices(); ++v) ones[v * dim_] = 1.0;
  return ones.dot(mass_ * ones);
}

}  // namespace softsim
