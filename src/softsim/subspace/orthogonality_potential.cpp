#include "softsim/subspace/orthogonality_potential.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <stdexcept>

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
  const MatX rest_inverse = lu.inverse();
  // A = sum_v x_v w_v^T: w_v = row v - 1 of D_m^-1 for v >= 1, and minus their sum for v = 0.
  frame_weights_.resize(dim + 1, dim);
  frame_weights_.bottomRows(dim) = rest_inverse;
  frame_weights_.row(0) = -rest_inverse.colwise().sum();
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
  // A = X^T W, the formula evaluate_dim uses.
  MatX Xt(dim_, dim_ + 1);
  for (int a = 0; a <= dim_; ++a) Xt.col(a) = x.segment(frame_[a] * dim_, dim_);
  return Xt * frame_weights_;
}

double OrthogonalityPotential::deviation(const VecX& x) const {
  const MatX A = affine_matrix(x);
  return (A * A.transpose() - MatX::Identity(dim_, dim_)).norm();
}

template <int D>
double OrthogonalityPotential::evaluate_dim(double kappa, const VecX& x, const AssemblyOutputs& out) const {
  constexpr int N = (D + 1) * D;
  using MatD = Eigen::Matrix<double, D, D>;
  using MatDK = Eigen::Matrix<double, D, D + 1>;
  const double k = kappa * volume_;
  const Eigen::Matrix<double, D + 1, D> W = frame_weights_;
  return assemble_stencils<D + 1, D>(*layout_, set_, out, [&](int, Eigen::Matrix<double, N, 1>* grad,
                                                                Eigen::Matrix<double, N, N>* hess) {
    // A = X^T W, X the frame's positions as rows (A = D_s D_m^-1 written per vertex).
    MatDK Xt;
    for (int a = 0; a <= D; ++a) Xt.col(a) = x.template segment<D>(frame_[a] * D);
    const MatD A = Xt * W;
    const MatD G = A * A.transpose() - MatD::Identity();
    if (!grad && !hess) return k * G.squaredNorm();
    // In closed form (the second-order jets this replaced cost more than contact in a pile of
    // rigid boxes): with P = A W^T (column u: dA/dx_u applied to A^T),
    //   dE/dx_(v,r) = 4k (G P)_rv,
    //   d2E/dx_(v,r) dx_(u,s) = 4k [delta_rs (P^T P)_uv + P_ru P_sv + G_rs (W W^T)_vu],
    // from dE/dA = 4k G A and d(G A) = (dA A^T + A dA^T) A + G dA.
    const MatDK P = A * W.transpose();
    if (grad) {
      const MatDK GP = 4.0 * k * (G * P);
      for (int v = 0; v <= D; ++v) grad->template segment<D>(v * D) = GP.col(v);
    }
    if (hess) {
      const Eigen::Matrix<double, D + 1, D + 1> PtP = P.transpose() * P, WWt = W * W.transpose();
      for (int v = 0; v <= D; ++v)
        for (int u = 0; u <= D; ++u)
          hess->template block<D, D>(v * D, u * D) =
              4.0 * k * (PtP(u, v) * MatD::Identity() + P.col(u) * P.col(v).transpose() + WWt(v, u) * G);
      // The energy depends only on the frame's differences: project on the motions that are not a
      // common translation (the same projection as the whole matrix's, with a smaller eigenproblem).
      if (out.project_psd) project_psd_translation_invariant<D + 1, D>(*hess);
    }
    return k * G.squaredNorm();
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
