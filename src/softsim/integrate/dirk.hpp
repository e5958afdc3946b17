#pragma once
// One-step implicit Runge-Kutta methods for the first-order form u' = F(u), u = (q, v),
// F = (v, M^{-1} f(q, v)), each stage solved as an incremental potential (implicit_stage.hpp).
// With a0 = M^{-1} f(q^n, v^n):
//  - backward_euler (Ascher et al. 2022, eqs. 5, 14): u1 = u0 + h F(u1): one stage, U = u0, k = h.
//  - trapezoidal (Larionov et al. 2022, eq. 24): u1 = u0 + h/2 (F(u0) + F(u1)):
//      U = u0 + h/2 F(u0), k = h/2 (predictor q0 + h v0 + h^2/4 a0, weight h^2/4).
//  - tr_bdf2 (Ascher et al. 2022, eq. 8): stage 1 (8a) u_{1/2} = u0 + h/4 (F(u_{1/2}) + F(u0)):
//      U = u0 + h/4 F(u0), k = h/4, at t0 + h/2;
//    stage 2 (8b) u1 = u0 + 4/3 (u_{1/2} - u0) + h/3 F(u1): U = (4 u_{1/2} - u0) / 3, k = h/3.
//  - sdirk2 (Ascher et al. 2022, eq. 9), gamma = 2 - sqrt 2, beta = sqrt 2 / 4:
//    stage 1 (9a) U = u0 + gamma h/2 F(u0), k = gamma h / 2, at t0 + gamma h;
//    stage 2 (9b) U = u0 + (2 beta / gamma)(u_gamma - u0), k = gamma h / 2.
//  - implicit_midpoint (Hairer, Lubich & Wanner 2006, §I.1.2): u1 = u0 + h F((u0 + u1)/2), that
//    is one backward Euler stage to the midpoint, u_{1/2} = u0 + h/2 F(u_{1/2}) (U = u0,
//    k = h/2, at t0 + h/2), then u1 = 2 u_{1/2} - u0. Symplectic; conserves linear and angular
//    momentum exactly for forces of a rotation-invariant potential (the trapezoidal rule does not).
// semi_implicit gives SI (eq. 6) / S-TR / S-TR-BDF2 / S-SDIRK2: one Newton iteration per stage.
#include "softsim/integrate/implicit_stage.hpp"

namespace softsim {

class DirkStepper : public Stepper {
 public:
  enum class Method { BackwardEuler, Trapezoidal, TrBdf2, Sdirk2, ImplicitMidpoint };
  DirkStepper(const Model& model, const StepperOptions& options, Method method);
  std::string name() const override;
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return stage_.data(); }
  void save(ArchiveWriter& out) const override { stage_.save(out); }
  void load(ArchiveReader& in) override { stage_.load(in); }
  bool steps_in_coordinates() const override { return stage_.in_coordinates(); }
  std::pair<double, double> energies_in_coordinates(const State& state) override {
    return stage_.energies_in_coordinates(state);
  }

 private:
  // The method's stages from (x0, v0) at t0, into q1_, v1_, in positions or in coordinates.
  template <class Space>
  void stages(Space space, const VecX& x0, const VecX& v0, double t0, double h, StepResult& result);
  StageSolver stage_;
  Method method_;
  // The step's start and result (positions or coordinates), kept from step to step (swapped with
  // the state's), so that backward Euler and the implicit midpoint rule allocate nothing per step.
  VecX x0_, v0_, q1_, v1_, q_mid_, v_mid_;
};

}  // namespace softsim
