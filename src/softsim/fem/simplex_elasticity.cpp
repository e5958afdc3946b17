#include "softsim/fem/simplex_elasticity.hpp"

#include <fmt/format.h>

#include <Eigen/LU>
#include <limits>
#include <stdexcept>

#include "softsim/core/errors.hpp"
#include "softsim/core/parallel_min.hpp"
#include "softsim/core/polynomial.hpp"
#include "softsim/material/svd.hpp"

namespace softsim {

namespace {

template <int D>
MatD<D> edge_matrix(const VecX& x, const MatXi& elements, int e) {
  MatD<D> Ds;
  const auto x0 = x.segment<D>(elements(e, 0) * D);
  for (int a = 1; a <= D; ++a) Ds.col(a - 1) = x.segment<D>(elements(e, a) * D) - x0;
  return Ds;
}

double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }

}  // namespace

template <int D>
SimplexElasticity<D>::SimplexElasticity(const MatXi& elements, const MatX& rest,
                                        std::shared_ptr<const Material<D>> material, const std::string& source)
    : elements_(elements), material_(std::move(material)) {
  const int m = static_cast<int>(elements.rows());
  rest_inverse_.resize(m);
  volume_.resize(m);
  const VecX X = flatten_rows(rest);
  double scale = 0.0;
  for (int e = 0; e < m; ++e) scale = std::max(scale, edge_matrix<D>(X, elements_, e).cwiseAbs().maxCoeff());
  for (int e = 0; e < m; ++e) {
    const MatD<D> Dm = edge_matrix<D>(X, elements_, e);
    const double det = Dm.determinant();
    if (!(det > 1e-12 * std::pow(scale, D)))
      throw InputError(fmt::format("{}: element {} is {} at rest (signed measure {:g})", source, e,
                                   det < 0 ? "inverted" : "degenerate", det / factorial(D)));
    rest_inverse_[e] = Dm.inverse();
    volume_[e] = det / factorial(D);
  }
}

template <int D>
struct SimplexElasticity<D>::FrozenRotations : TermData {
  std::vector<MatD<D>> R;
};

template <int D>
std::unique_ptr<TermData> SimplexElasticity<D>::make_data() const {
  if (!material_->uses_frozen_rotation()) return nullptr;
  auto data = std::make_unique<FrozenRotations>();
  data->R.assign(elements_.rows(), MatD<D>::Identity());
  return data;
}

template <int D>
const std::vector<MatD<D>>* SimplexElasticity<D>::frozen_rotations(const EvalContext& ctx) const {
  return material_->uses_frozen_rotation() ? &ctx.data.of<FrozenRotations>(this).R : nullptr;
}

template <int D>
void SimplexElasticity<D>::declare_stencils(HessianLayout& layout) {
  set_ = layout.add_stencils(elements_);
  layout_ = &layout;
}

template <int D>
MatD<D> SimplexElasticity<D>::deformation_gradient(const VecX& x, int e) const {
  return edge_matrix<D>(x, elements_, e) * rest_inverse_[e];
}

template <int D>
void SimplexElasticity<D>::set_element_weights(std::vector<double> weights) {
  if (!weights.empty() && weights.size() != volume_.size())
    throw std::invalid_argument("SimplexElasticity: one cubature weight per element");
  weights_ = std::move(weights);
}

// Shape-function gradients G ((D+1) x D): F = sum_a x_a G_a^T; rows 1..D are Dm^-1 and row 0 is
// minus their sum.
template <int D>
auto SimplexElasticity<D>::shape_gradients(int e) const -> Eigen::Matrix<double, K, D> {
  Eigen::Matrix<double, K, D> G;
  G.template bottomRows<D>() = rest_inverse_[e];
  G.row(0) = -rest_inverse_[e].colwise().sum();
  return G;
}

template <int D>
auto SimplexElasticity<D>::element_gradient(const VecX& x, int e) const -> Eigen::Matrix<double, K * D, 1> {
  MatD<D> P;
  material_->evaluate(deformation_gradient(x, e), &P, nullptr, false);
  const Eigen::Matrix<double, K, D> G = shape_gradients(e);
  Eigen::Matrix<double, K * D, 1> g;
  for (int a = 0; a < K; ++a) g.template segment<D>(a * D) = volume_[e] * P * G.row(a).transpose();
  return g;
}

template <int D>
void SimplexElasticity<D>::begin_step(const StepContext& ctx, const VecX& x_start) const {
  if (!material_->uses_frozen_rotation()) return;
  std::vector<MatD<D>>& R = ctx.data.of<FrozenRotations>(this).R;
  for (int e = 0; e < elements_.rows(); ++e) R[e] = polar_decomposition<D>(deformation_gradient(x_start, e)).R;
}

// dE/dx_a = W P G_a; H = W B^T dPdF B with B(i + j*D, a*D + k) = delta_ik G(a, j): the (i, k)
// component block over vertex pairs (a, b) is W G A_ik G^T, A_ik(j, l) = dPdF(i + D j, k + D l).
// Rows 1..D of G are Dm^-1 and row 0 is minus their sum, so only Dm^-1 A_ik Dm^-T is multiplied
// out; vertex 0's rows and columns are negated sums. H is symmetric: the (k, i) block is the
// transpose of the (i, k) one.
template <int D>
void SimplexElasticity<D>::element_derivatives(int e, double W, const MatD<D>* P, const MatD<D * D>* dPdF,
                                               Eigen::Matrix<double, K * D, 1>* grad,
                                               Eigen::Matrix<double, K * D, K * D>* hess) const {
  if (grad) {
    const Eigen::Matrix<double, K, D> G = shape_gradients(e);
    for (int a = 0; a < K; ++a) grad->template segment<D>(a * D) = W * (*P) * G.row(a).transpose();
  }
  if (hess) {
    const MatD<D>& Bi = rest_inverse_[e];
    for (int i = 0; i < D; ++i)
      for (int k = i; k < D; ++k) {
        MatD<D> A;
        for (int j = 0; j < D; ++j)
          for (int l = 0; l < D; ++l) A(j, l) = (*dPdF)(i + D * j, k + D * l);
        const MatD<D> R = W * (Bi * A * Bi.transpose());
        Eigen::Matrix<double, K, K> block;
        block.template bottomRightCorner<D, D>() = R;
        block.template block<1, D>(0, 1) = -R.colwise().sum();
        block.template block<D, 1>(1, 0) = -R.rowwise().sum();
        block(0, 0) = R.sum();
        for (int a = 0; a < K; ++a)
          for (int b = 0; b < K; ++b) (*hess)(a * D + i, b * D + k) = (*hess)(b * D + k, a * D + i) = block(a, b);
      }
  }
}

template <int D>
double SimplexElasticity<D>::element_energy(const VecX& x, int e, Eigen::Matrix<double, K * D, 1>* grad,
                                            Eigen::Matrix<double, K * D, K * D>* hess, bool project_psd) const {
  MatD<D> P;
  MatD<D * D> dPdF;
  const double psi =
      material_->evaluate(deformation_gradient(x, e), grad ? &P : nullptr, hess ? &dPdF : nullptr, project_psd);
  if (!std::isfinite(psi)) return psi;
  element_derivatives(e, volume_[e], &P, &dPdF, grad, hess);
  return volume_[e] * psi;
}

template <int D>
double SimplexElasticity<D>::evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  constexpr int N = K * D;
  const std::vector<MatD<D>>* frozen = frozen_rotations(ctx);
  return assemble_stencils<K, D>(*layout_, set_, out, [&](int e, Eigen::Matrix<double, N, 1>* grad,
                                                          Eigen::Matrix<double, N, N>* hess) {
    const double W = measure(e);
    if (W == 0.0) {  // not a cubature element
      if (grad) grad->setZero();
      if (hess) hess->setZero();
      return 0.0;
    }
    MatD<D> F = deformation_gradient(x, e);
    const bool rotated = frozen != nullptr;
    if (rotated) F = (*frozen)[e].transpose() * F;
    MatD<D> P;
    MatD<D * D> dPdF;
    const double psi = material_->evaluate(F, grad ? &P : nullptr, hess ? &dPdF : nullptr, out.project_psd);
    if (!grad && !hess) return W * psi;
    if (rotated) {
      // F' = R^T F: P = R P', dP/dF = (I kron R) dP'/dF' (I kron R^T).
      const MatD<D>& R = (*frozen)[e];
      if (grad) P = R * P;
      if (hess) {
        MatD<D * D> IR = MatD<D * D>::Zero();
        for (int j = 0; j < D; ++j) IR.template block<D, D>(j * D, j * D) = R;
        dPdF = IR * dPdF * IR.transpose();
      }
    }
    element_derivatives(e, W, grad ? &P : nullptr, hess ? &dPdF : nullptr, grad, hess);
    return W * psi;
  });
}

// dP/dF per element at x (in the frozen frame for corotated models), then for each p the dual
// part of W P G_a: dP = dP/dF : dF(p), with G_0 = -sum of Dm^-1's rows, G_a = row a - 1.
template <int D>
class SimplexElasticity<D>::TangentOperator : public HessianOperator {
 public:
  TangentOperator(const SimplexElasticity& term, const std::vector<MatD<D>>* frozen, const VecX& x)
      : term_(term), frozen_(frozen), dPdF_(term.elements_.rows()) {
    parallel_for(term.elements_.rows(), [&](std::size_t i) {
      const int e = static_cast<int>(i);
      if (term.measure(e) == 0.0) return;
      MatD<D> F = term.deformation_gradient(x, e);
      if (frozen_) F = (*frozen_)[e].transpose() * F;
      term.material_->evaluate(F, nullptr, &dPdF_[e], false);
    });
  }

  void add_product(const VecX& p, double weight, VecX& out) const override {
    const SimplexElasticity& t = term_;
    for (const auto& color : t.layout_->colors(t.set_)) {  // no two elements of a colour share a vertex
      parallel_for(color.size(), [&](std::size_t i) {
        const int e = color[i];
        const double W = t.measure(e);
        if (W == 0.0) return;
        MatD<D> dF = edge_matrix<D>(p, t.elements_, e) * t.rest_inverse_[e];
        if (frozen_) dF = (*frozen_)[e].transpose() * dF;
        const VecD<D * D> dP_vec = dPdF_[e] * Eigen::Map<const VecD<D * D>>(dF.data());
        MatD<D> dP = Eigen::Map<const MatD<D>>(dP_vec.data());
        if (frozen_) dP = (*frozen_)[e] * dP;
        const MatD<D>& Bi = t.rest_inverse_[e];
        const VecD<D> g0 = -dP * Bi.colwise().sum().transpose();
        out.template segment<D>(t.elements_(e, 0) * D) += weight * W * g0;
        for (int a = 1; a <= D; ++a)
          out.template segment<D>(t.elements_(e, a) * D) += weight * W * (dP * Bi.row(a - 1).transpose());
      });
    }
  }

 private:
  const SimplexElasticity& term_;
  const std::vector<MatD<D>>* frozen_;
  std::vector<MatD<D * D>> dPdF_;
};

template <int D>
std::unique_ptr<HessianOperator> SimplexElasticity<D>::hessian_operator(const EvalContext& ctx, const VecX& x) const {
  return std::make_unique<TangentOperator>(*this, frozen_rotations(ctx), x);
}

template <int D>
VecX SimplexElasticity<D>::element_energy_density(const EvalContext& ctx, const VecX& x) const {
  const std::vector<MatD<D>>* frozen = frozen_rotations(ctx);
  VecX density(elements_.rows());
  parallel_for(elements_.rows(), [&](std::size_t e) {
    MatD<D> F = deformation_gradient(x, static_cast<int>(e));
    if (frozen) F = (*frozen)[e].transpose() * F;
    density[e] = material_->energy_density(F);
  });
  return density;
}

template <int D>
double SimplexElasticity<D>::max_step_fraction(const EvalContext&, const VecX& x, const VecX& p) const {
  // det(Ds + a dDs) = c0 + c1 a + ... + cD a^D; find the first a where it reaches 0.1 c0.
  if (!inversion_filter_) return 1.0;
  return parallel_min(static_cast<std::size_t>(elements_.rows()), 1.0, [&](std::size_t i) {
    const int e = static_cast<int>(i);
    if (measure(e) == 0.0) return 1.0;
    const MatD<D> A = edge_matrix<D>(x, elements_, e);
    const MatD<D> B = edge_matrix<D>(p, elements_, e);
    std::array<double, D + 1> c{};
    if constexpr (D == 2) {
      c[0] = A.determinant();
      c[1] = A(0, 0) * B(1, 1) + B(0, 0) * A(1, 1) - A(0, 1) * B(1, 0) - B(0, 1) * A(1, 0);
      c[2] = B.determinant();
    } else {
      // Coefficients of the cubic by exact interpolation at a = 0, +-1, 2 (det is a cubic in a).
      const double d0 = A.determinant(), d1 = (A + B).determinant(), dm = (A - B).determinant(),
                   d2 = (A + 2 * B).determinant();
      c[0] = d0;
      c[2] = (d1 + dm) / 2 - d0;
      // d2 = d0 + 2c1 + 4c2 + 8c3; d1 - dm = 2c1 + 2c3
      c[3] = (d2 - d0 - 4 * c[2] - (d1 - dm)) / 6;
      c[1] = (d1 - dm) / 2 - c[3];
    }
    if (c[0] <= 0) return 1.0;  // already inverted: this filter cannot help
    std::array<double, D + 1> shifted = c;
    shifted[0] = c[0] - 0.1 * c[0];
    return std::min(1.0, smallest_root_in_unit_interval<D>(shifted));
  });
}

template class SimplexElasticity<2>;
template class SimplexElasticity<3>;

}  // namespace softsim
