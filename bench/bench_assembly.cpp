// Assembly of energy + gradient + PSD-projected Hessian of a neo-Hookean tet mesh (~100K tets),
// against one solve of the same Hessian with the default linear solver, at 1 and 2 threads.
// Report ratios from one run: assembly / solve, and assembly(1 thread) / assembly(2 threads).
#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include "softsim/fem/mass.hpp"
#include "softsim/fem/simplex_elasticity.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/solve/linear_solver.hpp"

namespace {

using namespace softsim;

struct Problem {
  Model model{3};
  VecX x;
  Problem() {
    const Mesh mesh = generate_box(Vec3(4.0, 2.5, 2.0), Eigen::Vector3i(40, 25, 20));  // 100,000 tets
    model.add_vertices(mesh.vertices);
    const LameParameters lame = LameParameters::from_young_poisson(1e5, 0.4);
    std::shared_ptr<const Material<3>> material = make_material<3>("neo_hookean", lame);
    auto term = std::make_unique<SimplexElasticity<3>>(mesh.cells, mesh.vertices, material, "bench");
    add_simplex_mass(model, mesh.cells, term->rest_volumes(), 1000.0, true);
    model.add_energy(std::move(term));
    model.finalize();
    data = ModelData(model);
    // A smooth non-trivial deformation: bend and twist.
    x = model.rest_positions;
    for (int i = 0; i < model.num_vertices(); ++i) {
      Vec3 p = x.segment<3>(3 * i);
      x.segment<3>(3 * i) = Vec3(p.x(), p.y() + 0.05 * p.x() * p.x(), p.z() + 0.02 * p.x() * p.y());
    }
  }
  int num_tets() const { return 100000; }
  EvalContext context() const { return {stage, data}; }
  Stage stage;
  ModelData data;
};

Problem& problem() {
  static Problem p;
  return p;
}

void BM_AssembleProjected(benchmark::State& state) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, state.range(0));
  Problem& p = problem();
  SparseMat H = p.model.layout().pattern();
  VecX g(p.x.size());
  for (auto _ : state) {
    g.setZero();
    std::fill(H.valuePtr(), H.valuePtr() + H.nonZeros(), 0.0);
    AssemblyOutputs out{&g, &H, 1.0, true};
    benchmark::DoNotOptimize(p.model.potential(p.context(), p.x, out));
  }
  state.counters["ns_per_element"] = benchmark::Counter(
      state.iterations() * p.num_tets(), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_AssembleProjected)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SolveDefault(benchmark::State& state) {
  Problem& p = problem();
  SparseMat H = p.model.layout().pattern();
  VecX g = VecX::Zero(p.x.size());
  AssemblyOutputs out{&g, &H, 0.01 * 0.01, true};  // the BE system M + h^2 K
  p.model.potential(p.context(), p.x, out);
  p.model.add_mass_to(H, 1.0);
  auto solver = make_linear_solver("auto", static_cast<int>(p.x.size()));
  solver->compute(H);  // symbolic analysis once, as in a simulation
  VecX dx;
  for (auto _ : state) {
    solver->compute(H);
    solver->solve(-g, dx);
    benchmark::DoNotOptimize(dx.data());
  }
  state.SetLabel(solver->name());
}
BENCHMARK(BM_SolveDefault)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
