// Per-element material cost: the rotation-variant 3x3 SVD (one-sided Jacobi) against Eigen's
// two-sided JacobiSVD it replaced, and a model's evaluate() for energy only (line search),
// energy + P (residuals) and energy + P + projected dP/dF (Newton assembly), on 1024 random
// deformation gradients near the identity with a few inverted ones. Report ratios from one run.
#include <benchmark/benchmark.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <random>
#include <vector>

#include "softsim/material/material.hpp"
#include "softsim/material/svd.hpp"

namespace {

using namespace softsim;

const std::vector<Mat3>& samples() {
  static const std::vector<Mat3> F = [] {
    std::mt19937 rng(5);
    std::normal_distribution<double> n(0.0, 0.3);
    std::vector<Mat3> out(1024);
    for (std::size_t k = 0; k < out.size(); ++k) {
      out[k] = Mat3::Identity();
      for (int i = 0; i < 9; ++i) out[k].data()[i] += n(rng);
    }
    return out;
  }();
  return F;
}

void count_per_sample(benchmark::State& state) {
  state.counters["ns_per_F"] = benchmark::Counter(double(state.iterations() * samples().size()),
                                                  benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_RotationVariantSvd(benchmark::State& state) {
  for (auto _ : state)
    for (const Mat3& F : samples()) benchmark::DoNotOptimize(rotation_variant_svd<3>(F));
  count_per_sample(state);
}
BENCHMARK(BM_RotationVariantSvd);

void BM_EigenJacobiSvd(benchmark::State& state) {
  for (auto _ : state)
    for (const Mat3& F : samples()) {
      Eigen::JacobiSVD<Mat3, Eigen::NoQRPreconditioner> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
      benchmark::DoNotOptimize(svd.singularValues());
    }
  count_per_sample(state);
}
BENCHMARK(BM_EigenJacobiSvd);

void BM_EigenComputeDirect(benchmark::State& state) {
  for (auto _ : state)
    for (const Mat3& F : samples()) {
      Eigen::SelfAdjointEigenSolver<Mat3> eig;
      eig.computeDirect(F.transpose() * F);
      benchmark::DoNotOptimize(eig.eigenvectors());
    }
  count_per_sample(state);
}
BENCHMARK(BM_EigenComputeDirect);

// range(0): 0 energy, 1 energy + P, 2 energy + P + projected dP/dF.
void material_bench(benchmark::State& state, const char* model) {
  const auto material = make_material<3>(model, LameParameters::from_young_poisson(1e5, 0.4));
  Mat3 P;
  Eigen::Matrix<double, 9, 9> dPdF;
  const int order = static_cast<int>(state.range(0));
  for (auto _ : state)
    for (const Mat3& F : samples())
      benchmark::DoNotOptimize(
          material->evaluate(F, order >= 1 ? &P : nullptr, order >= 2 ? &dPdF : nullptr, true));
  count_per_sample(state);
}
BENCHMARK_CAPTURE(material_bench, stable_neo_hookean, "stable_neo_hookean")->DenseRange(0, 2);
BENCHMARK_CAPTURE(material_bench, fixed_corotated, "fixed_corotated")->DenseRange(0, 2);

}  // namespace

BENCHMARK_MAIN();
