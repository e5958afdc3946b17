// Damped Newton's fallbacks (solve/damped_newton.cpp) on small problems with a known answer:
// a singular exact Jacobian is replaced by the projected one for that iteration, and after five
// iterations that take less than 2% off ||r|| the rest of the solve uses the projected Jacobian.
#include <gtest/gtest.h>

#include <cmath>

#include "softsim/solve/damped_newton.hpp"
#include "softsim/solve/linear_solver.hpp"

namespace softsim {
namespace {

SparseMat one_by_one(double value) {
  SparseMat J(1, 1);
  J.insert(0, 0) = value;
  J.makeCompressed();
  return J;
}

// r(v) = v^3 - c: the exact Jacobian 3 v^2 is singular at v = 0; the "projected" one adds a mass
// term, 3 v^2 + 1, as the incremental potential's would.
class CubicRoot : public ResidualProblem {
 public:
  explicit CubicRoot(double c) : c_(c) {}
  bool residual(const VecX& v, VecX& r) override {
    r = VecX::Constant(1, v[0] * v[0] * v[0] - c_);
    return true;
  }
  bool jacobian(const VecX& v, SparseMat& J) override {
    ++exact_calls;
    J = one_by_one(3 * v[0] * v[0]);
    return true;
  }
  bool projected_jacobian(const VecX& v, SparseMat& J) override {
    ++projected_calls;
    J = one_by_one(3 * v[0] * v[0] + 1);
    return true;
  }
  bool has_projected_jacobian() const override { return true; }
  int exact_calls = 0, projected_calls = 0;

 private:
  double c_;
};

TEST(DampedNewton, SingularJacobianFallsBackToTheProjectedOne) {
  CubicRoot problem(2.0);
  VecX v = VecX::Zero(1);
  auto lu = make_linear_solver("lu", 1);
  NewtonOptions options;
  options.tolerance = 1e-12;
  const NewtonResult r = damped_newton(problem, v, *lu, options);
  EXPECT_TRUE(r.converged) << r.failure;
  EXPECT_NEAR(v[0], std::cbrt(2.0), 1e-12);
  EXPECT_GE(problem.projected_calls, 1);  // the first iteration, where 3 v^2 = 0
  EXPECT_GT(problem.exact_calls, problem.projected_calls);  // exact Newton again afterwards
}

// r(v) = v - 10 with every step capped to length 0.01 (as a CCD filter caps steps): each
// iteration takes 0.1% off ||r||, a stall.
class CappedLinear : public CubicRoot {
 public:
  CappedLinear() : CubicRoot(0.0) {}
  bool residual(const VecX& v, VecX& r) override {
    r = VecX::Constant(1, v[0] - 10.0);
    return true;
  }
  bool jacobian(const VecX& v, SparseMat& J) override {
    ++exact_calls;
    J = one_by_one(1.0);
    return true;
  }
  bool projected_jacobian(const VecX& v, SparseMat& J) override {
    ++projected_calls;
    J = one_by_one(1.0);
    return true;
  }
  double max_step_fraction(const VecX& v, const VecX& p) override { return std::min(1.0, 0.01 / p.norm()); }
};

TEST(DampedNewton, StallSwitchesToTheProjectedJacobianForTheRestOfTheSolve) {
  CappedLinear problem;
  VecX v = VecX::Zero(1);
  auto lu = make_linear_solver("lu", 1);
  NewtonOptions options;
  options.max_iterations = 12;
  const NewtonResult r = damped_newton(problem, v, *lu, options);
  EXPECT_FALSE(r.converged);  // 12 steps of 0.01 do not get from 0 to 10
  EXPECT_NEAR(v[0], 0.12, 1e-12);
  // Five exact iterations, then (after five that took 0.5% off ||r|| in all) only projected.
  EXPECT_EQ(problem.exact_calls, 5);
  EXPECT_EQ(problem.projected_calls, 7);
  EXPECT_EQ(r.iterations, 12);
}

}  // namespace
}  // namespace softsim
