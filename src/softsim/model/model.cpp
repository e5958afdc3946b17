#include "softsim/model/model.hpp"

#include <stdexcept>

namespace softsim {

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

int Model::add_energy(std::unique_ptr<Energy> term) {
  energies_.push_back(std::move(term));
  return static_cast<int>(energies_.size()) - 1;
}

int Model::add_force(std::unique_ptr<VelocityForce> force) {
  forces_.push_back(std::move(force));
  return static_cast<int>(forces_.size()) - 1;
}

void Model::add_velocity_forces(const VecX& q, const VecX& v, double c, double weight, VecX* force,
                                std::vector<Triplet>* jacobian) const {
  for (const auto& f : forces_) f->add_force(q, v, c, weight, force, jacobian);
}

void Model::velocity_forces_jacobian_times(const VecX& q, const VecX& v, double c, const VecX& p, double weight,
                                           VecX& out) const {
  for (const auto& f : forces_) f->add_jacobian_times(q, v, c, p, weight, out);
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
}

double Model::potential(const VecX& x, const AssemblyOutputs& out) const {
  double total = -out.weight * x.dot(external_force_);
  if (out.gradient) *out.gradient -= out.weight * external_force_;
  for (const auto& term : energies_) total += term->evaluate(x, out);
  return total;
}

void Model::potential_hessian_times(const VecX& x, const VecX& p, double weight, VecX& out) const {
  std::vector<int> assembled;
  for (std::size_t k = 0; k < energies_.size(); ++k)
    if (!energies_[k]->gradient_jvp(x, p, weight, out)) assembled.push_back(static_cast<int>(k));
  if (assembled.empty()) return;
  AssembledProductHessian& cache = product_hessian_;
  const bool same_point = cache.valid && cache.terms == assembled && cache.x.size() == x.size() &&
                          (cache.x.array() == x.array()).all();
  if (!same_point) {
    // Each term is linear in the weight: assemble once at weight 1, scale the product.
    SparseMat H = layout_.pattern();
    std::vector<Triplet> dynamic;
    for (int k : assembled) energies_[k]->evaluate(x, AssemblyOutputs{nullptr, &H, 1.0, false, &dynamic});
    SparseMat D(H.rows(), H.cols());
    D.setFromTriplets(dynamic.begin(), dynamic.end());
    cache.H = H + D;
    cache.H.prune([](Eigen::Index, Eigen::Index, double value) { return value != 0.0; });
    cache.x = x;
    cache.terms = std::move(assembled);
    cache.valid = true;
    ++cache.assemblies;
  }
  out.noalias() += weight * (cache.H * p);
}

void Model::rank_one_hessian(const VecX& x, double weight, std::vector<RankOneHessian>& out) const {
  for (const auto& term : energies_) term->rank_one_hessian(x, weight, out);
}

void Model::begin_step(const VecX& x_start, double t, double h) {
  product_hessian_.valid = false;
  for (auto& term : energies_) {
    term->set_time_step(t, h);
    term->begin_step(x_start);
  }
  for (auto& force : forces_) {
    force->set_time_step(t, h);
    force->begin_step(x_start);
  }
}

void Model::set_stage_fraction(double c) {
  product_hessian_.valid = false;
  for (auto& term : energies_) term->set_stage_fraction(c);
}

void Model::set_stage_velocity(const VecX& reference, double scale) {
  product_hessian_.valid = false;
  for (auto& term : energies_) term->set_stage_velocity(reference, scale);
}

void Model::end_iteration(const VecX& x) {
  product_hessian_.valid = false;
  for (auto& term : energies_) term->end_iteration(x);
}

bool Model::stiffen_unmet_penalties(const VecX& x) {
  product_hessian_.valid = false;
  bool any = false;
  for (auto& term : energies_) any = term->stiffen_if_unmet(x) || any;
  return any;
}

double Model::max_step_fraction(const VecX& x, const VecX& p) const {
  double alpha = 1.0;
  for (const auto& term : energies_) alpha = std::min(alpha, term->max_step_fraction(x, p));
  return alpha;
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
