#pragma once
// Diagnostics printed on request. SOFTSIM_DEBUG_NEWTON (read once) makes the Newton solvers print
// every iteration, the term bounding each step and the fraction taken (docs/architecture.md).
#include <cstdlib>

namespace softsim {

inline bool newton_debug_enabled() {
  static const bool enabled = std::getenv("SOFTSIM_DEBUG_NEWTON") != nullptr;
  return enabled;
}

}  // namespace softsim
