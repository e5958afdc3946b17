#pragma once
// The basis file of a reduced body (docs/subspace-bodies.md, "Basis files"): JSON written by
// `softsim reduce` and named by a scene's bodies[i].reduction.file.
//   {"format": "softsim reduced basis", "version": 1, "body": NAME, "kind": "modes" | "pod" |
//    "modes+derivatives", "dim": 2 | 3, "num_vertices": n, "values": [r numbers],
//    "columns": [r arrays of n * dim numbers, vertex-major],
//    optional "cubature": {"num_elements": m, "relative_error": e, "elements": [T ids < m, distinct],
//                          "weights": [T numbers > 0]}}
// The columns are displacements from the body's positions at t = 0, M-orthonormal. The cubature
// is the body's elasticity fitted on this basis (An, Kim & James 2008) on a mesh of m elements.
#include <filesystem>
#include <optional>
#include <string>

#include "softsim/subspace/cubature.hpp"
#include "softsim/subspace/reduced_basis.hpp"

namespace softsim {

// What a basis file holds: the basis and, when `softsim reduce --cubature T` fitted one, the
// body's cubature on it.
struct BasisFile {
  ReducedBasis basis;
  std::optional<Cubature> cubature;
};

// Writes atomically; throws RunError naming the file when it cannot.
void write_reduced_basis(const std::filesystem::path& file, const std::string& body, const ReducedBasis& basis,
                         const std::optional<Cubature>& cubature = std::nullopt);

// Reads and checks a basis file: InputError naming the file and the key for a missing file, bad
// JSON, a wrong key or type, a non-finite number, columns of the wrong length, or a cubature with
// element ids out of range or repeated or weights that are not positive.
BasisFile read_basis_file(const std::filesystem::path& file);
// The same, the basis only.
ReducedBasis read_reduced_basis(const std::filesystem::path& file);

}  // namespace softsim
