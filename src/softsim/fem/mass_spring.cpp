#include "softsim/fem/mass_spring.hpp"

#include "softsim/core/dual.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {

namespace {

// The spring's Hessian block given 1 / l^2 (no division in the inner loop of small scenes).
template <int D>
inline MatD<D> spring_block(const VecD<D>& d, double inverse_l2, double k, bool project) {
  // H = 2k (s I + 2 d d^T / l^2), s = |d|^2 / l^2 - 1: eigenvalue 2k (3 |d|^2 / l^2 - 1) along d,
  // 2k s orthogonal to it. Only a compressed spring (s < 0) has a negative one; its projection
  // keeps the part along d (closed form: no eigensolver in the inner loop of small scenes).
  const double n2 = d.squaredNorm(), strain = n2 * inverse_l2 - 1.0;
  if (project && strain < 0.0) {
    const double along = 2.0 * k * (3.0 * n2 * inverse_l2 - 1.0);
    return along > 0.0 ? MatD<D>((along / n2) * d * d.transpose()) : MatD<D>::Zero();
  }
  return (2.0 * k) * (strain * MatD<D>::Identity() + (2.0 * inverse_l2) * d * d.transpose());
}

}  // namespace

template <int D>
MatD<D> spring_hessian_block(const VecD<D>& d, double l2, double k, bool project) {
  return spring_block<D>(d, 1.0 / l2, k, project);
}

template <int D>
MassSpring<D>::MassSpring(const MatXi& edges, const MatX& rest, double stiffness)
    : edges_(edges), stiffness_(stiffness) {
  rest_length_sq_.resize(edges.rows());
  inverse_rest_length_sq_.resize(edges.rows());
  for (int e = 0; e < edges.rows(); ++e) {
    rest_length_sq_[e] = (rest.row(edges(e, 0)) - rest.row(edges(e, 1))).squaredNorm();
    inverse_rest_length_sq_[e] = 1.0 / rest_length_sq_[e];
  }
}

template <int D>
void MassSpring<D>::declare_stencils(HessianLayout& layout) {
  set_ = layout.add_stencils(edges_);
  layout_ = &layout;
}

template <int D>
double MassSpring<D>::evaluate(const EvalContext&, const VecX& x, const AssemblyOutputs& out) const {
  // [[H, -H], [-H, H]] has the eigenvalues of 2H and zeros: projecting H projects the block.
  return assemble_difference_stencils<D>(*layout_, set_, out, [&](int e, VecD<D>* grad, MatD<D>* hess) {
    const VecD<D> d = x.segment<D>(edges_(e, 0) * D) - x.segment<D>(edges_(e, 1) * D);
    const double l2 = rest_length_sq_[e], inverse_l2 = inverse_rest_length_sq_[e];
    const double strain = d.squaredNorm() * inverse_l2 - 1.0;
    if (grad) *grad = 2.0 * stiffness_ * strain * d;  // grad_1 of Li & Jiang 2025, §4.3
    if (hess) *hess = spring_block<D>(d, inverse_l2, stiffness_, out.project_psd);
    return 0.5 * l2 * stiffness_ * strain * strain;
  });
}

template <int D>
double MassSpring<D>::element_energy(const VecX& x, int e, double* grad) const {
  const VecD<D> d = x.segment<D>(edges_(e, 0) * D) - x.segment<D>(edges_(e, 1) * D);
  const double strain = d.squaredNorm() * inverse_rest_length_sq_[e] - 1.0;
  if (grad) {
    const VecD<D> g = 2.0 * stiffness_ * strain * d;
    for (int k = 0; k < D; ++k) {
      grad[k] = g[k];
      grad[D + k] = -g[k];
    }
  }
  return 0.5 * rest_length_sq_[e] * stiffness_ * strain * strain;
}

template <int D>
std::unique_ptr<HessianOperator> MassSpring<D>::hessian_operator(const EvalContext&, const VecX& x) const {
  return std::make_unique<ForwardModeHessian<MassSpring<D>>>(*this, x);
}

template <int D>
void MassSpring<D>::gradient_jvp(const VecX& x, const VecX& p, double weight, VecX& out) const {
  for (const auto& color : layout_->colors(set_)) {  // no two springs of a colour share a vertex
    parallel_for(color.size(), [&](std::size_t i) {
      const int e = color[i];
      Eigen::Matrix<Dual, D, 1> d;
      for (int k = 0; k < D; ++k)
        d[k] = Dual(x[edges_(e, 0) * D + k] - x[edges_(e, 1) * D + k], p[edges_(e, 0) * D + k] - p[edges_(e, 1) * D + k]);
      Dual norm2 = 0.0;
      for (int k = 0; k < D; ++k) norm2 += d[k] * d[k];
      const Dual factor = Dual(2.0 * stiffness_) * (norm2 / Dual(rest_length_sq_[e]) - Dual(1.0));
      for (int k = 0; k < D; ++k) {
        const double dg = (factor * d[k]).d;  // d/deps of the gradient entry
        out[edges_(e, 0) * D + k] += weight * dg;
        out[edges_(e, 1) * D + k] -= weight * dg;
      }
    });
  }
}

template <int D>
VecX MassSpring<D>::element_energy_density(const EvalContext&, const VecX& x) const {
  VecX density(edges_.rows());
  for (int e = 0; e < edges_.rows(); ++e) {
    const VecD<D> d = x.segment<D>(edges_(e, 0) * D) - x.segment<D>(edges_(e, 1) * D);
    const double strain = d.squaredNorm() / rest_length_sq_[e] - 1.0;
    density[e] = 0.5 * stiffness_ * strain * strain;  // per unit rest length squared
  }
  return density;
}

template class MassSpring<2>;
template class MassSpring<3>;
template MatD<2> spring_hessian_block<2>(const VecD<2>&, double, double, bool);
template MatD<3> spring_hessian_block<3>(const VecD<3>&, double, double, bool);

}  // namespace softsim
