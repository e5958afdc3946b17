#pragma once
// Shared fixtures for the material tests: parameter sets, seeded deformation-gradient samples
// (random, near-degenerate, repeated singular values, identity, inverted) and vec helpers.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "softsim/material/material.hpp"

namespace softsim::test {

// Two parameter sets: generic O(1) values with lambda/mu ~ 2, and a nearly incompressible
// rubber (E = 1e5, nu = 0.45, lambda/mu ~ 9.7) to catch parametrisation and scaling errors.
inline std::vector<LameParameters> test_lame_parameters() {
  return {LameParameters{1.3, 2.9}, LameParameters::from_young_poisson(1e5, 0.45)};
}

template <int D>
MatD<D> random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  MatD<D> A;
  for (int i = 0; i < D * D; ++i) A.data()[i] = n(rng);
  MatD<D> Q = Eigen::HouseholderQR<MatD<D>>(A).householderQ();
  if (Q.determinant() < 0) Q.col(0) *= -1.0;
  return Q;
}

template <int D>
MatD<D> with_singular_values(std::mt19937& rng, const VecD<D>& sigma) {
  return random_rotation<D>(rng) * sigma.asDiagonal() * random_rotation<D>(rng).transpose();
}

template <int D>
VecD<D> sv(double a, double b, double c) {
  if constexpr (D == 2) {
    (void)c;
    return VecD<D>(a, b);
  } else {
    return VecD<D>(a, b, c);
  }
}

struct NamedSample {
  std::string label;
  bool inverted;
};

// Deformation gradients with a label each. Inverted ones keep |sigma_D| well away from
// sigma_{D-1} so that the polar-rotation models stay smooth there (their twist mode is singular
// at sigma_i + sigma_j = 0).
template <int D>
std::vector<std::pair<NamedSample, MatD<D>>> deformation_samples(unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, 0.3);
  std::vector<std::pair<NamedSample, MatD<D>>> out;
  for (int k = 0; k < 6; ++k) {
    MatD<D> F = MatD<D>::Identity();
    for (int i = 0; i < D * D; ++i) F.data()[i] += n(rng);
    if (F.determinant() < 0.2) {  // keep the random set well inside the non-inverted region
      --k;
      continue;
    }
    out.push_back({{"random " + std::to_string(k), false}, F});
  }
  out.push_back({{"identity", false}, MatD<D>::Identity()});
  out.push_back({{"rotation", false}, random_rotation<D>(rng)});
  out.push_back({{"small singular value 1e-3", false}, with_singular_values<D>(rng, sv<D>(1.2, 1e-3, 0.8))});
  out.push_back({{"two equal singular values", false}, with_singular_values<D>(rng, sv<D>(0.7, 0.7, 1.3))});
  out.push_back({{"nearly equal singular values", false},
                 with_singular_values<D>(rng, sv<D>(1.1, 1.1 + 1e-9, 0.6))});
  out.push_back({{"all equal singular values", false}, with_singular_values<D>(rng, sv<D>(0.8, 0.8, 0.8))});
  out.push_back({{"inverted", true}, with_singular_values<D>(rng, sv<D>(1.1, -0.4, 0.9))});
  out.push_back({{"inverted, compressed", true}, with_singular_values<D>(rng, sv<D>(0.6, -0.2, 0.5))});
  out.push_back({{"inverted, reflection", true}, with_singular_values<D>(rng, sv<D>(1.0, -1e-3, 1.0))});
  return out;
}

template <int D>
VecX vec_of(const MatD<D>& M) {
  return Eigen::Map<const VecX>(M.data(), D * D);
}
template <int D>
MatD<D> mat_of(const VecX& v) {
  return Eigen::Map<const MatD<D>>(v.data());
}

// Smallest |singular value| of F, which sets the length scale of Psi's variation.
template <int D>
double smallest_singular_value(const MatD<D>& F) {
  return Eigen::JacobiSVD<MatD<D>>(F).singularValues()(D - 1);
}

// Smallest eigenvalue of a tangent dP/dF (symmetric, D^2 x D^2), for PSD checks. Of dynamic size:
// one eigensolver, instantiated once, serves both dimensions.
template <int D>
double min_eigenvalue(const MatD<D * D>& K) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Eigen::MatrixXd(K), Eigen::EigenvaluesOnly).eigenvalues().minCoeff();
}

}  // namespace softsim::test
