#include "softsim/pbd/strain_constraints.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>

#include <cmath>
#include <stdexcept>

#include "softsim/fem/shell_membrane.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/material/small_strain_lame.hpp"

namespace softsim {
namespace {

enum class StrainKind { Stretch, Shear, Volume };

struct StrainItem {
  int element;
  StrainKind kind;
  int i, j;          // the rest axes (stretch: i; shear: i < j)
  double stiffness;  // k: the element's energy is k C^2 / 2
};

// C and dC/dF of one strain constraint at F = [f_1 .. f_D] (Müller et al. 2014; the shear
// normalised by the columns' lengths, so that it measures the angle only).
template <int R, int D>
double strain_value(const Eigen::Matrix<double, R, D>& F, const StrainItem& item, Eigen::Matrix<double, R, D>& dCdF) {
  dCdF.setZero();
  switch (item.kind) {
    case StrainKind::Stretch: {
      const double length = F.col(item.i).norm();
      if (length > 0.0) dCdF.col(item.i) = F.col(item.i) / length;
      return length - 1.0;
    }
    case StrainKind::Shear: {
      const auto fi = F.col(item.i), fj = F.col(item.j);
      const double li = fi.norm(), lj = fj.norm();
      if (!(li > 0.0 && lj > 0.0)) return 0.0;
      const double c = fi.dot(fj) / (li * lj);
      dCdF.col(item.i) = fj / (li * lj) - c * fi / (li * li);
      dCdF.col(item.j) = fi / (li * lj) - c * fj / (lj * lj);
      return c;
    }
    case StrainKind::Volume:
      if constexpr (R == 3 && D == 2) {  // a shell triangle: the area ratio |f_1 x f_2|
        const Vec3 a = F.col(0).cross(F.col(1));
        const double J = a.norm();
        if (!(J > 0.0)) return -1.0;
        const Vec3 n = a / J;
        dCdF.col(0) = F.col(1).cross(n);
        dCdF.col(1) = n.cross(F.col(0));
        return J - 1.0;
      } else if constexpr (R == 2 && D == 2) {
        dCdF << F(1, 1), -F(1, 0), -F(0, 1), F(0, 0);  // the cofactor matrix
        return F.determinant() - 1.0;
      } else {
        dCdF.col(0) = F.col(1).cross(F.col(2));
        dCdF.col(1) = F.col(2).cross(F.col(0));
        dCdF.col(2) = F.col(0).cross(F.col(1));
        return F.determinant() - 1.0;
      }
  }
  return 0.0;
}

// The constraints of a term whose elements have D + 1 vertices in R dimensions.
template <int R, int D>
struct StrainSource : EnergyElements::Source {
  using Mat = Eigen::Matrix<double, R, D>;
  std::vector<Eigen::Matrix<int, D + 1, 1>> vertices;  // per element
  std::vector<MatD<D>> rest_inverse;                    // per element
  std::vector<StrainItem> items;                        // per constraint

  // Appends element e's constraints (stiffnesses from mu, lambda and its rest volume V0).
  void add_element(const Eigen::Matrix<int, D + 1, 1>& ids, const MatD<D>& Bm, double mu, double lambda, double V0,
                   std::vector<std::vector<int>>& elements) {
    const int e = static_cast<int>(vertices.size());
    vertices.push_back(ids);
    rest_inverse.push_back(Bm);
    const std::vector<int> list(ids.data(), ids.data() + D + 1);
    auto add = [&](StrainKind kind, int i, int j, double k) {
      if (!(k > 0.0)) return;
      items.push_back({e, kind, i, j, k});
      elements.push_back(list);
    };
    for (int i = 0; i < D; ++i) add(StrainKind::Stretch, i, i, 2.0 * mu * V0);
    for (int i = 0; i < D; ++i)
      for (int j = i + 1; j < D; ++j) add(StrainKind::Shear, i, j, mu * V0);
    add(StrainKind::Volume, 0, 0, lambda * V0);
  }

  double energy(const VecX& x, int local, double* grad) const override {
    const StrainItem& item = items[static_cast<std::size_t>(local)];
    const auto& ids = vertices[static_cast<std::size_t>(item.element)];
    const MatD<D>& Bm = rest_inverse[static_cast<std::size_t>(item.element)];
    Mat Ds;
    const auto x0 = x.segment<R>(R * ids[0]);
    for (int k = 0; k < D; ++k) Ds.col(k) = x.segment<R>(R * ids[k + 1]) - x0;
    Mat dCdF;
    const double C = strain_value<R, D>(Ds * Bm, item, dCdF);
    if (grad) {
      // dE/dDs = k C dC/dF Dm^-T; vertex k + 1 gets column k, vertex 0 minus their sum.
      const Mat G = item.stiffness * C * dCdF * Bm.transpose();
      Eigen::Matrix<double, R, 1> first = -G.rowwise().sum();
      for (int r = 0; r < R; ++r) grad[r] = first[r];
      for (int k = 0; k < D; ++k)
        for (int r = 0; r < R; ++r) grad[(k + 1) * R + r] = G(r, k);
    }
    return 0.5 * item.stiffness * C * C;
  }
};

// lambda read back by differences is ~1e-10 mu where the model's is 0: that is 0.
LameParameters checked(LameParameters lame) {
  if (std::abs(lame.lambda) < 1e-8 * lame.mu) lame.lambda = 0.0;
  if (lame.lambda < 0.0)
    throw std::invalid_argument("strain-based constraints need a Poisson ratio >= 0 (lambda >= 0): a volume "
                                "constraint cannot have a negative stiffness");
  return lame;
}

}  // namespace

template <int D>
std::unique_ptr<EnergyElements::Source> strain_constraints(const SimplexElasticity<D>& term,
                                                           std::vector<std::vector<int>>& elements) {
  const LameParameters lame = checked(small_strain_lame<D>(*term.material()));
  auto source = std::make_unique<StrainSource<D, D>>();
  const MatXi& cells = term.elements();
  for (Eigen::Index e = 0; e < cells.rows(); ++e)
    source->add_element(cells.row(e).transpose(), term.rest_inverse(static_cast<int>(e)), lame.mu, lame.lambda,
                        term.rest_volumes()[static_cast<std::size_t>(e)], elements);
  return source;
}

std::unique_ptr<EnergyElements::Source> strain_constraints(const ShellMembrane& term,
                                                           std::vector<std::vector<int>>& elements) {
  const LameParameters lame = checked({term.mu(), term.plane_stress_lambda()});
  auto source = std::make_unique<StrainSource<3, 2>>();
  const MatXi& triangles = term.triangles();
  for (Eigen::Index t = 0; t < triangles.rows(); ++t)
    source->add_element(triangles.row(t).transpose(), term.rest_inverse(static_cast<int>(t)), lame.mu,
                        lame.lambda, term.rest_areas()[static_cast<std::size_t>(t)] * term.thickness(),
                        elements);
  return source;
}

template std::unique_ptr<EnergyElements::Source> strain_constraints<2>(const SimplexElasticity<2>&,
                                                                       std::vector<std::vector<int>>&);
template std::unique_ptr<EnergyElements::Source> strain_constraints<3>(const SimplexElasticity<3>&,
                                                                       std::vector<std::vector<int>>&);

}  // namespace softsim
