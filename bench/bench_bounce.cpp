// The tennis ball drop of Larionov et al. 2022, §5.3.1 (Fig. 10) as a table: bounce height of the
// pressurised (2 atm) and unpressurised (1 atm) ball dropped from 2.54 m, for BE, BDF2 and SDIRK2
// at several time steps (docs/bounce.md). One run per row; the run stops past the apex.
//   bench_bounce [--integrators backward_euler,bdf2,sdirk2] [--steps 0.002,0.001,0.0005]
//                [--scenes tennis_ball_drop,tennis_ball_drop_unpressurised]
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "../tests/support/bounce.hpp"
#include "../tests/support/scene_file.hpp"

using namespace softsim;

namespace {

std::vector<std::string> split(const char* list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string s; std::getline(in, s, ',');) out.push_back(s);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> integrators{"backward_euler", "bdf2", "sdirk2"};
  std::vector<std::string> steps{"0.002", "0.001", "0.0005"};
  std::vector<std::string> scenes{"tennis_ball_drop", "tennis_ball_drop_unpressurised"};
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 < argc && !std::strcmp(argv[i], "--integrators")) integrators = split(argv[i + 1]);
    else if (i + 1 < argc && !std::strcmp(argv[i], "--steps")) steps = split(argv[i + 1]);
    else if (i + 1 < argc && !std::strcmp(argv[i], "--scenes")) scenes = split(argv[i + 1]);
    else {
      std::fprintf(stderr, "unknown or incomplete argument %s (see the comment at the top of bench_bounce.cpp)\n", argv[i]);
      return 2;
    }
  }
  std::printf("| scene | integrator | h (s) | impact (s) | contact (ms) | max compression | bounce (m) | bounce / drop | "
              "Newton its/step | wall (s) |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& name : scenes)
    for (const std::string& integrator : integrators)
      for (const std::string& h : steps) {
        const auto file = test::scene_file(name + ".json");
        const auto r = experiments::run_bounce(file, integrator, std::stod(h));
        std::printf("| %s | %s | %s | %.4f | %.1f | %.1f%% | %.3f | %.1f%% | %.2f | %.1f |%s\n", name.c_str(),
                    integrator.c_str(), h.c_str(), r.impact_time, 1e3 * r.contact_duration, 100 * r.max_compression,
                    r.bounce_height, 100 * r.ratio(), double(r.newton_iterations) / r.steps, r.seconds,
                    r.converged ? "" : " (unconverged steps)");
        std::fflush(stdout);
      }
  return 0;
}
