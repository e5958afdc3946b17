#pragma once
// Penalty contact (Larionov et al. 2022, §3.2 and §4.4): the cubic penalty b(d) = kappa (delta - d)^3
// (penalty/cubic_penalty.hpp) summed over every contact point with signed gap d < delta,
//   W_c = sum_i b(d_i),   f_c = -dW_c/dq = lambda^T dd/dq,  lambda_i = -b'(d_i)      (eq. 3),
// where the contact points are surface vertices against other bodies' closed surfaces and their
// own (penalty/surfaces.hpp), every collision vertex with DOFs against each analytic obstacle, and
// the obstacles' features (a sphere's centre, a box's corners and edges) against the bodies' faces
// and edges (penalty/obstacle_feature_points.hpp), so that faces do not pass through an obstacle
// between their vertices.
// The points are found again at every evaluation. Gradient and Hessian are exact (forward-mode
// derivatives of the signed gap on its stencil, chain rule through b); with projection requested
// each stencil's Hessian b'' grad d grad d^T + b' Hess d is projected to PSD (b'' >= 0, but b' <= 0
// times the distance's Hessian is not).
// No step filter: penalty contact starts from and resolves interpenetrating states (the
// elements' inversion filter still applies).
// Stiffness:
//  - initial kappa0: contact.kappa when given; otherwise kappa_min = m_avg g / (0.75 delta^2),
//    the stiffness at which a contact at d = delta/2 carries the weight of an average vertex
//    (g = |gravity|, 9.81 m/s^2 without gravity), raised at the first step that starts with
//    active contacts to the least-squares balance of the contact forces at d = delta/2 against
//    the other potentials' forces: kappa = G . gE / (0.75 delta^2 |G|^2), G = sum_i grad d_i, gE
//    the other terms' gradient (as IPC balances its barrier, Li et al. 2020 supplement);
//  - adaptive (sec. 4.4): after a converged solve whose deepest contact has d < 0, kappa is
//    multiplied by b'(d_deepest) / b'(delta/2) and the step is solved again (after_solve);
//  - kappa never decreases while contacts are active; a step that starts without any contact
//    resets it to kappa0.
#include <optional>

#include "softsim/contact/penalty/obstacle_feature_points.hpp"
#include "softsim/contact/penalty/surfaces.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class Model;

struct PenaltyOptions {
  double delta = 1e-3;            // m: thickness tolerance
  std::optional<double> kappa;    // N/m^2 (= J/m^3): initial stiffness; automatic when absent
  std::vector<double> search_radius;  // m, per collision-mesh body (model bodies, then obstacles)
  BroadPhaseMethod broad_phase = BroadPhaseMethod::Auto;
  bool between_bodies = true;     // vertices against surfaces; false: analytic obstacles only
};

class PenaltyContact : public Energy {
 public:
  // Masses (for kappa_min) must have been added to the model.
  PenaltyContact(const Model& model, CollisionMesh mesh, std::vector<AnalyticObstacle> obstacles,
                 const PenaltyOptions& options);
  PenaltyContact(const PenaltyContact&) = delete;
  PenaltyContact& operator=(const PenaltyContact&) = delete;

  std::string name() const override { return "penalty_contact"; }
  // The stiffness and how often it was raised.
  std::unique_ptr<TermData> make_data() const override;
  double evaluate(const EvalContext& ctx, const VecX& x, const AssemblyOutputs& out) const override;
  bool hessian_psd_when_projected() const override { return true; }  // projected per stencil
  void begin_step(const StepContext& ctx, const VecX& x_start) const override;
  // Raises the stiffness when a converged solve left a contact penetrating (solve again).
  bool after_solve(const StepContext& ctx, const VecX& x) const override;
  // The deepest signed gap among the contact points (d < delta) at x; +infinity without any.
  double min_contact_distance(const VecX& x, const ModelData* data = nullptr) const override;
  // The collision vertices with DOFs; after_solve reads those only.
  bool vertex_support(std::vector<int>& vertices) const override;
  bool hooks_read_all_positions() const override { return false; }

  // Active contact points at x with d, lambda = -b'(d) and the unit normal grad_p d.
  std::vector<PenaltyContactPoint> contacts(const EvalContext& ctx, const VecX& x) const;
  double stiffness(const ModelData& data) const;
  double initial_stiffness() const { return kappa_initial_; }
  int stiffness_bumps(const ModelData& data) const;  // adaptive increases so far
  const PenaltyOptions& options() const { return options_; }
  const CollisionMesh& collision_mesh() const { return mesh_; }
  const std::vector<AnalyticObstacle>& obstacles() const { return obstacles_; }

 private:
  struct Data;
  std::vector<PenaltyContactPoint> find(const VertexRows& V) const;
  // The collision mesh's positions at x, then the obstacles' feature rows.
  VertexRows positions(const VecX& x) const;
  // A point's stencil as its derivatives are scattered: a moving obstacle's feature rows become
  // its pose vertex (static ones have no DOFs and are skipped).
  ContactStencil scatter_stencil(const PenaltyContactPoint& c) const;
  double balanced_stiffness(const StepContext& ctx, const VecX& x, const VertexRows& V,
                            const std::vector<PenaltyContactPoint>& points) const;

  const Model& model_;
  CollisionMesh mesh_;
  PenaltySurfaces surfaces_;
  std::vector<AnalyticObstacle> obstacles_;
  ObstacleFeatureRows feature_rows_;
  PenaltyOptions options_;
  double kappa_initial_ = 0.0;
};

}  // namespace softsim
