#pragma once
// Linear modal dynamics in closed form (Li & Jiang 2025, the model-reduction chapter; Barbič &
// James 2005, §3): the reduced coordinates y of a model whose bodies are all reduced
// (x = offset + B y) follow the dynamics linearised about the rest state,
//   M_r y'' + (alpha M_r + beta K_r) y' + K_r (y - y_0) = b,
// with M_r = B^T M B, K_r = B^T K(x_0) B (the potential's Hessian at rest) and b = -B^T grad P(x_0)
// (gravity, loads, and any stress at rest). The generalized eigenvectors of (K_r, M_r) decouple
// it into scalar ODEs u'' + (alpha + beta lambda) u' + lambda u = phi^T b, each stepped exactly
// for the step's constant force by the exponential of its 3 x 3 augmented matrix. The step has no
// time-step error and no stability limit; a linear material's reduced dynamics is exact, any other
// is its small-displacement limit. Positions and velocities are written back every step.
#include "softsim/integrate/stepper.hpp"

namespace softsim {

class ModalStepper : public Stepper {
 public:
  // Throws std::invalid_argument when the model has no subspace map, one too large for a dense
  // eigensolver, or a prescribed DOF that moves with the coordinates.
  explicit ModalStepper(const Model& model);
  std::string name() const override { return "modal"; }
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return data_; }
  // Nothing is carried between steps but the state: the decomposition is the Model's, the flow a
  // function of h.
  void save(ArchiveWriter& out) const override { data_.save(model_, out); }
  void load(ArchiveReader& in) override { data_.load(model_, in); }

  // The modes' squared angular frequencies lambda (rad^2/s^2), ascending.
  const VecX& eigenvalues() const { return lambda_; }
  // Their shapes in reduced coordinates (columns, M_r-orthonormal), and y_0.
  const MatX& modes() const { return modes_; }
  const VecX& rest_coordinates() const { return rest_coordinates_; }

 private:
  const Model& model_;
  ModelData data_;
  VecX rest_coordinates_;  // y_0
  MatX modes_;             // Phi: M_r-orthonormal columns, K_r Phi = M_r Phi diag(lambda)
  MatX to_modal_;          // Phi^T M_r: y - y_0 -> u
  VecX lambda_, damping_, modal_force_;  // per mode: lambda, alpha + beta lambda, phi^T b
  // The flow over the last h: (u, u') <- A (u, u') + c, per mode.
  double flow_h_ = -1.0;
  std::vector<Eigen::Matrix2d> flow_;
  std::vector<Eigen::Vector2d> flow_shift_;
  void make_flow(double h);
};

}  // namespace softsim
