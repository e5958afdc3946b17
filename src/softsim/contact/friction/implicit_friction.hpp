#pragma once
// Fully implicit friction (Larionov et al. 2022, sec. 3.3 and 4.5): contact forces, the sliding
// basis and the friction force all evaluated at the end of the step, f_f(q^{n+1}, v^{n+1})
// (eq. 16), as a force without a potential in the residual form of the step problem (eqs. 22-24).
// The contacts come from a source (friction_source.hpp: IPC pairs, analytic obstacles, penalty
// contact points) listed at q, each with its frame (closest-point weights, basis, lambda) as a
// function of q. The Jacobian df/dq + c df/dv is not symmetric; it is assembled column by
// column, and applied matrix-free, by forward-mode AD (Dual numbers) through force_kernel.hpp.
#include <memory>
#include <vector>

#include "softsim/contact/friction/friction_contact.hpp"
#include "softsim/contact/friction/friction_options.hpp"
#include "softsim/contact/friction/friction_source.hpp"
#include "softsim/model/velocity_force.hpp"

namespace softsim {

class ImplicitFriction : public VelocityForce {
 public:
  ImplicitFriction(std::unique_ptr<FrictionSource> source, const FrictionOptions& options);
  std::string name() const override { return "implicit_friction"; }
  void add_force(const EvalContext& ctx, const VecX& q, const VecX& v, double c, double weight, VecX* force,
                 std::vector<Triplet>* jacobian) const override;
  void add_jacobian_times(const EvalContext& ctx, const VecX& q, const VecX& v, double c, const VecX& p,
                          double weight, VecX& out) const override;
  std::vector<const Energy*> reads_data_of() const override { return {&source_->contact_term()}; }
  // The contacts at q (stencils with their lambda, basis and weights at q).
  std::vector<FrictionContact> contacts(const EvalContext& ctx, const VecX& q) const;

 private:
  std::unique_ptr<FrictionSource> source_;
  FrictionOptions options_;
};

}  // namespace softsim
