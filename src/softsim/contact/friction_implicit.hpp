#pragma once
// Fully implicit friction (seed 003 sec. 3.3 and 4.5): contact forces, the sliding basis and
// the friction force all evaluated at the end of the step, f_f(q^{n+1}, v^{n+1}) (eq. 16), as a
// force without a potential in the residual form of the step problem (eqs. 22-24). Its Jacobian
// df/dq + c df/dv is not symmetric; it is assembled column by column, and applied matrix-free,
// by forward-mode AD (Dual numbers) through friction_implicit_kernel.hpp.
//  - ImplicitFriction: the IPC contact pairs (point-triangle, edge-edge, point-edge; classified
//    at q as for lagged friction), lambda = -db/dd of the IpcContact's barrier at q (kappa
//    included, unmollified for edge-edge as in IPC).
//  - ImplicitObstacleFriction: every vertex within dhat of an analytic obstacle, lambda =
//    -w_i b'(d_i(q)) with the obstacle barrier's weights, B = I - n n^T, n = grad d at q.
#include <vector>

#include "softsim/contact/friction_lagged.hpp"  // FrictionOptions
#include "softsim/contact/obstacle_barrier.hpp"
#include "softsim/model/velocity_force.hpp"

namespace softsim {

class IpcContact;

class ImplicitFriction : public VelocityForce {
 public:
  // contact must outlive this term.
  ImplicitFriction(const IpcContact* contact, const FrictionOptions& options);
  std::string name() const override { return "implicit_friction"; }
  void add_force(const VecX& q, const VecX& v, double c, double weight, VecX* force,
                 std::vector<Triplet>* jacobian) const override;
  void add_jacobian_times(const VecX& q, const VecX& v, double c, const VecX& p, double weight,
                          VecX& out) const override;
  // The contacts at q (classified stencils with their lambda, basis and weights at q).
  std::vector<FrictionContact> contacts_at(const VecX& q) const;

 private:
  const IpcContact* contact_;
  FrictionOptions options_;
};

class ImplicitObstacleFriction : public VelocityForce {
 public:
  // barrier must outlive this term; weights, dhat and kappa are those it was built with.
  ImplicitObstacleFriction(const ObstacleBarrier* barrier, int dim, std::vector<double> vertex_weights, double dhat,
                           double kappa, const FrictionOptions& options);
  std::string name() const override { return "implicit_obstacle_friction"; }
  void add_force(const VecX& q, const VecX& v, double c, double weight, VecX* force,
                 std::vector<Triplet>* jacobian) const override;
  void add_jacobian_times(const VecX& q, const VecX& v, double c, const VecX& p, double weight,
                          VecX& out) const override;

 private:
  std::vector<int> vertices_in_contact(const VecX& q) const;
  const ObstacleBarrier* barrier_;
  int dim_;
  std::vector<double> weights_;
  double dhat_, kappa_;
  FrictionOptions options_;
};

}  // namespace softsim
