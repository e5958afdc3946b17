// projected_gauss_seidel: the frictional contact problem in constraint space, checked against
// independent brute-force enumerations (frictionless LCP; per-contact {separated, stick} modes), a
// closed-form one-contact slip solution, and the complementarity / Coulomb conditions as a
// certificate on random frictional problems.
#include "softsim/contact/constraint/projected_gauss_seidel.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace softsim {
namespace {

// W = H A^-1 H^T as in physics: A an SPD n x n "mass/stiffness", H a full-rank 3m x n constraint
// Jacobian (n = 3m + 6 > 3m), so W is SPD.
MatX random_compliance(int m, std::mt19937& rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  const int n = 3 * m + 6;
  MatX B(n, n), H(3 * m, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = g(rng);
  for (int i = 0; i < 3 * m; ++i)
    for (int j = 0; j < n; ++j) H(i, j) = g(rng) / std::sqrt(double(n));
  const MatX A = B * B.transpose() / double(n) + MatX::Identity(n, n);
  MatX W = H * A.llt().solve(H.transpose());
  return 0.5 * (W + W.transpose());
}

double uniform(std::mt19937& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

// Free displacement: normal entries of both signs, mostly approaching (first approaching, last
// separating when m > 1); tangential entries of magnitude up to tangent_scale.
VecX random_free(int m, std::mt19937& rng, double tangent_scale = 1.0) {
  VecX f(3 * m);
  for (int a = 0; a < m; ++a) {
    double sign = uniform(rng, 0.0, 1.0) < 0.75 ? -1.0 : 1.0;
    if (a == 0) sign = -1.0;
    if (a == m - 1 && m > 1) sign = 1.0;
    f[3 * a] = sign * uniform(rng, 0.1, 1.0);
    f[3 * a + 1] = tangent_scale * uniform(rng, -1.0, 1.0);
    f[3 * a + 2] = tangent_scale * uniform(rng, -1.0, 1.0);
  }
  return f;
}

MatX sub(const MatX& M, const std::vector<int>& rows, const std::vector<int>& cols) {
  MatX S(rows.size(), cols.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols.size(); ++j) S(i, j) = M(rows[i], cols[j]);
  return S;
}

// Brute-force LCP 0 <= Wn l + f _|_ l >= 0 over all 2^m active sets; returns every feasible l.
std::vector<VecX> lcp_enumerate(const MatX& Wn, const VecX& f) {
  const int m = static_cast<int>(f.size());
  const double eps = 1e-12 * std::max(1.0, f.cwiseAbs().maxCoeff());
  std::vector<VecX> found;
  for (int mask = 0; mask < (1 << m); ++mask) {
    std::vector<int> S;
    for (int i = 0; i < m; ++i)
      if (mask & (1 << i)) S.push_back(i);
    VecX l = VecX::Zero(m);
    if (!S.empty()) {
      VecX rhs(S.size());
      for (std::size_t k = 0; k < S.size(); ++k) rhs[k] = -f[S[k]];
      const VecX x = sub(Wn, S, S).llt().solve(rhs);
      for (std::size_t k = 0; k < S.size(); ++k) l[S[k]] = x[k];
    }
    const VecX d = Wn * l + f;
    bool ok = true;
    for (int i = 0; i < m; ++i) ok = ok && ((mask & (1 << i)) ? l[i] >= -eps : d[i] >= -eps);
    if (ok) found.push_back(l);
  }
  return found;
}

// Brute force over per-contact modes {separated (lambda_a = 0, delta_n >= 0), stick (delta_a = 0,
// lambda_n >= 0, |lambda_t| <= mu lambda_n)}: linear systems only; returns every feasible lambda.
std::vector<VecX> stick_separate_enumerate(const MatX& W, const VecX& f, const std::vector<double>& mu) {
  const int m = static_cast<int>(mu.size());
  const double eps = 1e-12 * std::max(1.0, f.cwiseAbs().maxCoeff());
  std::vector<VecX> found;
  for (int mask = 0; mask < (1 << m); ++mask) {
    std::vector<int> R;
    for (int a = 0; a < m; ++a)
      if (mask & (1 << a))
        for (int k = 0; k < 3; ++k) R.push_back(3 * a + k);
    VecX l = VecX::Zero(3 * m);
    if (!R.empty()) {
      VecX rhs(R.size());
      for (std::size_t k = 0; k < R.size(); ++k) rhs[k] = -f[R[k]];
      const VecX x = sub(W, R, R).llt().solve(rhs);
      for (std::size_t k = 0; k < R.size(); ++k) l[R[k]] = x[k];
    }
    const VecX d = W * l + f;
    bool ok = true;
    for (int a = 0; a < m; ++a) {
      const double ln = l[3 * a], lt = std::hypot(l[3 * a + 1], l[3 * a + 2]);
      ok = ok && ((mask & (1 << a)) ? ln >= -eps && lt <= mu[a] * ln + eps : d[3 * a] >= -eps);
    }
    if (ok) found.push_back(l);
  }
  return found;
}

double inf_norm(const VecX& v) { return v.size() ? v.cwiseAbs().maxCoeff() : 0.0; }

TEST(ProjectedGaussSeidel, FrictionlessMatchesBruteForceLcp) {
  for (int m = 1; m <= 5; ++m) {
    for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
      SCOPED_TRACE("m = " + std::to_string(m) + ", seed = " + std::to_string(seed));
      std::mt19937 rng(seed * 101 + m);
      const MatX W = random_compliance(m, rng);
      const VecX f = random_free(m, rng);
      std::vector<int> normal;
      for (int a = 0; a < m; ++a) normal.push_back(3 * a);
      const MatX Wn = sub(W, normal, normal);
      VecX fn(m);
      for (int a = 0; a < m; ++a) fn[a] = f[3 * a];

      const std::vector<VecX> sols = lcp_enumerate(Wn, fn);
      ASSERT_EQ(sols.size(), 1u);  // Wn SPD: unique solution, non-degenerate random data
      const VecX& ref = sols[0];

      VecX lambda = VecX::Zero(3 * m);
      const PgsResult r = projected_gauss_seidel(W, f, std::vector<double>(m, 0.0), lambda, {100000, 1e-14});
      EXPECT_LT(r.iterations, 100000);
      EXPECT_LE(r.change, 1e-14);
      const double scale = std::max(1.0, inf_norm(ref));
      for (int a = 0; a < m; ++a) {
        EXPECT_NEAR(lambda[3 * a], ref[a], 1e-6 * scale) << "contact " << a;
        EXPECT_EQ(lambda[3 * a + 1], 0.0);
        EXPECT_EQ(lambda[3 * a + 2], 0.0);
      }
    }
  }
}

// lambda*: every contact pressed (lambda_n > 0) and strictly inside the disc, free = -W lambda*
// (delta = 0 everywhere); or, with `separate`, some contacts at lambda_a = 0 with delta_n > 0 and
// arbitrary delta_t (a separated contact has no tangential condition).
struct Constructed {
  MatX W;
  VecX free, lambda;
  std::vector<double> mu;
};

Constructed constructed_stick(int m, unsigned seed, bool separate) {
  std::mt19937 rng(seed);
  Constructed c;
  c.W = random_compliance(m, rng);
  c.lambda = VecX::Zero(3 * m);
  VecX delta = VecX::Zero(3 * m);
  for (int a = 0; a < m; ++a) {
    c.mu.push_back(uniform(rng, 0.1, 1.0));
    if (separate && a % 2 == 1) {
      delta[3 * a] = uniform(rng, 0.1, 1.0);
      delta[3 * a + 1] = uniform(rng, -1.0, 1.0);
      delta[3 * a + 2] = uniform(rng, -1.0, 1.0);
      continue;
    }
    const double ln = uniform(rng, 0.2, 1.0), r = uniform(rng, 0.0, 0.5) * c.mu[a] * ln;
    const double phi = uniform(rng, 0.0, 2.0 * std::numbers::pi);
    c.lambda.segment<3>(3 * a) = Vec3(ln, r * std::cos(phi), r * std::sin(phi));
  }
  c.free = delta - c.W * c.lambda;
  return c;
}

void check_constructed(bool separate) {
  for (int m = 1; m <= 5; ++m) {
    for (unsigned seed : {11u, 12u, 13u, 14u}) {
      SCOPED_TRACE("m = " + std::to_string(m) + ", seed = " + std::to_string(seed));
      const Constructed c = constructed_stick(m, seed * 7 + m, separate);

      // Independent check: the mode enumeration finds lambda* and nothing else.
      const std::vector<VecX> sols = stick_separate_enumerate(c.W, c.free, c.mu);
      ASSERT_GE(sols.size(), 1u);
      for (const VecX& s : sols) EXPECT_LE(inf_norm(s - c.lambda), 1e-9);

      VecX lambda = VecX::Zero(3 * m);
      const PgsResult r = projected_gauss_seidel(c.W, c.free, c.mu, lambda, {200000, 1e-14});
      EXPECT_LT(r.iterations, 200000);
      EXPECT_LE(inf_norm(lambda - c.lambda), 1e-6);
      EXPECT_LE(inf_norm(lambda - sols[0]), 1e-6);
    }
  }
}

TEST(ProjectedGaussSeidel, AllStickingRecoversConstructedSolution) { check_constructed(false); }

TEST(ProjectedGaussSeidel, StickAndSeparatedRecoversConstructedSolution) { check_constructed(true); }

TEST(ProjectedGaussSeidel, SingleContactSlipIsAnalytic) {
  const double a = 2.5, w = 0.7, mu = 0.4;
  MatX W = Vec3(a, w, w).asDiagonal();
  for (const Vec3& free : {Vec3(-0.3, 1.1, -0.6), Vec3(-1.7, -0.2, 0.9), Vec3(-0.05, 0.0, -0.3)}) {
    SCOPED_TRACE(::testing::Message() << "free = " << free.transpose());
    const double ln = -free[0] / a;
    const Eigen::Vector2d ft = free.tail<2>();
    ASSERT_GT(ft.norm() / w, mu * ln);  // the stick force -ft / w lies outside the disc: slip
    const Eigen::Vector2d lt = -mu * ln * ft / ft.norm();

    VecX lambda = VecX::Zero(3);
    const PgsResult r = projected_gauss_seidel(W, free, {mu}, lambda, {1000, 1e-15});
    EXPECT_LT(r.iterations, 1000);
    EXPECT_NEAR(lambda[0], ln, 1e-10);
    EXPECT_NEAR(lambda[1], lt[0], 1e-10);
    EXPECT_NEAR(lambda[2], lt[1], 1e-10);
  }
  // Separating: free_n > 0 gives lambda = 0 whatever free_t is, also from a nonzero warm start and
  // with a fully coupled block (W2: W_tn != 0, anisotropic W_tt).
  MatX W2(3, 3);
  W2 << 1.3, 0.2, -0.1, 0.2, 0.9, 0.3, -0.1, 0.3, 1.1;
  for (const MatX& M : {W, W2}) {
    VecX lambda = Vec3(0.5, 0.1, -0.2);
    projected_gauss_seidel(M, Vec3(0.2, 3.0, -1.0), {mu}, lambda, {10, 0.0});
    EXPECT_EQ(lambda, VecX::Zero(3));
  }
}

// Certificate of a solution: Signorini, the Coulomb disc, stick => delta_t = 0, slip => delta_t
// anti-parallel to lambda_t.
void expect_contact_conditions(const MatX& W, const VecX& free, const std::vector<double>& mu, const VecX& lambda) {
  const VecX delta = W * lambda + free;
  const double L = std::max(1.0, inf_norm(lambda)), D = std::max(1.0, inf_norm(free));
  for (std::size_t a = 0; a < mu.size(); ++a) {
    SCOPED_TRACE("contact " + std::to_string(a));
    const Eigen::Index r = 3 * static_cast<Eigen::Index>(a);
    const double ln = lambda[r], dn = delta[r];
    const Eigen::Vector2d lt = lambda.segment<2>(r + 1), dt = delta.segment<2>(r + 1);
    EXPECT_GE(ln, 0.0);
    EXPECT_GE(dn, -1e-9 * D);
    EXPECT_LE(std::abs(ln * dn), 1e-9 * L * D);
    EXPECT_LE(lt.norm(), mu[a] * ln * (1.0 + 1e-9));
    if (ln == 0.0) continue;  // separated: no tangential condition
    if (lt.norm() < mu[a] * ln * (1.0 - 1e-6)) {
      EXPECT_LE(dt.norm(), 1e-8 * D) << "stick";
    } else if (dt.norm() > 1e-8 * D) {
      // slip: delta_t = -alpha lambda_t, alpha >= 0
      const double cross = lt[0] * dt[1] - lt[1] * dt[0];
      EXPECT_LE(std::abs(cross), 1e-6 * lt.norm() * dt.norm()) << "slip direction";
      EXPECT_LT(lt.dot(dt), 0.0) << "slip direction";
    }
  }
}

TEST(ProjectedGaussSeidel, RandomFrictionalProblemsSatisfyContactConditions) {
  int stick = 0, slip = 0, separated = 0;
  for (int m = 2; m <= 6; ++m) {
    for (unsigned seed : {21u, 22u, 23u, 24u, 25u, 26u, 27u, 28u, 29u, 30u}) {
      SCOPED_TRACE("m = " + std::to_string(m) + ", seed = " + std::to_string(seed));
      std::mt19937 rng(seed * 13 + m);
      const MatX W = random_compliance(m, rng);
      const VecX f = random_free(m, rng, seed % 2 ? 1.0 : 0.1);  // small free_t: more sticking
      std::vector<double> mu;
      for (int a = 0; a < m; ++a) mu.push_back(uniform(rng, 0.1, 1.0));

      VecX lambda = VecX::Zero(3 * m);
      const PgsResult r = projected_gauss_seidel(W, f, mu, lambda, {200000, 1e-13});
      ASSERT_LT(r.iterations, 200000);
      expect_contact_conditions(W, f, mu, lambda);
      for (int a = 0; a < m; ++a) {
        const double ln = lambda[3 * a], lt = lambda.segment<2>(3 * a + 1).norm();
        (ln == 0.0 ? separated : lt < mu[a] * ln * (1.0 - 1e-6) ? stick : slip)++;
      }
    }
  }
  // The instances exercise every branch of the conditions.
  EXPECT_GT(stick, 0);
  EXPECT_GT(slip, 0);
  EXPECT_GT(separated, 0);
}

TEST(ProjectedGaussSeidel, MaxIterationsCapsSweepsAtZeroTolerance) {
  std::mt19937 rng(7);
  const MatX W = random_compliance(4, rng);
  const VecX f = random_free(4, rng);
  VecX lambda = VecX::Zero(12);
  const PgsResult r = projected_gauss_seidel(W, f, {0.3, 0.5, 0.7, 0.9}, lambda, {3, 0.0});
  EXPECT_EQ(r.iterations, 3);
  EXPECT_GT(r.change, 0.0);  // not converged: the cap, not the tolerance, stopped it
}

// A problem whose solution is exact in binary (dyadic data): contact 0 sticks, contact 1 slips
// along -t1, contact 2 separates. At lambda* every local solve reproduces lambda* bitwise.
struct ExactProblem {
  MatX W = MatX::Zero(9, 9);
  VecX free, lambda;
  std::vector<double> mu{0.5, 0.5, 0.5};
  ExactProblem() {
    W.diagonal() << 2, 1, 1, 2, 4, 4, 2, 1, 1;
    W(0, 3) = W(3, 0) = 0.5;   // normal-normal coupling 0-1
    W(0, 6) = W(6, 0) = 0.25;  // 0-2
    W(1, 4) = W(4, 1) = 0.25;  // tangent coupling 0-1
    lambda = VecX::Zero(9);
    lambda.segment<3>(0) = Vec3(0.5, 0.125, -0.0625);  // |lt| < 0.25: stick
    lambda.segment<3>(3) = Vec3(0.5, -0.25, 0.0);      // |lt| = 0.25: slip
    VecX delta = VecX::Zero(9);
    delta[4] = 7.0;  // slip: delta_t = 7 e1, anti-parallel to lt
    delta[6] = 1.0;  // contact 2 separates
    delta[7] = -3.0;
    free = delta - W * lambda;
  }
};

TEST(ProjectedGaussSeidel, WarmStartFromSolutionIsAFixedPoint) {
  const ExactProblem p;
  expect_contact_conditions(p.W, p.free, p.mu, p.lambda);  // lambda* is a solution

  VecX cold = VecX::Zero(9);
  const PgsResult rc = projected_gauss_seidel(p.W, p.free, p.mu, cold, {10000, 1e-15});
  EXPECT_LT(rc.iterations, 10000);
  EXPECT_LE(inf_norm(cold - p.lambda), 1e-12);  // PGS converges to it

  VecX warm = p.lambda;
  const PgsResult rw = projected_gauss_seidel(p.W, p.free, p.mu, warm, {50, 1e-13});
  EXPECT_EQ(rw.iterations, 1);
  EXPECT_EQ(rw.change, 0.0);
  EXPECT_EQ(warm, p.lambda);  // bitwise
}

TEST(ProjectedGaussSeidel, WarmStartFromConvergedRandomSolutionBarelyMoves) {
  std::mt19937 rng(31);
  const MatX W = random_compliance(5, rng);
  const VecX f = random_free(5, rng);
  const std::vector<double> mu{0.2, 0.4, 0.6, 0.8, 1.0};
  VecX lambda = VecX::Zero(15);
  const PgsResult r = projected_gauss_seidel(W, f, mu, lambda, {200000, 1e-14});
  ASSERT_LT(r.iterations, 200000);
  VecX warm = lambda;
  const PgsResult rw = projected_gauss_seidel(W, f, mu, warm, {1, 0.0});
  EXPECT_EQ(rw.iterations, 1);
  EXPECT_LE(rw.change, 1e-13);
  EXPECT_LE(inf_norm(warm - lambda), 1e-12);
}

TEST(ProjectedGaussSeidel, IdenticalInputsGiveBitwiseIdenticalOutput) {
  std::mt19937 rng(41);
  const MatX W = random_compliance(6, rng);
  const VecX f = random_free(6, rng);
  const std::vector<double> mu{0.1, 0.3, 0.5, 0.7, 0.9, 1.0};
  VecX start(18);
  for (Eigen::Index i = 0; i < 18; ++i) start[i] = uniform(rng, 0.0, 0.2);
  VecX l1 = start, l2 = start;
  const PgsResult r1 = projected_gauss_seidel(W, f, mu, l1, {25, 0.0});
  const PgsResult r2 = projected_gauss_seidel(W, f, mu, l2, {25, 0.0});
  EXPECT_EQ(l1, l2);
  EXPECT_EQ(r1.iterations, r2.iterations);
  EXPECT_EQ(r1.change, r2.change);
}

// A block that cannot move along its normal (or its tangents), e.g. a vertex whose slip condition
// forbids it: no force there, and no division by a zero or round-off compliance.
TEST(ProjectedGaussSeidel, BlocksWithoutComplianceGetNoForce) {
  MatX W = MatX::Zero(6, 6);
  W.block<3, 3>(0, 0) = Vec3(1.0, 0.0, 0.0).asDiagonal();  // normal free, tangents locked
  W.block<3, 3>(3, 3) = Vec3(1e-30, 1.0, 1.0).asDiagonal();  // normal locked (round-off), tangents free
  const VecX free = (VecX(6) << -0.1, 0.3, -0.2, -0.1, 0.3, 0.0).finished();
  VecX lambda = VecX::Zero(6);
  PgsOptions options;
  options.max_iterations = 10;
  projected_gauss_seidel(W, free, {0.5, 0.5}, lambda, options);
  ASSERT_TRUE(lambda.allFinite());
  EXPECT_DOUBLE_EQ(lambda[0], 0.1);  // the first block's normal force closes its gap
  EXPECT_EQ(lambda[1], 0.0);
  EXPECT_EQ(lambda[2], 0.0);
  EXPECT_EQ(lambda.segment<3>(3), Vec3::Zero());
}

}  // namespace
}  // namespace softsim
