#pragma once
// A subspace map's coordinates in blocks (model/subspace_map.hpp): the coordinates of one body
// in a subspace, or of one vertex with DOFs of its own, are contiguous, and every row of B has
// its non-zeros in one block. So B^T H B is a sum of block pairs: an entry H_ij adds
// H_ij b_i^T b_j (b_i: row i of B within its block) to the pair of DOF i's and DOF j's blocks,
// and a body's own Hessian H_a adds U_a^T H_a U_a to its diagonal block, with U_a the rows of B
// at the body's DOFs. Reduced gradients and Hessians are then assembled per body, without
// forming B^T H B over the whole mesh (Li & Jiang 2025, ch. on ABD; Lan et al. 2022, §4).
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

struct SubspaceMap;

struct SubspaceBlocks {
  // Block k holds the coordinates [start[k], start[k + 1]).
  std::vector<int> start;
  std::vector<int> block_of_coordinate;
  // Each DOF's block, -1 for a DOF without coordinates (a fixed DOF: a zero row of B).
  std::vector<int> block_of_dof;
  // Row i of B: entries row_start[i] .. row_start[i + 1] of (column within the block, value).
  std::vector<int> row_start, row_column;
  std::vector<double> row_value;

  int num_blocks() const { return static_cast<int>(start.size()) - 1; }
  int width(int k) const { return start[k + 1] - start[k]; }
};

// The blocks of `map` over vertices of `dim` DOFs: coordinates that a vertex's rows share are one
// block (a free vertex's dim coordinates too).
SubspaceBlocks subspace_blocks(const SubspaceMap& map, int dim);

// B^T H B accumulated block pair by block pair in dense storage kept between evaluations, then
// written into a reduced matrix whose pattern holds the diagonal blocks (the bodies' own
// coordinates); pairs of different blocks (contact between bodies) widen it where it lacks them.
class BlockHessian {
 public:
  explicit BlockHessian(const SubspaceBlocks& blocks);

  // Sets every block to zero, keeping the storage.
  void clear();
  // weight x the entries of H (rows and columns are DOFs of the map), skipping exact zeros, so
  // that a Hessian with a whole mesh's pattern costs a scan plus its non-zero entries.
  void add_entries(const SparseMat& H);
  void add_entries(const std::vector<Triplet>& entries);
  // The dense block pair (a, b), created on first use (zero).
  MatX& block(int a, int b);
  // `pattern` (reduced, values overwritten) with the blocks written in: entries of the pattern
  // outside every used block become zero; pairs of different blocks, and blocks the pattern
  // holds only in part, widen it.
  void write(const SparseMat& pattern, SparseMat& out) const;

 private:
  const SubspaceBlocks& blocks_;
  std::vector<MatX> diagonal_;
  std::vector<char> diagonal_used_;
  std::unordered_map<std::uint64_t, int> pair_index_;
  std::vector<std::pair<std::uint64_t, MatX>> pairs_;  // off-diagonal pairs; storage kept
  int pairs_used_ = 0;
  VecX run_;  // scratch: the partial product of one run of entries (add_entries)
};

}  // namespace softsim
