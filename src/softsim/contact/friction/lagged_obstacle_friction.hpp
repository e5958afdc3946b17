#pragma once
// Lagged friction against an analytic obstacle (the book §9, digest §7): for every vertex i
// within dhat of the obstacle at x^n, lambda_i = -w_i b'(d_i(x^n)) with the obstacle barrier's
// weights w_i = A_i dhat and the book's b (kappa included), and T_i = I - n n^T, n the unit
// gradient of the obstacle's signed distance at x^n_i. Potential
//   D(x) = sum_i mu lambda_i f0(|T_i (x_i - x^n_i)|),  eps = eps_v h,
// evaluated by the same per-contact code as the IPC pairs (friction_contact.hpp, one vertex,
// weight 1, a dim x dim "basis"). Fixed-point iterations as LaggedFriction.
#include <vector>

#include "softsim/contact/friction/friction_contact.hpp"
#include "softsim/contact/friction/lagged_friction.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"

namespace softsim {

class LaggedObstacleFriction : public Energy {
 public:
  // barrier must outlive this term; weights, dhat and kappa are those it was built with.
  LaggedObstacleFriction(const ObstacleBarrier* barrier, int dim, std::vector<double> vertex_weights, double dhat,
                         double kappa, const FrictionOptions& options);
  std::string name() const override { return "obstacle_friction"; }
  double evaluate(const VecX& x, const AssemblyOutputs& out) const override;
  void set_time_step(double t, double h) override { h_ = h; }
  void begin_step(const VecX& x_start) override;
  void set_stage_velocity(const VecX& reference, double scale) override;
  bool stiffen_if_unmet(const VecX& x) override;
  const std::vector<FrictionContact>& contacts() const { return contacts_; }

 private:
  void freeze(const VecX& x);
  const ObstacleBarrier* barrier_;
  int dim_;
  std::vector<double> weights_;
  double dhat_, kappa_;
  FrictionOptions options_;
  double h_ = 0.0;
  int fixed_point_iteration_ = 0;
  VecX x_start_;
  VertexRows reference_positions_;  // as LaggedFriction: u from the stage's reference, eps = eps_v / scale
  double eps_ = 0.0;
  std::vector<FrictionContact> contacts_;
};

}  // namespace softsim
