#include "softsim/volume/volume_penalty.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "softsim/core/polynomial.hpp"

namespace softsim {

VolumePenalty::VolumePenalty(Eigen::MatrixXi faces, const VolumeLaw& law, const Vec3& centre, std::string label)
    : faces_(std::move(faces)), law_(law), centre_(centre), label_(std::move(label)) {}

void VolumePenalty::declare_stencils(HessianLayout& layout) {
  set_ = layout.add_stencils(faces_);
  layout_ = &layout;
}

void VolumePenalty::corners(const VecX& x, int f, Vec3& y0, Vec3& y1, Vec3& y2) const {
  y0 = x.segment<3>(3 * faces_(f, 0)) - centre_;
  y1 = x.segment<3>(3 * faces_(f, 1)) - centre_;
  y2 = x.segment<3>(3 * faces_(f, 2)) - centre_;
}

VecX VolumePenalty::volume_gradient(const VecX& x) const {
  VecX g = VecX::Zero(x.size());
  Vec3 y0, y1, y2;
  for (int f = 0; f < faces_.rows(); ++f) {
    corners(x, f, y0, y1, y2);
    const Vec9 gf = triangle_volume_gradient(y0, y1, y2);
    for (int a = 0; a < 3; ++a) g.segment<3>(3 * faces_(f, a)) += gf.segment<3>(3 * a);
  }
  return g;
}

double VolumePenalty::evaluate(const EvalContext&, const VecX& x, const AssemblyOutputs& out) const {
  const double V = volume(x);
  const double W = law_.energy(V);
  if (!std::isfinite(W)) return std::numeric_limits<double>::infinity();
  // A PSD-projected assembly drops W' d2V (see the header), so only the gradient is scattered.
  AssemblyOutputs scatter = out;
  if (out.project_psd) scatter.hessian = nullptr;
  if (scatter.gradient || scatter.hessian) {
    const double dW = law_.derivative(V);
    // Per triangle: gradient W' grad V_f, Hessian W' d2V_f.
    assemble_stencils<3, 3>(*layout_, set_, scatter, [&](int f, Vec9* g, Mat9* H) {
      Vec3 y0, y1, y2;
      corners(x, f, y0, y1, y2);
      if (g) *g = dW * triangle_volume_gradient(y0, y1, y2);
      if (H) *H = dW * triangle_volume_hessian(y0, y1, y2);
      return 0.0;
    });
  }
  return out.weight * W;
}

std::unique_ptr<HessianOperator> VolumePenalty::hessian_operator(const EvalContext&, const VecX& x) const {
  return std::make_unique<ForwardModeHessian<VolumePenalty>>(*this, x);
}

void VolumePenalty::gradient_jvp(const VecX& x, const VecX& p, double weight, VecX& out) const {
  // H p = W''(V) grad V (grad V . p) + W'(V) d2V p, one pass for grad V . p and one to scatter.
  // The surface has few faces next to the volume mesh's elements: serial, hence deterministic.
  const double V = volume(x);
  const double dW = law_.derivative(V), d2W = law_.second_derivative(V);
  const int m = static_cast<int>(faces_.rows());
  std::vector<Vec9> grads(m), local_p(m);
  double gp = 0.0;
  Vec3 y0, y1, y2;
  for (int f = 0; f < m; ++f) {
    corners(x, f, y0, y1, y2);
    grads[f] = triangle_volume_gradient(y0, y1, y2);
    for (int a = 0; a < 3; ++a) local_p[f].segment<3>(3 * a) = p.segment<3>(3 * faces_(f, a));
    gp += grads[f].dot(local_p[f]);
  }
  for (int f = 0; f < m; ++f) {
    corners(x, f, y0, y1, y2);
    const Vec9 hp = d2W * gp * grads[f] + dW * triangle_volume_hessian_times(y0, y1, y2, local_p[f]);
    for (int a = 0; a < 3; ++a) out.segment<3>(3 * faces_(f, a)) += weight * hp.segment<3>(3 * a);
  }
}

void VolumePenalty::rank_one_hessian(const EvalContext&, const VecX& x, double weight,
                                     std::vector<RankOneHessian>& out) const {
  if (!dense_hessian_) return;
  const double V = volume(x);
  out.push_back({weight * law_.second_derivative(V), volume_gradient(x)});
}

double VolumePenalty::max_step_fraction(const EvalContext&, const VecX& x, const VecX& p) const {
  if (law_.model == VolumeModel::Quadratic) return 1.0;
  // V(a) = c0 + c1 a + c2 a^2 + c3 a^3, coefficients by exact interpolation at a = 0, +-1, 2.
  const double v0 = volume(x), v1 = volume(x + p), vm = volume(x - p), v2 = volume(x + 2.0 * p);
  if (!(v0 > 0.0)) return 1.0;  // already invalid: this filter cannot help
  std::array<double, 4> c{};
  c[0] = v0;
  c[2] = (v1 + vm) / 2 - v0;
  c[3] = (v2 - v0 - 4 * c[2] - (v1 - vm)) / 6;
  c[1] = (v1 - vm) / 2 - c[3];
  c[0] -= 0.1 * v0;
  return std::min(1.0, smallest_root_in_unit_interval<3>(c));
}

}  // namespace softsim
