#include "softsim/subspace/body_cubature.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "softsim/core/bounding_box.hpp"
#include "softsim/core/parallel.hpp"
#include "softsim/fem/simplex_elasticity.hpp"

namespace softsim {

MatX training_coordinates(const ReducedBasis& basis, double body_size, int poses, double amplitude, unsigned seed) {
  const int r = basis.size();
  VecX sigma(r);
  double reference = HUGE_VAL;
  for (int j = 0; j < r; ++j)
    if (basis.values[j] > 1e-9 * basis.values.cwiseAbs().maxCoeff()) reference = std::min(reference, basis.values[j]);
  for (int j = 0; j < r; ++j) {
    const double v = basis.values[j];
    double w = 1.0;
    if (basis.kind == ReducedBasisKind::modes)
      w = v > 0.0 && std::isfinite(reference) ? std::sqrt(reference / std::max(v, reference)) : 1.0;
    else
      w = basis.values[0] > 0.0 && v > 0.0 ? std::sqrt(v / basis.values[0]) : 0.0;
    const double largest = basis.columns.col(j).lpNorm<Eigen::Infinity>();
    sigma[j] = largest > 0.0 ? amplitude * body_size / largest * std::max(w, 0.05) : 0.0;
  }
  std::mt19937 random(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  MatX q(r, poses);
  for (int p = 0; p < poses; ++p)
    for (int j = 0; j < r; ++j) q(j, p) = (p + 1.0) / poses * sigma[j] * normal(random);
  return q;
}

namespace {

template <int D>
Cubature fit(const Model& model, const Body& body, const SimplexElasticity<D>& term, const ReducedBasis& basis,
             const BodyCubatureOptions& options) {
  constexpr int K = D + 1;
  const int r = basis.size();
  const int poses = options.poses > 0 ? options.poses : 4 * r;
  const double size = bounding_box_diagonal(body.mesh.vertices);
  const MatX q = training_coordinates(basis, size, poses, options.amplitude, options.fit.seed);
  const int first = body.first_vertex * D, count = body.mesh.num_vertices() * D;
  std::vector<VecX> x(poses, model.rest_positions);
  for (int p = 0; p < poses; ++p) x[p].segment(first, count) += basis.columns * q.col(p);
  const MatXi& elements = term.elements();
  const int m = static_cast<int>(elements.rows());
  // U_e^T g_e at pose p, the element's reduced force.
  auto reduced_force = [&](int e, int p, Eigen::Ref<VecX> out) {
    const Eigen::Matrix<double, K * D, 1> g = term.element_gradient(x[p], e);
    out.setZero();
    for (int a = 0; a < K; ++a)
      for (int i = 0; i < D; ++i) out += g[a * D + i] * basis.columns.row(elements(e, a) * D + i - first).transpose();
  };
  // Every pose's reduced force, whose norm weighs that pose's rows (each pose counts equally).
  MatX target(r, poses);
  parallel_for_each_heavy(poses, [&](std::size_t p) {
    VecX f = VecX::Zero(r), fe(r);
    for (int e = 0; e < m; ++e) {
      reduced_force(e, static_cast<int>(p), fe);
      f += fe;
    }
    target.col(p) = f;
  });
  VecX scale(poses);
  for (int p = 0; p < poses; ++p) scale[p] = target.col(p).norm() > 0.0 ? 1.0 / target.col(p).norm() : 0.0;
  const VecX b = Eigen::Map<const VecX>(MatX(target * scale.asDiagonal()).data(), r * poses);
  auto column = [&](int e, VecX& out) {
    VecX fe(r);
    for (int p = 0; p < poses; ++p) {
      reduced_force(e, p, fe);
      out.segment(p * r, r) = scale[p] * fe;
    }
  };
  return fit_cubature(m, column, b, options.fit);
}

}  // namespace

Cubature body_cubature(const Model& model, int body, const ReducedBasis& basis, const BodyCubatureOptions& options) {
  const Body& b = model.bodies.at(body);
  if (b.elasticity_term < 0) throw std::invalid_argument("cubature needs a body with an elasticity term");
  const Energy* term = model.energies()[b.elasticity_term].get();
  if (model.dim() == 2)
    if (auto* t = dynamic_cast<const SimplexElasticity<2>*>(term)) return fit(model, b, *t, basis, options);
  if (model.dim() == 3)
    if (auto* t = dynamic_cast<const SimplexElasticity<3>*>(term)) return fit(model, b, *t, basis, options);
  throw std::invalid_argument("cubature applies to solids (FEM triangles or tetrahedra), not shells or mass-spring bodies");
}

}  // namespace softsim
