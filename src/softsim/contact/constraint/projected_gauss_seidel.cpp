#include "softsim/contact/constraint/projected_gauss_seidel.hpp"

#include <algorithm>
#include <cmath>

namespace softsim {

PgsResult projected_gauss_seidel(const MatX& W, const VecX& free, const std::vector<double>& mu, VecX& lambda,
                                 const PgsOptions& options) {
  const Eigen::Index m = static_cast<Eigen::Index>(mu.size());
  PgsResult result;
  // delta = W lambda + free, kept up to date block by block (one rank-3 column update per block
  // instead of a 3m dot product per row: the sweep costs one pass over W).
  VecX delta = free + W * lambda;
  // A block whose compliance is round-off against the largest (a vertex whose slip condition
  // forbids the normal or the tangential motion) gets no force in that part: dividing by it
  // would give an arbitrary or infinite force.
  const double negligible = 1e-12 * (m > 0 ? W.diagonal().cwiseAbs().maxCoeff() : 0.0);
  for (int sweep = 0; sweep < options.max_iterations; ++sweep) {
    double change = 0.0;
    for (Eigen::Index a = 0; a < m; ++a) {
      const Eigen::Index r = 3 * a;
      const Mat3 Waa = W.block<3, 3>(r, r);
      const Vec3 old = lambda.segment<3>(r);
      Vec3 l = old;
      Vec3 d = delta.segment<3>(r);
      const bool normal_free = Waa(0, 0) > negligible;
      if (normal_free) l[0] -= d[0] / Waa(0, 0);
      if (!normal_free || l[0] <= 0.0) {  // separating, or nothing can move along the normal
        l.setZero();
      } else {
        const double dn = l[0] - old[0];
        const double w = 0.5 * (Waa(1, 1) + Waa(2, 2));
        const bool tangent_free = w > negligible;
        const double t1 = tangent_free ? l[1] - (d[1] + Waa(1, 0) * dn) / w : 0.0;
        const double t2 = tangent_free ? l[2] - (d[2] + Waa(2, 0) * dn) / w : 0.0;
        const double norm = std::hypot(t1, t2), bound = mu[static_cast<std::size_t>(a)] * l[0];
        const double scale = norm > bound ? (norm > 0.0 ? bound / norm : 0.0) : 1.0;
        l[1] = scale * t1;
        l[2] = scale * t2;
      }
      const Vec3 step = l - old;
      if (step.squaredNorm() == 0.0) continue;
      lambda.segment<3>(r) = l;
      delta.noalias() += W.middleCols<3>(r) * step;
      change = std::max(change, (Waa * step).cwiseAbs().maxCoeff());
    }
    result.iterations = sweep + 1;
    result.change = change;
    if (change <= options.tolerance) break;
  }
  return result;
}

}  // namespace softsim
