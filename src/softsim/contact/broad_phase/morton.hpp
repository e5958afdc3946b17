#pragma once
// Morton (Z-order) codes: the bits of three quantised coordinates interleaved, so that sorting
// by code orders points along a space-filling curve (Karras 2012, §2). 21 bits per axis fill a
// 63-bit code.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace softsim {

// Spreads the low 21 bits of v so that bit k lands at bit 3k.
inline std::uint64_t spread_bits_3(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | (v << 32)) & 0x1f00000000ffffULL;
  v = (v | (v << 16)) & 0x1f0000ff0000ffULL;
  v = (v | (v << 8)) & 0x100f00f00f00f00fULL;
  v = (v | (v << 4)) & 0x10c30c30c30c30c3ULL;
  v = (v | (v << 2)) & 0x1249249249249249ULL;
  return v;
}

// Quantises t in [0, 1] to 21 bits (values outside, and NaN, are clamped to the ends).
inline std::uint64_t quantise_21(double t) {
  constexpr double kMax = double((1 << 21) - 1);
  const double s = std::isnan(t) ? 0.0 : std::clamp(t, 0.0, 1.0) * kMax;
  return static_cast<std::uint64_t>(s);
}

// Code of a point whose coordinates are given relative to a frame, each in [0, 1].
inline std::uint64_t morton_code_3d(double x, double y, double z) {
  return (spread_bits_3(quantise_21(x)) << 2) | (spread_bits_3(quantise_21(y)) << 1) |
         spread_bits_3(quantise_21(z));
}

}  // namespace softsim
