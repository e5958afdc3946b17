#pragma once
// 64-bit FNV-1a (Fowler, Noll & Vo): a checksum of a checkpoint's payload and a fingerprint of a
// scene. Not cryptographic: it catches corruption and mix-ups, not tampering.
#include <cstdint>
#include <string_view>

namespace softsim {

inline std::uint64_t fnv1a_64(std::string_view bytes, std::uint64_t seed = 14695981039346656037ull) {
  std::uint64_t h = seed;
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace softsim
