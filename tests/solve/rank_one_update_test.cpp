// Sherman-Morrison-Woodbury solves (how direct Newton solves apply a volume penalty's dense
// rank-one Hessian part) against a dense solve of the updated matrix, with the direct solvers.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>

#include "softsim/solve/rank_one_update.hpp"
#include "support/finite_difference.hpp"

namespace softsim {
namespace {

TEST(RankOneUpdate, MatchesDenseSolveOfTheUpdatedMatrix) {
  const int n = 30;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // A sparse SPD tridiagonal-plus matrix and two rank-one updates of very different sizes.
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 4.0 + u(rng));
    if (i + 1 < n) {
      const double off = 0.5 * u(rng);
      t.emplace_back(i, i + 1, off);
      t.emplace_back(i + 1, i, off);
    }
  }
  SparseMat A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  std::vector<RankOneHessian> updates(2);
  for (auto& r : updates) {
    r.u = VecX(n);
    for (int i = 0; i < n; ++i) r.u[i] = u(rng);
  }
  updates[0].coefficient = 1e6;  // a stiff volume penalty next to a soft body
  updates[1].coefficient = 0.3;
  VecX b(n);
  for (int i = 0; i < n; ++i) b[i] = u(rng);
  MatX dense = MatX(A);
  for (const auto& r : updates) dense += r.coefficient * r.u * r.u.transpose();
  const VecX expected = dense.partialPivLu().solve(b);
  for (const std::string name : {"ldlt", "cholmod", "lu", "umfpack"}) {
    SCOPED_TRACE(name);
    auto solver = make_linear_solver(name, n);
    ASSERT_TRUE(solver->compute(A));
    VecX x;
    ASSERT_TRUE(solve_with_rank_one_updates(*solver, updates, b, x));
    EXPECT_LT(test::relative_error(x, expected), 1e-9);
    ASSERT_TRUE(solve_with_rank_one_updates(*solver, {}, b, x));  // no update: a plain solve
    EXPECT_LT(test::relative_error(VecX(A * x), b), 1e-12);
  }
}

}  // namespace
}  // namespace softsim
