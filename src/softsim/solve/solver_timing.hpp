#pragma once
// Wall-time helpers for the solvers' per-phase timings (assembly, factorization, solve, line
// search). They are for the benchmarks that report them and are measured only once
// set_phase_timing(true) is called: a clock read costs about 20 ns, and the solvers' several per
// Newton iteration were 2% of a step of the book's smallest scenes (perf, docs/book-cases.md).
#include <atomic>
#include <chrono>

namespace softsim {

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

inline std::atomic<bool> phase_timing_on{false};
inline void set_phase_timing(bool on) { phase_timing_on.store(on, std::memory_order_relaxed); }
inline bool phase_timing() { return phase_timing_on.load(std::memory_order_relaxed); }

// Adds the wall time since its construction to a total, when phase timing is on.
class PhaseTimer {
 public:
  PhaseTimer() : on_(phase_timing()) {
    if (on_) start_ = std::chrono::steady_clock::now();
  }
  void add_to(double& total_ms) const {
    if (on_) total_ms += ms_since(start_);
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point start_{};
};

}  // namespace softsim
