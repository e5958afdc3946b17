#include "softsim/integrate/modal_stepper.hpp"

#include <Eigen/Eigenvalues>
#include <limits>
#include <stdexcept>
#include <string>
#include <unsupported/Eigen/MatrixFunctions>

namespace softsim {

namespace {

// Why the modal flow cannot step this model, or empty: it needs a subspace map (x = offset + B y)
// of a size a dense eigensolver takes, and every prescribed DOF held by the map (a zero row of B),
// since the flow has no way to move one.
std::string refusal(const Model& model) {
  constexpr int kMaxCoordinates = 5000;
  const SubspaceMap& map = model.subspace;
  if (map.empty()) return "the modal integrator steps reduced coordinates: the model has none (give its bodies a \"reduction\")";
  if (map.num_coordinates() > kMaxCoordinates)
    return "the modal integrator decomposes the reduced system densely: " + std::to_string(map.num_coordinates()) +
           " coordinates is more than " + std::to_string(kMaxCoordinates);
  for (const auto& term : model.energies())
    if (term->depends_on_time())
      return "the modal integrator linearises the model once for the whole run: the term '" + term->name() +
             "' changes with time";
  const std::vector<char>& fixed = model.boundary.fixed_dofs();
  for (std::size_t i = 0; i < fixed.size(); ++i)
    if (fixed[i] && map.basis_t.col(static_cast<Eigen::Index>(i)).nonZeros() > 0)
      return "the modal integrator cannot prescribe DOF " + std::to_string(i) + ": it moves with the reduced coordinates";
  return "";
}

}  // namespace

ModalStepper::ModalStepper(const Model& model) : model_(model), data_(model) {
  if (const std::string why = refusal(model); !why.empty()) throw std::invalid_argument(why);
  const SubspaceMap& map = model.subspace;
  rest_coordinates_ = map.coordinates(model.rest_positions);
  const VecX x0 = map.positions(rest_coordinates_);

  // The potential's gradient and Hessian at rest (no PSD projection: the exact linearisation),
  // with any dense rank-one part and any changing-stencil entries.
  const Stage stage;
  const EvalContext ctx{stage, data_};
  VecX gradient = VecX::Zero(model.num_dofs());
  SparseMat K = model.layout().pattern();
  std::vector<Triplet> dynamic;
  AssemblyOutputs out;
  out.gradient = &gradient;
  out.hessian = &K;
  out.dynamic_hessian = &dynamic;
  model.potential(ctx, x0, out);
  if (!dynamic.empty()) {
    SparseMat extra(K.rows(), K.cols());
    extra.setFromTriplets(dynamic.begin(), dynamic.end());
    K += extra;
  }
  const MatX M_r(map.pull_back(model.mass_matrix()));
  MatX K_r(map.pull_back(K));
  std::vector<RankOneHessian> rank_one;
  model.rank_one_hessian(ctx, x0, 1.0, rank_one);
  for (const RankOneHessian& term : rank_one) {
    const VecX u = map.pull_back(term.u);
    K_r.noalias() += term.coefficient * u * u.transpose();
  }
  K_r = 0.5 * (K_r + K_r.transpose());  // round-off of the products

  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(K_r, M_r);
  if (eigen.info() != Eigen::Success)
    throw std::invalid_argument("the modal integrator: the reduced mass matrix is not positive definite");
  lambda_ = eigen.eigenvalues();
  modes_ = eigen.eigenvectors();
  to_modal_ = modes_.transpose() * M_r;
  damping_ = VecX::Constant(lambda_.size(), model.rayleigh_alpha) + model.rayleigh_beta * lambda_;
  modal_force_ = -modes_.transpose() * map.pull_back(gradient);
}

void ModalStepper::make_flow(double h) {
  const Eigen::Index r = lambda_.size();
  flow_.resize(r);
  flow_shift_.resize(r);
  for (Eigen::Index i = 0; i < r; ++i) {
    // d/dt (u, u', 1) = G (u, u', 1): the exponential of G h carries the constant force exactly,
    // for rigid (lambda = 0) and unstable (lambda < 0) modes alike.
    Eigen::Matrix3d G = Eigen::Matrix3d::Zero();
    G(0, 1) = 1.0;
    G(1, 0) = -lambda_[i];
    G(1, 1) = -damping_[i];
    G(1, 2) = modal_force_[i];
    const Eigen::Matrix3d E = (G * h).exp();
    flow_[i] = E.topLeftCorner<2, 2>();
    flow_shift_[i] = E.topRightCorner<2, 1>();
  }
  flow_h_ = h;
}

StepResult ModalStepper::step(State& state, double h) {
  if (h != flow_h_) make_flow(h);
  const SubspaceMap& map = model_.subspace;
  const VecX u = to_modal_ * (map.coordinates(state.x) - rest_coordinates_);
  const VecX u_dot = to_modal_ * map.to_coordinates(state.v);
  VecX u_next(u.size()), u_dot_next(u.size());
  for (Eigen::Index i = 0; i < u.size(); ++i) {
    const Eigen::Vector2d next = flow_[i] * Eigen::Vector2d(u[i], u_dot[i]) + flow_shift_[i];
    u_next[i] = next[0];
    u_dot_next[i] = next[1];
  }
  state.x = map.positions(rest_coordinates_ + modes_ * u_next);
  state.v = map.to_positions(modes_ * u_dot_next);
  state.t += h;
  StepResult result;
  result.residual = std::numeric_limits<double>::quiet_NaN();
  if (!state.x.allFinite()) {
    result.converged = false;
    result.failure = "the modal flow overflowed (a mode with negative stiffness grew without bound)";
  }
  return result;
}

}  // namespace softsim
