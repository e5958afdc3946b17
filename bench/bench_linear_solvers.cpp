// CHOLMOD (supernodal Cholesky) against PCG with incomplete Cholesky on 3D elasticity systems
// of increasing size: the backward-Euler Newton matrix M + h^2 K (h = 0.01, projected Hessian)
// of a stable neo-Hookean block (E = 1e5 Pa, nu = 0.4, rho = 1000), 2 x 1 x 1 m, resolution
// [2n, n, n] (5 tets per cell), fixed at x = -1, at x = rest + h^2 M_lumped^-1 f_gravity (one
// gravity step's deformation, so K is not exactly the rest stiffness). Measures
//  - CHOLMOD: symbolic analysis, numeric factorization, one solve (ms), nnz(L), peak memory;
//  - PCG(IC): preconditioner set-up, solve to the Newton default 1e-8 relative residual (ms),
//    iterations, and to 1e-4 (a typical inexact tolerance).
// Used to pick kAutoDirectMaxDofs (docs/solvers.md).
//   bench_linear_solvers [n_min n_max n_step] [max_factor_seconds] [E (Pa)] [h (s)]
#include <Eigen/CholmodSupport>
#include <Eigen/IterativeLinearSolvers>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "softsim/integrate/incremental_potential.hpp"
#include "softsim/scene/scene.hpp"

using namespace softsim;

namespace {
double ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  const int n_min = argc > 3 ? std::atoi(argv[1]) : 14, n_max = argc > 3 ? std::atoi(argv[2]) : 36,
            n_step = argc > 3 ? std::atoi(argv[3]) : 4;
  const double max_factor_s = argc > 4 ? std::atof(argv[4]) : 60.0;
  const double E = argc > 5 ? std::atof(argv[5]) : 1e5, h = argc > 6 ? std::atof(argv[6]) : 0.01;
  std::printf("E = %g Pa, h = %g s\n\n", E, h);
  std::printf("| n | tets | DOFs | nnz(A) | CHOLMOD analyze ms | factor ms | solve ms | nnz(L) | peak MB | "
              "PCG set-up ms | PCG 1e-8 ms | it | PCG 1e-4 ms | it |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  bool cholmod_on = true;
  for (int n = n_min; n <= n_max; n += n_step) {
    const nlohmann::json json = {
        {"dim", 3},
        {"time", {{"dt", h}, {"steps", 1}}},
        {"bodies",
         {{{"name", "block"},
           {"generator", {{"type", "box"}, {"size", {2.0, 1.0, 1.0}}, {"resolution", {2 * n, n, n}}}},
           {"material", {{"model", "stable_neo_hookean"}, {"E", E}, {"nu", 0.4}, {"density", 1000}}},
           {"fixed", {{{"box", {{-1.01, -1, -1}, {-0.99, 1, 1}}}}}}}}}};
    const Scene scene = parse_scene(json, {});
    Model model = build_model(scene);
    ModelData data(model);
    IncrementalPotential objective(model, data);
    objective.set_step(Stage::step(0.0, h), model.rest_positions, 1.0, h * h, model.rest_positions, 0.0);
    // One gravity step's deformation so K is not exactly the rest stiffness.
    VecX x = model.rest_positions + h * h * model.external_force().cwiseQuotient(model.mass_times(VecX::Ones(model.num_dofs())));
    model.boundary.apply_positions(x, model.rest_positions, h);
    VecX g(x.size());
    SparseMat A = objective.hessian_pattern();
    objective.evaluate(x, &g, &A, true);
    objective.reduce(g, &A);
    const VecX b = -g;
    std::printf("| %d | %d | %ld | %ld |", n, 10 * n * n * n, long(A.rows()), long(A.nonZeros()));
    if (cholmod_on) {
      Eigen::CholmodSupernodalLLT<SparseMat, Eigen::Lower> llt;
      auto t0 = std::chrono::steady_clock::now();
      llt.analyzePattern(A);
      const double t_an = ms(t0);
      t0 = std::chrono::steady_clock::now();
      llt.factorize(A);
      const double t_f = ms(t0);
      t0 = std::chrono::steady_clock::now();
      VecX xs = llt.solve(b);
      const double t_s = ms(t0);
      std::printf(" %.0f | %.0f | %.1f | %.3g | %.0f |", t_an, t_f, t_s, double(llt.cholmod().lnz),
                  llt.cholmod().memory_usage / 1048576.0);
      if (t_f > 1000.0 * max_factor_s) cholmod_on = false;
    } else {
      std::printf(" - | - | - | - | - |");
    }
    {
      Eigen::ConjugateGradient<SparseMat, Eigen::Lower | Eigen::Upper, Eigen::IncompleteCholesky<double>> pcg;
      auto t0 = std::chrono::steady_clock::now();
      pcg.compute(A);
      const double t_c = ms(t0);
      pcg.setTolerance(1e-8);
      t0 = std::chrono::steady_clock::now();
      VecX xs = pcg.solve(b);
      const double t_s8 = ms(t0);
      const long it8 = pcg.iterations();
      pcg.setTolerance(1e-4);
      t0 = std::chrono::steady_clock::now();
      xs = pcg.solve(b);
      const double t_s4 = ms(t0);
      std::printf(" %.0f | %.0f | %ld | %.0f | %ld |\n", t_c, t_s8, it8, t_s4, long(pcg.iterations()));
    }
    std::fflush(stdout);
  }
  return 0;
}
