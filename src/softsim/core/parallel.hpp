#pragma once
// Parallel loops over elements. Work is split into fixed-size blocks so that every reduction is
// summed in the same order whatever the thread count (deterministic results).
#include <tbb/parallel_for.h>
#include <tbb/blocked_range.h>

#include <cstddef>
#include <vector>

namespace softsim {

inline constexpr std::size_t kParallelGrain = 256;

// Loops of at most one block run inline: starting TBB's workers costs more than such a loop.
template <class Body>
void parallel_for(std::size_t n, Body&& body) {
  if (n <= kParallelGrain) {
    for (std::size_t i = 0; i < n; ++i) body(i);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kParallelGrain),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i != r.end(); ++i) body(i);
                    });
}

// For few iterations that are each a long loop of their own (a block of elements, a sweep over
// every element): one task per iteration, where parallel_for would run fewer than a block inline.
// A single iteration runs inline: there is nothing to share, and starting TBB's workers for it
// is the per-call overhead of a small scene.
template <class Body>
void parallel_for_each_heavy(std::size_t n, Body&& body) {
  if (n <= 1) {
    if (n == 1) body(std::size_t(0));
    return;
  }
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) { body(i); });
}

// Sums f(i) over i in [0, n) deterministically: fixed blocks summed in parallel, then the block
// sums added in order.
template <class F>
double parallel_sum(std::size_t n, F&& f) {
  const std::size_t blocks = (n + kParallelGrain - 1) / kParallelGrain;
  if (blocks <= 1) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += f(i);
    return s;
  }
  std::vector<double> partial(blocks, 0.0);
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t b) {
    double s = 0.0;
    const std::size_t end = std::min(n, (b + 1) * kParallelGrain);
    for (std::size_t i = b * kParallelGrain; i < end; ++i) s += f(i);
    partial[b] = s;
  });
  double total = 0.0;
  for (double s : partial) total += s;
  return total;
}

}  // namespace softsim
