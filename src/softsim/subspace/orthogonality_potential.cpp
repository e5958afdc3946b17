#include "softsim/subspace/orthogonality_potential.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <stdexcept>

#include "softsim/core/jet.hpp"
#include "softsim/core/psd_projection.hpp"

namespace softsim {

namespace {

struct Stiffening : TermData {
  double scale = 1.0;  // kappa = scale x the scene's kappa
  void save(ArchiveWriter& out) const override { out.real(scale); }
  void load(ArchiveReader& in) override { scale = in.real(); }
};

}  // namespace

OrthogonalityPotential::OrthogonalityPotential(int dim, std::vector<int> frame, const MatX& frame_rest, double volume,
                                               double stiffness, double rigid_tolerance, std::string body)
    : dim_(dim), frame_(std::move(frame)), volume_(volume), stiffness_(stiffness), tolerance_(rigid_tolerance),
      body_(std::move(body)) {
  if (static_cast<int>(frame_.size()) != dim + 1 || frame_rest.rows() != dim + 1 || frame_rest.cols() != dim)
    throw std::invalid_argument("OrthogonalityPotential: dim + 1 frame vertices");
  MatX Dm(dim, dim);
  for (int j = 0; j < dim; ++j) Dm.col(j) = (frame_rest.row(j + 1) - frame_rest.row(0)).transpose();
  const Eigen::FullPivLU<MatX> lu(Dm);
  if (!lu.isInvertible()) throw std::invalid_argument("OrthogonalityPotential: degenerate frame");
  rest_inverse_ = lu.inverse();
}

void OrthogonalityPotential::declare_stencils(HessianLayout& layout) {
  MatXi stencil(1, dim_ + 1);
  for (int a = 0; a <= dim_; ++a) stencil(0, a) = frame_[a];
  set_ = layout.add_stencils(stencil);
  layout_ = &layout;
}

bool OrthogonalityPotential::vertex_support(std::vector<int>& vertices) const {
  std::vector<int> frame = frame_;
  std::sort(frame.begin(), frame.end());
  vertices.insert(vertices.end(), frame.begin(), frame.end());
  return true;
}

std::unique_ptr<TermData> OrthogonalityPotential::make_data() const { return std::make_unique<Stiffening>(); }

double OrthogonalityPotential::stiffness(const ModelData& data) const {
  return stiffness_ * data.of<Stiffening>(this).scale;
}

MatX OrthogonalityPotential::affine_matrix(const VecX& x) const {
  MatX Ds(dim_, dim_);
  for (int j = 0; j < dim_; ++j) Ds.col(j) = x.segment(frame_[j + 1] * dim_, dim_) - x.segment(frame_[0] * dim_, dim_);
  return Ds * rest_inverse_;
}

double OrthogonalityPotential::deviation(const VecX& x) const {
  const MatX A = affine_matrix(x);
  return (A * A.transpose() - MatX::Identity(dim_, dim_)).norm();
}

template <int D>
double OrthogonalityPotential::evaluate_dim(double kappa, const VecX& x, const AssemblyOutputs& out) const {
  constexpr int N = (D + 1) * D;
  using J = Jet<N>;
  const double k = kappa * volume_;
  return assemble_stencils<D + 1, D>(*layout_, set_, out, [&](int, Eigen::Matrix<double, N, 1>* grad,
                                                                Eigen::Matrix<double, N, N>* hess) {
    if (!grad && !hess) {
      const double d = deviation(x);
      return k * d * d;
    }
    // A = D_s D_m^-1 with jets on the frame's positions, then ||A A^T - I||^2 entry by entry.
    J p[D + 1][D];
    for (int a = 0; a <= D; ++a)
      for (int c = 0; c < D; ++c) p[a][c] = J::variable(x[frame_[a] * D + c], a * D + c);
    J A[D][D];
    for (int r = 0; r < D; ++r)
      for (int c = 0; c < D; ++c) {
        A[r][c] = J(0.0);
        for (int j = 0; j < D; ++j) A[r][c] = A[r][c] + (p[j + 1][r] - p[0][r]) * rest_inverse_(j, c);
      }
    J e(0.0);
    for (int r = 0; r < D; ++r)
      for (int s = 0; s < D; ++s) {
        J entry(r == s ? -1.0 : 0.0);
        for (int c = 0; c < D; ++c) entry = entry + A[r][c] * A[s][c];
        e = e + entry * entry;
      }
    e = k * e;
    if (grad) *grad = e.g;
    if (hess) {
      *hess = e.H;
      if (out.project_psd) project_psd(*hess);
    }
    return e.v;
  });
}

double OrthogonalityPotential::evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const {
  const double kappa = stiffness(ctx.data);
  return dim_ == 3 ? evaluate_dim<3>(kappa, x, out) : evaluate_dim<2>(kappa, x, out);
}

bool OrthogonalityPotential::after_solve(const StepContext& ctx, const VecX& x) const {
  // Judged where a solve ends the step: an inner stage need not be a state of the body (the
  // midpoint rule's stage averages two rotations, which is no rotation to O((omega h)^2)).
  if (tolerance_ <= 0.0 || ctx.stage.fraction < 1.0 || deviation(x) <= tolerance_) return false;
  ctx.data.of<Stiffening>(this).scale *= 10.0;
  return true;
}

}  // namespace softsim
