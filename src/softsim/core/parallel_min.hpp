#pragma once
// The smallest of f(i) over i in [0, n) (and `init`), in parallel over fixed blocks. A minimum
// is exact whatever the order it is taken in, so the result does not depend on the thread
// count; no per-item storage, and a single block runs inline (the small-scene fast path).
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstddef>

#include "softsim/core/parallel.hpp"

namespace softsim {

template <class F>
double parallel_min(std::size_t n, double init, F&& f) {
  auto block_min = [&](std::size_t begin, std::size_t end, double m) {
    for (std::size_t i = begin; i < end; ++i) m = std::min(m, f(i));
    return m;
  };
  if (n <= kParallelGrain) return block_min(0, n, init);
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, kParallelGrain), init,
      [&](const tbb::blocked_range<std::size_t>& r, double m) { return block_min(r.begin(), r.end(), m); },
      [](double a, double b) { return std::min(a, b); });
}

}  // namespace softsim
