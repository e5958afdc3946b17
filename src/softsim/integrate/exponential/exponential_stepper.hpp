#pragma once
// The exponential integrators (Ascher et al. 2022, sec. 3.5; docs/integrators.md), u = (q, v):
//   ere          u1 = u0 + h phi_1(h J) F(u0)                                           (eq. 18)
//   siere        u1 = u0 + (I - h J_H)^-1 (h H(u0) + h phi_1(h J_G) G(u0))             (eq. 21)
//   beere        u1 = u0 + h H(u1) + h phi_1(h J_G) G(u0)                               (eq. 20)
//   bdf2ere      u^ = (4 u0 - u_-1 + 2 h phi_1(h J_G) G(u0)) / 3, u1 = u^ + 2h/3 H(u1)   (eq. 22)
//   sbdf2ere     one Newton iteration of bdf2ere from u0                                 (eq. 23)
//   str_sbdf2ere u1/2 = u0 + (I - h/4 J)^-1 h/2 F(u0),
//                u1 = u1/2 + (I - h/3 J_H)^-1 ((u1/2 - u0)/3 + h/3 (H + phi_1(h/2 J_G) G)(u1/2))  (eq. 27)
// ERE's phi_1 product is a Krylov method (phi_krylov.hpp); the additive methods split F = H + G
// on the s lowest modes (modal_split.hpp), which are computed at the first step and refreshed
// every refresh_every steps. The two-step methods start (and restart after a change of h) with
// their one-step partner (beere, siere). The nonlinear systems of beere and bdf2ere are solved by Newton's method with
// (I - c J_H(u)) solved as in the semi-implicit methods.
//
// Contact, friction, forces without a potential and slip conditions are rejected at
// construction: the methods are semi-implicit or linearly implicit and carry no step filter
// that would keep a barrier feasible (docs/integrators.md says why).
#include <optional>

#include "softsim/integrate/exponential/modal_split.hpp"
#include "softsim/solve/modal_subspace.hpp"
#include "softsim/integrate/exponential/phi_krylov.hpp"
#include "softsim/integrate/stepper.hpp"

namespace softsim {

// Time spent in a run's steps by part (ms), for bench/ and docs/integrators.md.
struct ExponentialCosts {
  double eigen_ms = 0.0;     // eigen-decompositions
  double assembly_ms = 0.0;  // forces and stiffness matrices
  double krylov_ms = 0.0;    // ERE's phi_1 product
  SplitCosts split;          // factorization, SMW, sparse solves, subspace ERE
  int decompositions = 0;
};

class ExponentialStepper : public Stepper {
 public:
  ExponentialStepper(const Model& model, const StepperOptions& options);
  std::string name() const override;
  StepResult step(State& state, double h) override;
  const ModelData& data() const override { return data_; }
  void save(ArchiveWriter& out) const override;
  void load(ArchiveReader& in) override;

  const ModalSubspace& modes() const { return modes_; }
  ExponentialCosts costs() const;

 private:
  bool additive() const { return options_.type != IntegratorType::ere; }
  StepResult step_ere(State& state, double h, const EvalContext& ctx);
  // Solves u = base + c H(u) by Newton from u = (q, v) (beere, bdf2ere). The split is prepared at
  // the start (q, v), whose force f and acceleration a are given.
  void newton_split(const EvalContext& ctx, const VecX& base_q, const VecX& base_v, double c, VecX f, VecX a,
                    VecX& q, VecX& v, StepResult& result);

  const Model& model_;
  ModelData data_;
  StepperOptions options_;
  SecondOrderSystem system_;
  ModalSplit split_;
  ModalSubspace modes_;
  ExponentialCosts costs_;
  int steps_ = 0;
  std::optional<std::pair<VecX, VecX>> previous_;  // u_-1 of the two-step methods
  double previous_h_ = 0.0, previous_end_ = 0.0;    // and the step that led from it to u0
};

// Throws std::invalid_argument naming the first term or condition the exponential integrators
// cannot step (contact, friction, forces without a potential, slip conditions).
void check_exponential_compatible(const Model& model, IntegratorType type);

}  // namespace softsim
