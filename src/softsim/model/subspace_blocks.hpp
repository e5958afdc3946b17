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
#include <unordered_set>
#include <vector>

#include "softsim/core/sparsity_pattern.hpp"
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
// The widened pattern is kept and only grows: a pair seen once keeps its entries (zero while it
// is unused), so that while the contacts stay among pairs already seen, every evaluation writes
// values into one pattern (no allocation, and the linear solver's symbolic analysis is reused).
class BlockHessian {
 public:
  explicit BlockHessian(const SubspaceBlocks& blocks);

  // Sets every block to zero, keeping the storage.
  void clear();
  // weight x the entries of H (rows and columns are DOFs of the map), skipping exact zeros, so
  // that a Hessian with a whole mesh's pattern costs a scan plus its non-zero entries.
  void add_entries(const SparseMat& H);
  // The same over the given columns of H only (DOFs, each once): a Hessian whose entries all
  // lie in those columns costs a scan of them, not of the whole pattern.
  void add_entries(const SparseMat& H, const std::vector<int>& columns);
  void add_entries(const std::vector<Triplet>& entries);
  // The dense block pair (a, b), created on first use (zero).
  MatX& block(int a, int b);
  // weight x every block pair `other` (over the same blocks) uses, added to the same pairs here.
  void add(const BlockHessian& other, double weight);
  // out += weight (B^T H B) y over the block pairs in use (y and out: coordinates).
  void multiply_add(const VecX& y, double weight, VecX& out) const;
  // `pattern` (reduced) with the blocks written in: entries outside every used block are zero;
  // pairs of different blocks, and blocks the pattern holds only in part, widen it (kept: see
  // above). `out` keeps its storage when it has the kept pattern already.
  void write(const SparseMat& pattern, SparseMat& out);
  // The number of times the widened pattern was built (a new base pattern or a new block pair).
  int pattern_builds() const { return pattern_builds_; }

 private:
  const SubspaceBlocks& blocks_;
  std::vector<MatX> diagonal_;
  std::vector<char> diagonal_used_;
  std::unordered_map<std::uint64_t, int> pair_index_;
  std::vector<std::pair<std::uint64_t, MatX>> pairs_;  // off-diagonal pairs; storage kept
  int pairs_used_ = 0;
  // The widened pattern: the base pattern it was built from, which of its diagonal blocks that
  // base holds whole, and the blocks (pair keys, (k, k) for a diagonal block held in part) that
  // were added to it.
  SparsityPattern base_;
  std::vector<char> whole_;
  std::unordered_set<std::uint64_t> added_;
  SparseMat widened_;
  int pattern_builds_ = 0;
  std::vector<Triplet> scratch_;
  void build_widened(const SparseMat& pattern);
  void add_column(const SparseMat& H, int j);  // column j of H (add_entries)
  const MatX* used_block(int a, int b) const;
  VecX run_;  // scratch: the partial product of one run of entries (add_entries)
};

}  // namespace softsim
