// Broad phase (spatial hash, BVH and linear BVH; the data behind the `auto` rule of
// candidates.cpp) on the surfaces of generated unit boxes of increasing
// resolution (about 1K, 4K, 16K, 64K surface primitives = vertices + edges + faces), swept CCD
// query (random motion of 0.2 cell) and proximity query (dhat = 0.1 cell); near-linear scaling
// shows as a constant items_per_second (primitives per wall-clock second). Also the scalable-CCD cloth-funnel
// frames 227 -> 228 when ../shared/data exists (SOFTSIM_DATA_DIR overrides).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>

#include "softsim/contact/broad_phase/candidates.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/surface.hpp"

namespace {

using namespace softsim;

struct Scene {
  CollisionMesh cm;
  VertexRows V0, V1;
  double cell = 0.0;
  long primitives() const { return cm.num_vertices() + cm.num_edges() + cm.num_faces(); }
};

const Scene& box_scene(int n) {
  static std::map<int, std::unique_ptr<Scene>> cache;
  auto& s = cache[n];
  if (!s) {
    s = std::make_unique<Scene>();
    const Mesh box = generate_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(n, n, n));
    const Surface surf = extract_surface(box);
    s->cm = build_collision_mesh(3, box.num_vertices(), surf.edges, surf.faces);
    s->cell = 1.0 / n;
    s->V0 = box.vertices;
    s->V1 = s->V0;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-0.2 * s->cell, 0.2 * s->cell);
    for (Eigen::Index i = 0; i < s->V1.size(); ++i) s->V1.data()[i] += u(rng);
  }
  return *s;
}

const Scene* cloth_scene() {
  static std::unique_ptr<Scene> s;
  static bool tried = false;
  if (!tried) {
    tried = true;
    const char* env = std::getenv("SOFTSIM_DATA_DIR");
    const std::filesystem::path data =
        env && *env ? std::filesystem::path(env)
                    : std::filesystem::path(SOFTSIM_SOURCE_DIR) / ".." / "shared" / "data";
    const auto dir = data / "ccd" / "scalable-ccd-sample" / "cloth-funnel" / "frames";
    if (std::filesystem::exists(dir / "227.ply")) {
      s = std::make_unique<Scene>();
      const Mesh m0 = read_mesh(dir / "227.ply"), m1 = read_mesh(dir / "228.ply");
      s->cm = build_collision_mesh(3, m0.num_vertices(), MatXi(0, 2), m0.cells);
      s->V0 = m0.vertices;
      s->V1 = m1.vertices;
    }
  }
  return s.get();
}

// Surface resolution n -> about 36 n^2 primitives: 2 -> 0.1K, 5 -> 0.9K, 11 -> 4.4K, 21 -> 16K,
// 42 -> 64K.
const int kSizes[] = {2, 5, 11, 21, 42};

void run(benchmark::State& state, const Scene& s, BroadPhaseMethod m, bool swept) {
  std::size_t count = 0;
  for (auto _ : state) {
    const Candidates c = swept ? ccd_candidates(s.cm, s.V0, s.V1, 0.0, m)
                               : proximity_candidates(s.cm, s.V1, 0.1 * s.cell, m);
    count = c.size();
    benchmark::DoNotOptimize(count);
  }
  state.counters["primitives"] = static_cast<double>(s.primitives());
  state.counters["candidates"] = static_cast<double>(count);
  state.SetItemsProcessed(state.iterations() * s.primitives());
}

void BM_Box(benchmark::State& state) {
  const auto m = static_cast<BroadPhaseMethod>(state.range(1));
  run(state, box_scene(static_cast<int>(state.range(0))), m, state.range(2) != 0);
}

void BM_ClothFunnel(benchmark::State& state) {
  const Scene* s = cloth_scene();
  if (!s) {
    state.SkipWithError("shared data not found");
    for (auto _ : state) {
    }
    return;
  }
  run(state, *s, static_cast<BroadPhaseMethod>(state.range(0)), true);
}

void box_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"n", "method", "swept"});
  for (int swept : {1, 0})
    for (int m : {int(BroadPhaseMethod::SpatialHash), int(BroadPhaseMethod::BVH), int(BroadPhaseMethod::LinearBVH),
                  int(BroadPhaseMethod::BruteForce)})
      for (int n : kSizes)
        if (m != int(BroadPhaseMethod::BruteForce) || n <= 11) b->Args({n, m, swept});
}

}  // namespace

// Real time: the work runs on TBB worker threads, not only on the timing thread.
BENCHMARK(BM_Box)->Apply(box_args)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ClothFunnel)
    ->ArgName("method")
    ->Arg(int(BroadPhaseMethod::SpatialHash))
    ->Arg(int(BroadPhaseMethod::BVH))
    ->Arg(int(BroadPhaseMethod::LinearBVH))
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
