#include "softsim/subspace/cubature.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "softsim/core/parallel.hpp"
#include "softsim/solve/nnls.hpp"

namespace softsim {

Cubature fit_cubature(int num_elements, const std::function<void(int, VecX&)>& column, const VecX& target,
                      const CubatureOptions& options) {
  Cubature out;
  out.num_elements = std::max(num_elements, 0);
  const double target_norm = target.norm();
  if (num_elements <= 0 || !(target_norm > 0.0)) return out;
  std::vector<char> chosen(num_elements, 0);
  std::vector<int> all(num_elements);
  std::iota(all.begin(), all.end(), 0);
  std::mt19937 random(options.seed);
  MatX A(target.size(), 0);
  VecX residual = target;
  while (static_cast<int>(out.elements.size()) < std::min(options.max_elements, num_elements) &&
         residual.norm() > options.tolerance * target_norm) {
    // The candidates: every element not chosen yet, or a sample of them.
    std::vector<int> candidates;
    for (int e : all)
      if (!chosen[e]) candidates.push_back(e);
    if (static_cast<int>(candidates.size()) > options.candidates) {
      std::shuffle(candidates.begin(), candidates.end(), random);
      candidates.resize(options.candidates);
      std::sort(candidates.begin(), candidates.end());
    }
    // The one whose column points most along the residual (cosine).
    std::vector<double> score(candidates.size(), -HUGE_VAL);
    parallel_for(candidates.size(), [&](std::size_t k) {
      VecX c(target.size());
      column(candidates[k], c);
      const double norm = c.norm();
      if (norm > 0.0) score[k] = c.dot(residual) / norm;
    });
    const std::size_t best = std::max_element(score.begin(), score.end()) - score.begin();
    if (!(score[best] > 0.0)) break;  // nothing left that helps
    const int e = candidates[best];
    chosen[e] = 1;
    out.elements.push_back(e);
    A.conservativeResize(Eigen::NoChange, A.cols() + 1);
    VecX c(target.size());
    column(e, c);
    A.col(A.cols() - 1) = c;
    const NnlsResult fit = solve_nnls(A, target);
    out.weights.assign(fit.x.data(), fit.x.data() + fit.x.size());
    residual = target - A * fit.x;
  }
  // Elements the last fit gave weight 0 are dropped.
  Cubature kept;
  kept.num_elements = num_elements;
  for (std::size_t k = 0; k < out.elements.size(); ++k)
    if (out.weights[k] > 0.0) {
      kept.elements.push_back(out.elements[k]);
      kept.weights.push_back(out.weights[k]);
    }
  kept.relative_error = residual.norm() / target_norm;
  return kept;
}

}  // namespace softsim
