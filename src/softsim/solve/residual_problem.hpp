#pragma once
// A square nonlinear system r(v) = 0 (Larionov et al. 2022, eq. 22), e.g. a time step's momentum balance.
// Eliminated DOFs (Dirichlet, slip) are handled like Objective: residual() returns the reduced
// residual (eliminated entries zero) and jacobian() the reduced Jacobian (identity rows/columns);
// expand() maps a reduced step back to world coordinates.
#include <functional>
#include <vector>

#include "softsim/core/types.hpp"
#include "softsim/model/energy.hpp"

namespace softsim {

class ResidualProblem {
 public:
  virtual ~ResidualProblem() = default;
  // Overwrites r with the reduced residual at v; returns false when it is not finite/defined.
  virtual bool residual(const VecX& v, VecX& r) = 0;
  // Overwrites J (pattern fixed by the problem) with the reduced Jacobian dr/dv at v.
  virtual bool jacobian(const VecX& v, SparseMat& J) = 0;
  virtual void expand(VecX& step) const {}
  // J(v) as an operator on reduced directions, out = J d, built once for the many products at
  // one iterate (empty when not available: the caller then differences the residual).
  virtual std::function<void(const VecX& d, VecX& out)> jacobian_operator(const VecX& v) { return {}; }
  // Overwrites out with dense rank-one parts of J(v) that jacobian() leaves out (reduced).
  virtual void jacobian_rank_one(const VecX& v, std::vector<RankOneHessian>& out) { out.clear(); }
  // An approximate Jacobian, better conditioned than J: every potential's Hessian projected to
  // positive semi-definite per element (forces without a potential keep their exact Jacobian).
  // Damped Newton falls back to it when the exact Jacobian gives no merit decrease; false when
  // the problem has none.
  virtual bool projected_jacobian(const VecX& v, SparseMat& J) { return false; }
  virtual bool has_projected_jacobian() const { return false; }
  // Largest alpha in (0, 1] such that v + alpha p is admissible (step filters).
  virtual double max_step_fraction(const VecX& v, const VecX& p) { return 1.0; }
  // After each accepted iterate: lets adaptive terms update; true when that changed the problem.
  virtual bool end_iteration(const VecX& v) { return false; }
};

}  // namespace softsim
