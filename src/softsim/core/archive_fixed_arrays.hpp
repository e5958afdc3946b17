#pragma once
// Arrays of fixed-size Eigen vectors or matrices (one per particle) in an archive, as one flat
// array of doubles: what particle methods' checkpoints hold.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "softsim/core/binary_archive.hpp"

namespace softsim {

template <typename Fixed>
void save_fixed_arrays(ArchiveWriter& out, const std::vector<Fixed>& values) {
  std::vector<double> flat;
  flat.reserve(values.size() * Fixed::SizeAtCompileTime);
  for (const Fixed& v : values) flat.insert(flat.end(), v.data(), v.data() + Fixed::SizeAtCompileTime);
  out.reals(flat);
}

// Reads into `values`, which must already have the expected length; throws ArchiveError naming
// `what` when the archive holds another number of values.
template <typename Fixed>
void load_fixed_arrays(ArchiveReader& in, std::vector<Fixed>& values, const char* what) {
  const std::vector<double> flat = in.reals();
  if (flat.size() != values.size() * Fixed::SizeAtCompileTime)
    throw ArchiveError(fmt::format("{}: {} numbers where {} particles need {}", what, flat.size(), values.size(),
                                   values.size() * Fixed::SizeAtCompileTime));
  for (std::size_t p = 0; p < values.size(); ++p)
    std::copy_n(flat.data() + p * Fixed::SizeAtCompileTime, Fixed::SizeAtCompileTime, values[p].data());
}

}  // namespace softsim
