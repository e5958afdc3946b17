#pragma once
// The basis file of a reduced body (docs/subspace-bodies.md, "Basis files"): JSON written by
// `softsim reduce` and named by a scene's bodies[i].reduction.file.
//   {"format": "softsim reduced basis", "version": 1, "body": NAME, "kind": "modes" | "pod" |
//    "modes+derivatives", "dim": 2 | 3, "num_vertices": n, "values": [r numbers],
//    "columns": [r arrays of n * dim numbers, vertex-major]}
// The columns are displacements from the body's positions at t = 0, M-orthonormal.
#include <filesystem>
#include <string>

#include "softsim/subspace/reduced_basis.hpp"

namespace softsim {

// Writes atomically; throws RunError naming the file when it cannot.
void write_reduced_basis(const std::filesystem::path& file, const std::string& body, const ReducedBasis& basis);

// Reads and checks a basis file: InputError naming the file and the key for a missing file, bad
// JSON, a wrong key or type, a non-finite number or columns of the wrong length.
ReducedBasis read_reduced_basis(const std::filesystem::path& file);

}  // namespace softsim
