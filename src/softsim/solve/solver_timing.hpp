#pragma once
// Wall-time helper for the solvers' per-phase timings (assembly, solve, line search).
#include <chrono>

namespace softsim {

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace softsim
