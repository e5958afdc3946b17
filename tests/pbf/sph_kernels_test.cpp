// The SPH kernels of position-based fluids (pbf/sph_kernels.hpp): poly6 and spiky integrate to 1
// over the plane and space (midpoint quadrature), vanish at the support radius, and the spiky
// gradient equals central differences of the spiky kernel.
#include <gtest/gtest.h>

#include <cmath>

#include "softsim/pbf/sph_kernels.hpp"

namespace softsim {
namespace {

template <int D>
void expect_unit_integrals(double h) {
  const SphKernels<D> k(h);
  const int n = D == 2 ? 400 : 120;  // cells per axis over [-h, h]
  const double d = 2.0 * h / n;
  double poly6 = 0.0, spiky = 0.0;
  std::array<int, D> c{};
  while (true) {
    VecD<D> r;
    for (int a = 0; a < D; ++a) r[a] = -h + (c[a] + 0.5) * d;
    poly6 += k.poly6(r.squaredNorm()) * std::pow(d, D);
    spiky += k.spiky(r.norm()) * std::pow(d, D);
    int a = 0;
    while (a < D && c[a] == n - 1) c[a] = 0, ++a;
    if (a == D) break;
    ++c[a];
  }
  EXPECT_NEAR(poly6, 1.0, 2e-3) << D << "D";
  EXPECT_NEAR(spiky, 1.0, 2e-3) << D << "D";
  EXPECT_EQ(k.poly6(h * h), 0.0);
  EXPECT_EQ(k.spiky(h), 0.0);
  EXPECT_TRUE(k.spiky_gradient(VecD<D>::UnitX() * h).isZero());
  EXPECT_TRUE(k.spiky_gradient(VecD<D>::Zero()).isZero());  // no direction at r = 0
}

TEST(SphKernels, IntegrateToOneIn2DAnd3D) {
  expect_unit_integrals<2>(0.04);
  expect_unit_integrals<3>(0.7);
}

template <int D>
void expect_gradient_matches_differences() {
  const SphKernels<D> k(0.1);
  for (double len : {0.003, 0.02, 0.05, 0.09}) {
    VecD<D> r = VecD<D>::LinSpaced(1.0, 2.0 - D * 0.1).normalized() * len;
    const VecD<D> g = k.spiky_gradient(r);
    const double step = 1e-7;
    for (int a = 0; a < D; ++a) {
      VecD<D> e = VecD<D>::Zero();
      e[a] = step;
      const double fd = (k.spiky((r + e).norm()) - k.spiky((r - e).norm())) / (2 * step);
      EXPECT_NEAR(g[a], fd, 1e-6 * g.norm()) << D << "D, |r| = " << len;
    }
    EXPECT_LT(g.dot(r), 0.0);  // the kernel falls with distance
  }
}

TEST(SphKernels, SpikyGradientMatchesCentralDifferences) {
  expect_gradient_matches_differences<2>();
  expect_gradient_matches_differences<3>();
}

}  // namespace
}  // namespace softsim
