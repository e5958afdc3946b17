#include "softsim/solve/nnls.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <vector>

namespace softsim {

namespace {

// The unconstrained least-squares solution over the passive set P (zero elsewhere), from the
// normal equations G_PP z = c_P with G = A^T A and c = A^T b formed once (Bro & de Jong's
// speed-up of Lawson-Hanson: each solve is |P|^3, not rows x |P|^2).
VecX solve_on(const MatX& G, const VecX& c, const std::vector<char>& passive) {
  std::vector<int> columns;
  for (int j = 0; j < static_cast<int>(passive.size()); ++j)
    if (passive[j]) columns.push_back(j);
  if (columns.empty()) return VecX::Zero(G.cols());
  const Eigen::Index k = static_cast<Eigen::Index>(columns.size());
  MatX GP(k, k);
  VecX cP(k);
  for (Eigen::Index a = 0; a < k; ++a) {
    cP[a] = c[columns[a]];
    for (Eigen::Index b = 0; b < k; ++b) GP(a, b) = G(columns[a], columns[b]);
  }
  const VecX z = GP.ldlt().solve(cP);
  VecX s = VecX::Zero(G.cols());
  for (Eigen::Index a = 0; a < k; ++a) s[columns[a]] = z[a];
  return s;
}

}  // namespace

NnlsResult solve_nnls(const MatX& A, const VecX& b) {
  const Eigen::Index n = A.cols();
  NnlsResult out;
  out.x = VecX::Zero(n);
  std::vector<char> passive(n, 0);
  // A variable whose own solve gives it no positive value (nearly dependent columns, round-off)
  // is not tried again until another variable has entered: Lawson-Hanson would cycle on it.
  std::vector<char> excluded(n, 0);
  const MatX G = A.transpose() * A;
  const VecX c = A.transpose() * b;
  VecX w = c;  // the negative gradient of ||Ax - b||^2 / 2
  const double tolerance = 1e-12 * std::max(1.0, w.lpNorm<Eigen::Infinity>());
  const int cap = 3 * static_cast<int>(n) + 10;
  while (true) {
    // The most promising active (zero) variable.
    Eigen::Index best = -1;
    for (Eigen::Index j = 0; j < n; ++j)
      if (!passive[j] && !excluded[j] && w[j] > tolerance && (best < 0 || w[j] > w[best])) best = j;
    if (best < 0) break;
    if (++out.iterations > cap) {
      out.converged = false;
      break;
    }
    passive[best] = 1;
    VecX s = solve_on(G, c, passive);
    if (!(s[best] > 0.0)) {
      passive[best] = 0;
      excluded[best] = 1;
      continue;
    }
    std::fill(excluded.begin(), excluded.end(), 0);
    // Inner loop: step back towards x until the passive set's solution is positive.
    while (true) {
      double alpha = 1.0;
      bool feasible = true;
      for (Eigen::Index j = 0; j < n; ++j)
        if (passive[j] && s[j] <= 0.0) {
          feasible = false;
          alpha = std::min(alpha, out.x[j] / (out.x[j] - s[j]));
        }
      if (feasible) break;
      out.x += alpha * (s - out.x);
      for (Eigen::Index j = 0; j < n; ++j)
        if (passive[j] && out.x[j] <= 1e-15 * std::max(1.0, out.x.lpNorm<Eigen::Infinity>())) {
          passive[j] = 0;
          out.x[j] = 0.0;
        }
      s = solve_on(G, c, passive);
    }
    out.x = s;
    w = c - G * out.x;
  }
  out.residual = (A * out.x - b).norm();
  return out;
}

}  // namespace softsim
