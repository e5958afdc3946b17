// The bowl grasp of Larionov et al. 2022, §5.1.2 (Figs. 1 and 5) as tables (docs/bowl_grasp.md):
//  1. the bowl's lift over time with lagged and fully implicit friction at h = 0.005, 0.0025 and
//     0.00125 s, for the scene's squeeze (3 mm) or --squeeze S;
//  2. with --threshold: the smallest squeeze that still holds the bowl, by bisection, per mode and h.
//   bench_bowl_grasp [--squeeze 0.003] [--threshold] [--lagged-iterations 1] [--lift-start 0.25]
// --lift-start: when the pads start rising (s); the scene's 0.25 is when they stop closing in.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../tests/support/bowl_grasp.hpp"

using namespace softsim;
using experiments::BowlGrasp;

int main(int argc, char** argv) {
  double squeeze = BowlGrasp::kSqueeze;
  bool threshold = false;
  int lagged_iterations = 1;
  double lift_start = 0.25;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--squeeze") && i + 1 < argc) squeeze = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--threshold")) threshold = true;
    else if (!std::strcmp(argv[i], "--lagged-iterations") && i + 1 < argc) lagged_iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--lift-start") && i + 1 < argc) lift_start = std::atof(argv[++i]);
    else {
      std::fprintf(stderr, "unknown or incomplete argument %s (see the comment at the top of bench_bowl_grasp.cpp)\n",
                   argv[i]);
      return 2;
    }
  }
  const std::vector<double> steps{0.005, 0.0025, 0.00125};
  const std::vector<std::string> modes{"implicit", "lagged"};
  if (threshold) {
    // Held at 3 mm and dropped at 1.5 mm (the pads only touch the rim) in every run measured.
    std::printf("| friction | h (s) | smallest squeeze that holds (mm) | runs | wall (s) |\n|---|---|---|---|---|\n");
    for (const std::string& mode : modes)
      for (double h : steps) {
        double lo = 0.0015, hi = 0.003, seconds = 0.0;
        int runs = 0;
        while (hi - lo > 1e-5) {
          const double mid = 0.5 * (lo + hi);
          const auto r = experiments::run_bowl_grasp(mode, h, mid, lagged_iterations, lift_start);
          seconds += r.seconds;
          ++runs;
          (r.held() ? hi : lo) = mid;
        }
        std::printf("| %s | %.5f | %.3f - %.3f | %d | %.0f |\n", mode.c_str(), h, 1e3 * lo, 1e3 * hi, runs, seconds);
        std::fflush(stdout);
      }
    return 0;
  }
  std::vector<experiments::BowlGraspResult> runs;
  std::printf("squeeze %.2f mm; bowl lift (mm) over time; the pads rise 50 mm between %.2f and %.2f s\n\n",
              1e3 * squeeze, lift_start, lift_start + 0.5);
  std::printf("| t (s) |");
  for (const std::string& mode : modes)
    for (double h : steps) {
      runs.push_back(experiments::run_bowl_grasp(mode, h, squeeze, lagged_iterations, lift_start));
      std::printf(" %s h=%g |", mode.c_str(), h);
    }
  std::printf("\n|---|");
  for (std::size_t k = 0; k < runs.size(); ++k) std::printf("---|");
  std::printf("\n");
  for (std::size_t i = 0; i < runs.front().times.size(); ++i) {
    std::printf("| %.2f |", runs.front().times[i]);
    for (const auto& r : runs) std::printf(" %.1f |", i < r.lifts.size() ? 1e3 * r.lifts[i] : NAN);
    std::printf("\n");
  }
  std::printf("| held |");
  for (const auto& r : runs) std::printf(" %s |", r.held() ? "yes" : "no");
  std::printf("\n| Newton its/step |");
  for (const auto& r : runs) std::printf(" %.2f |", double(r.newton_iterations) / r.steps);
  std::printf("\n| wall (s) |");
  for (const auto& r : runs) std::printf(" %.1f%s |", r.seconds, r.converged ? "" : " (unconverged steps)");
  std::printf("\n");
  return 0;
}
