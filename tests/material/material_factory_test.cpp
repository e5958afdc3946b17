// Model lookup by name, flags, and neo-Hookean's barrier at det F <= 0.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "material/material_test_util.hpp"

namespace softsim::test {
namespace {

TEST(MaterialFactory, EveryListedNameBuildsThatModel) {
  const std::vector<std::string> expected = {"linear", "corotated_linear", "fixed_corotated", "stvk",
                                             "neo_hookean", "stable_neo_hookean", "arap"};
  EXPECT_EQ(material_model_names(), expected);
  for (const auto& name : material_model_names()) {
    EXPECT_EQ(make_material<2>(name, {1.0, 1.0})->name(), name);
    EXPECT_EQ(make_material<3>(name, {1.0, 1.0})->name(), name);
  }
}

TEST(MaterialFactory, UnknownNameThrows) {
  EXPECT_THROW(make_material<3>("neohookean", {1.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(make_material<2>("", {1.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(make_material<3>("Linear", {1.0, 1.0}), std::invalid_argument);
}

TEST(MaterialFactory, Flags) {
  for (const auto& name : material_model_names()) {
    const auto m = make_material<3>(name, {1.0, 1.0});
    EXPECT_EQ(m->uses_frozen_rotation(), name == "corotated_linear") << name;
    EXPECT_EQ(m->defined_when_inverted(), name != "neo_hookean") << name;
  }
}

template <int D>
void check_neo_hookean_barrier() {
  const auto nh = make_material<D>("neo_hookean", {1.3, 2.9});
  std::mt19937 rng(3);
  MatD<D> singular = MatD<D>::Identity();
  singular(1, 1) = 0.0;
  MatD<D> zero_column = with_singular_values<D>(rng, sv<D>(1.0, 0.9, 1.1));
  zero_column.col(0).setZero();
  MatD<D> reflection = MatD<D>::Identity();
  reflection(0, 0) = -1.0;
  const MatD<D> cases[] = {singular, zero_column, MatD<D>::Zero(), reflection,
                           with_singular_values<D>(rng, sv<D>(1.0, -0.5, 0.8)),
                           with_singular_values<D>(rng, sv<D>(1.0, -1e-12, 0.8))};
  for (const MatD<D>& F : cases) {
    ASSERT_LE(F.determinant(), 0.0);
    MatD<D> P = MatD<D>::Constant(std::numeric_limits<double>::quiet_NaN());
    MatD<D * D> K = MatD<D * D>::Constant(std::numeric_limits<double>::quiet_NaN());
    const double psi = nh->evaluate(F, &P, &K, true);
    EXPECT_TRUE(std::isinf(psi) && psi > 0) << "D=" << D << " F =\n" << F;
    EXPECT_TRUE(P.allFinite() && K.allFinite());
    EXPECT_TRUE(std::isinf(nh->energy_density(F)));
  }
  // Just inside the domain the energy is finite (and large).
  const double psi = nh->energy_density(with_singular_values<D>(rng, sv<D>(1.0, 1e-8, 0.8)));
  EXPECT_TRUE(std::isfinite(psi));
  EXPECT_GT(psi, 100.0);
}

TEST(NeoHookean, InfiniteEnergyWhenNotPositiveVolume) {
  check_neo_hookean_barrier<2>();
  check_neo_hookean_barrier<3>();
}

TEST(StableNeoHookean, RejectsParametersWithoutVolumeStiffness) {
  // lambda' = lambda + mu - 2 mu/(D(D+1)) <= 0.
  EXPECT_THROW(make_material<3>("stable_neo_hookean", {1.0, -1.0}), std::invalid_argument);
  EXPECT_NO_THROW(make_material<3>("stable_neo_hookean", {1.0, -0.5}));
}

}  // namespace
}  // namespace softsim::test
