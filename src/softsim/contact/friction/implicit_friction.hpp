#pragma once
// Fully implicit friction (seed 003 sec. 3.3 and 4.5): contact forces, the sliding basis and
// the friction force all evaluated at the end of the step, f_f(q^{n+1}, v^{n+1}) (eq. 16), as a
// force without a potential in the residual form of the step problem (eqs. 22-24). Its Jacobian
// df/dq + c df/dv is not symmetric; it is assembled column by column, and applied matrix-free,
// by forward-mode AD (Dual numbers) through friction/force_kernel.hpp.
//  - ImplicitFriction: the IPC contact pairs (point-triangle, edge-edge, point-edge; classified
//    at q as for lagged friction), lambda = -db/dd of the IpcContact's barrier at q (kappa
//    included, unmollified for edge-edge as in IPC).
//  - ImplicitObstacleFriction: every vertex within dhat of an analytic obstacle, lambda =
//    -w_i b'(d_i(q)) with the obstacle barrier's weights, B = I - n n^T, n = grad d at q.
//  - ImplicitPenaltyFriction: the contact points of penalty contact (seed 003's own setting),
//    lambda = -b'(d(q)) of the cubic penalty on the signed gap, B = I - n n^T with n the normal
//    of the closest feature at q (face normal; direction from the closest point for edges and
//    vertices; the obstacle's gradient), weights of the closest point on the feature.
#include <vector>

#include "softsim/contact/friction/friction_contact.hpp"
#include "softsim/contact/friction/friction_options.hpp"
#include "softsim/contact/barrier/obstacle_barrier.hpp"
#include "softsim/model/velocity_force.hpp"

namespace softsim {

class IpcContact;
class PenaltyContact;

// What the three sources share: force and Jacobian, or the product with p, from one pass over
// the contacts at q (apply()).
class ImplicitFrictionForce : public VelocityForce {
 public:
  void add_force(const EvalContext& ctx, const VecX& q, const VecX& v, double c, double weight, VecX* force,
                 std::vector<Triplet>* jacobian) const override {
    if (options_.any() && (force || jacobian)) apply(ctx, q, v, c, nullptr, weight, force, jacobian, nullptr);
  }
  void add_jacobian_times(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX& p,
                          double weight, VecX& out) const override {
    if (options_.any()) apply(ctx, q, v, c, &p, weight, nullptr, nullptr, &out);
  }

 protected:
  explicit ImplicitFrictionForce(const FrictionOptions& options) : options_(options) {}
  // p null: weight * f into force and weight * J into jacobian; else weight * J p into out.
  virtual void apply(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX* p, double weight,
                     VecX* force, std::vector<Triplet>* jacobian, VecX* out) const = 0;
  FrictionOptions options_;
};

class ImplicitFriction : public ImplicitFrictionForce {
 public:
  // contact must outlive this term.
  ImplicitFriction(const IpcContact* contact, const FrictionOptions& options);
  std::string name() const override { return "implicit_friction"; }
  std::vector<const Energy*> reads_data_of() const override;
  // The contacts at q (classified stencils with their lambda, basis and weights at q).
  std::vector<FrictionContact> contacts_at(const EvalContext& ctx, const VecX& q) const;

 private:
  void apply(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX* p, double weight,
             VecX* force, std::vector<Triplet>* jacobian, VecX* out) const override;
  const IpcContact* contact_;
};

class ImplicitObstacleFriction : public ImplicitFrictionForce {
 public:
  // barrier must outlive this term; weights, dhat and kappa are those it was built with.
  ImplicitObstacleFriction(const ObstacleBarrier* barrier, int dim, std::vector<double> vertex_weights, double dhat,
                           double kappa, const FrictionOptions& options);
  std::string name() const override { return "implicit_obstacle_friction"; }

 private:
  void apply(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX* p, double weight,
             VecX* force, std::vector<Triplet>* jacobian, VecX* out) const override;
  const ObstacleBarrier* barrier_;
  int dim_;
  std::vector<double> weights_;
  double dhat_, kappa_;
};

class ImplicitPenaltyFriction : public ImplicitFrictionForce {
 public:
  // contact must outlive this term.
  ImplicitPenaltyFriction(const PenaltyContact* contact, const FrictionOptions& options);
  std::string name() const override { return "implicit_penalty_friction"; }
  std::vector<const Energy*> reads_data_of() const override;

 private:
  void apply(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX* p, double weight,
             VecX* force, std::vector<Triplet>* jacobian, VecX* out) const override;
  const PenaltyContact* contact_;
};

}  // namespace softsim
