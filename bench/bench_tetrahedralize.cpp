// Meshing time of closed surfaces (a plain timing main; docs/meshing.md has the figures):
//   bench_tetrahedralize [--reps N]
// A unit sphere (icosphere surface, level chosen so its edges match the interior size) meshed with
// the default quality bound (radius-edge 1.5, dihedral 10 degrees, surface points allowed) at three target
// sizes of about 10K, 100K and 1M tets, and the same split into its two parts: the surface checks
// (closed, manifold, orientation, self-intersections) and TetGen. TetGen is single-threaded; the
// checks use TBB's default thread count (printed). One CSV row per size, median of N runs:
//   target,surface_faces,tets,vertices,check_s,total_s,tets_per_s,min_dihedral_deg
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <tbb/info.h>

#include "../tests/support/icosphere.hpp"
#include "softsim/mesh/element_quality.hpp"
#include "softsim/meshing/surface_checks.hpp"
#include "softsim/meshing/tetrahedralize.hpp"

using namespace softsim;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 3;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::max(1, std::atoi(argv[i + 1]));
  if (!tetrahedralization_available()) {
    std::printf("bench_tetrahedralize: built without TetGen (SOFTSIM_WITH_TETGEN=OFF)\n");
    return 0;
  }
  std::printf("# threads for the surface checks: %d; TetGen runs on one\n", tbb::info::default_concurrency());
  std::printf("target,surface_faces,tets,vertices,check_s,total_s,tets_per_s,min_dihedral_deg\n");
  // Edge lengths found by trial for the target counts; the surface level whose edge (about
  // 1.05 x 2^-level for the unit icosphere) is closest to it.
  struct Size {
    int target;
    double edge;
  };
  for (const Size size : {Size{10000, 0.26}, Size{100000, 0.105}, Size{1000000, 0.0445}}) {
    const int level = std::clamp(static_cast<int>(std::lround(std::log2(1.05 / size.edge))), 0, 8);
    const Mesh sphere = test::icosphere(level);
    TetrahedralizeOptions options;
    options.edge_length = size.edge;
    std::vector<double> check_times, total_times;
    Mesh tets;
    for (int r = 0; r < reps; ++r) {
      Mesh copy = sphere;
      auto t0 = Clock::now();
      check_closed_surface(copy, "sphere");
      check_times.push_back(seconds_since(t0));
      t0 = Clock::now();
      tets = tetrahedralize(sphere, options, "sphere");
      total_times.push_back(seconds_since(t0));
    }
    const double total = median(total_times);
    std::printf("%d,%d,%d,%d,%.4f,%.3f,%.0f,%.2f\n", size.target, sphere.num_cells(), tets.num_cells(),
                tets.num_vertices(), median(check_times), total, tets.num_cells() / total,
                summarize_quality(tets).worst_angle);
    std::fflush(stdout);
  }
  return 0;
}
