#include "softsim/model/subspace_blocks.hpp"

#include <algorithm>

#include "softsim/model/subspace_map.hpp"

namespace softsim {

namespace {
std::uint64_t pair_key(int a, int b) { return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b); }
}  // namespace

SubspaceBlocks subspace_blocks(const SubspaceMap& map, int dim) {
  const int r = map.num_coordinates(), n = static_cast<int>(map.basis.rows());
  const SparseMat& rows = map.basis_t;  // column i: row i of B
  // reach[c]: the largest coordinate that the rows of one vertex's DOFs share with c, for the
  // vertices whose first coordinate is c.
  std::vector<int> reach(r);
  for (int c = 0; c < r; ++c) reach[c] = c;
  for (int v = 0; v * dim < n; ++v) {
    int lo = r, hi = -1;
    for (int i = v * dim; i < (v + 1) * dim; ++i)
      for (SparseMat::InnerIterator it(rows, i); it; ++it) {
        lo = std::min(lo, static_cast<int>(it.row()));
        hi = std::max(hi, static_cast<int>(it.row()));
      }
    if (hi >= 0) reach[lo] = std::max(reach[lo], hi);
  }
  SubspaceBlocks blocks;
  std::vector<int>& block_of_coordinate = blocks.block_of_coordinate;
  block_of_coordinate.resize(r);
  for (int c = 0; c < r;) {
    int end = reach[c];
    const int k = static_cast<int>(blocks.start.size());
    blocks.start.push_back(c);
    for (; c <= end; ++c) {
      end = std::max(end, reach[c]);
      block_of_coordinate[c] = k;
    }
  }
  blocks.start.push_back(r);
  blocks.block_of_dof.assign(n, -1);
  blocks.row_start.assign(n + 1, 0);
  for (int i = 0; i < n; ++i) {
    for (SparseMat::InnerIterator it(rows, i); it; ++it) {
      const int k = block_of_coordinate[it.row()];
      blocks.block_of_dof[i] = k;
      blocks.row_column.push_back(static_cast<int>(it.row()) - blocks.start[k]);
      blocks.row_value.push_back(it.value());
    }
    blocks.row_start[i + 1] = static_cast<int>(blocks.row_column.size());
  }
  return blocks;
}

BlockHessian::BlockHessian(const SubspaceBlocks& blocks)
    : blocks_(blocks), diagonal_(blocks.num_blocks()), diagonal_used_(blocks.num_blocks(), 0) {}

void BlockHessian::clear() {
  for (int k = 0; k < blocks_.num_blocks(); ++k)
    if (diagonal_used_[k]) diagonal_[k].setZero();
  std::fill(diagonal_used_.begin(), diagonal_used_.end(), 0);
  pair_index_.clear();
  pairs_used_ = 0;
}

MatX& BlockHessian::block(int a, int b) {
  if (a == b) {
    MatX& d = diagonal_[a];
    if (!diagonal_used_[a]) {
      if (d.rows() != blocks_.width(a)) d.setZero(blocks_.width(a), blocks_.width(a));
      diagonal_used_[a] = 1;
    }
    return d;
  }
  const std::uint64_t key = pair_key(a, b);
  auto [it, added] = pair_index_.emplace(key, pairs_used_);
  if (added) {
    if (pairs_used_ == static_cast<int>(pairs_.size())) pairs_.emplace_back();
    auto& [stored_key, m] = pairs_[pairs_used_++];
    stored_key = key;
    m.setZero(blocks_.width(a), blocks_.width(b));
  }
  return pairs_[it->second].second;
}

void BlockHessian::add(const BlockHessian& other, double weight) {
  for (int k = 0; k < blocks_.num_blocks(); ++k)
    if (other.diagonal_used_[k]) block(k, k) += weight * other.diagonal_[k];
  for (int p = 0; p < other.pairs_used_; ++p) {
    const auto& [key, m] = other.pairs_[p];
    block(static_cast<int>(key >> 32), static_cast<int>(key & 0xffffffffu)) += weight * m;
  }
}

void BlockHessian::multiply_add(const VecX& y, double weight, VecX& out) const {
  for (int k = 0; k < blocks_.num_blocks(); ++k)
    if (diagonal_used_[k])
      out.segment(blocks_.start[k], blocks_.width(k)).noalias() +=
          weight * (diagonal_[k] * y.segment(blocks_.start[k], blocks_.width(k)));
  for (int p = 0; p < pairs_used_; ++p) {
    const auto& [key, m] = pairs_[p];
    const int a = static_cast<int>(key >> 32), b = static_cast<int>(key & 0xffffffffu);
    out.segment(blocks_.start[a], blocks_.width(a)).noalias() += weight * (m * y.segment(blocks_.start[b], blocks_.width(b)));
  }
}

// Entries are taken in runs that share one block pair and one DOF: a column j's entries in one
// block of rows (rows are sorted, and a block's DOFs are contiguous), or consecutive triplets
// with one row and columns in one block (contact stencils write them so). A run's partial product
// with B's rows on its side, sum_i h_ij b_i (4 multiply-adds an entry for a 3D affine body's row),
// is then spread over the other DOF's row once: half the work of b_i^T h_ij b_j entry by entry,
// and one block lookup a run.
void BlockHessian::add_entries(const SparseMat& H) {
  for (int j = 0; j < H.outerSize(); ++j) add_column(H, j);
}

void BlockHessian::add_entries(const SparseMat& H, const std::vector<int>& columns) {
  for (int j : columns) add_column(H, j);
}

void BlockHessian::add_column(const SparseMat& H, int j) {
  const int b = blocks_.block_of_dof[j];
  if (b < 0) return;
  const int* column = blocks_.row_column.data();
  const double* value = blocks_.row_value.data();
  int a = -1;
  auto flush = [&] {
    if (a < 0) return;
    MatX& m = block(a, b);
    for (int p = blocks_.row_start[j]; p < blocks_.row_start[j + 1]; ++p) m.col(column[p]) += value[p] * run_;
  };
  for (SparseMat::InnerIterator it(H, j); it; ++it) {
    if (it.value() == 0.0) continue;
    const int i = static_cast<int>(it.row()), ai = blocks_.block_of_dof[i];
    if (ai < 0) continue;
    if (ai != a) {
      flush();
      a = ai;
      run_.setZero(blocks_.width(a));
    }
    for (int s = blocks_.row_start[i]; s < blocks_.row_start[i + 1]; ++s) run_[column[s]] += it.value() * value[s];
  }
  flush();
}

void BlockHessian::add_entries(const std::vector<Triplet>& entries) {
  const int* column = blocks_.row_column.data();
  const double* value = blocks_.row_value.data();
  const std::size_t n = entries.size();
  for (std::size_t k = 0; k < n;) {
    const int i = entries[k].row(), a = blocks_.block_of_dof[i];
    const int b = blocks_.block_of_dof[entries[k].col()];
    std::size_t end = k;
    while (end < n && entries[end].row() == i && blocks_.block_of_dof[entries[end].col()] == b) ++end;
    if (a >= 0 && b >= 0) {
      // sum_j h_ij b_j over the run, then b_i^T of it into the block pair's rows.
      run_.setZero(blocks_.width(b));
      bool any = false;
      for (std::size_t t = k; t < end; ++t) {
        const int j = entries[t].col();
        const double h = entries[t].value();
        if (h == 0.0) continue;
        any = true;
        for (int p = blocks_.row_start[j]; p < blocks_.row_start[j + 1]; ++p) run_[column[p]] += h * value[p];
      }
      if (any) {
        MatX& m = block(a, b);
        for (int s = blocks_.row_start[i]; s < blocks_.row_start[i + 1]; ++s) m.row(column[s]) += value[s] * run_.transpose();
      }
    }
    k = end;
  }
}

const MatX* BlockHessian::used_block(int a, int b) const {
  if (a == b) return diagonal_used_[a] ? &diagonal_[a] : nullptr;
  const auto it = pair_index_.find(pair_key(a, b));
  return it == pair_index_.end() ? nullptr : &pairs_[it->second].second;
}

void BlockHessian::build_widened(const SparseMat& pattern) {
  const int num_blocks = blocks_.num_blocks();
  if (!base_.matches(pattern)) {
    base_.assign(pattern);
    added_.clear();
    // A diagonal block is in the base when the pattern holds all of it (a body's stencils couple
    // all its coordinates); one held in part is added whole.
    std::vector<long> in_pattern(num_blocks, 0);
    for (int c = 0; c < pattern.outerSize(); ++c)
      for (SparseMat::InnerIterator it(pattern, c); it; ++it)
        if (blocks_.block_of_coordinate[it.row()] == blocks_.block_of_coordinate[c]) ++in_pattern[blocks_.block_of_coordinate[c]];
    whole_.resize(num_blocks);
    for (int k = 0; k < num_blocks; ++k) whole_[k] = in_pattern[k] == static_cast<long>(blocks_.width(k)) * blocks_.width(k);
  }
  for (int k = 0; k < num_blocks; ++k)
    if (diagonal_used_[k] && !whole_[k]) added_.insert(pair_key(k, k));
  for (int p = 0; p < pairs_used_; ++p) added_.insert(pairs_[p].first);
  scratch_.clear();
  for (int c = 0; c < pattern.outerSize(); ++c)
    for (SparseMat::InnerIterator it(pattern, c); it; ++it) scratch_.emplace_back(static_cast<int>(it.row()), c, 0.0);
  for (const std::uint64_t key : added_) {
    const int a = static_cast<int>(key >> 32), b = static_cast<int>(key & 0xffffffffu);
    for (int cb = blocks_.start[b]; cb < blocks_.start[b + 1]; ++cb)
      for (int ra = blocks_.start[a]; ra < blocks_.start[a + 1]; ++ra) scratch_.emplace_back(ra, cb, 0.0);
  }
  widened_.resize(pattern.rows(), pattern.cols());
  widened_.setFromTriplets(scratch_.begin(), scratch_.end());  // duplicates sum: the values are zero
  widened_.makeCompressed();
  ++pattern_builds_;
}

void BlockHessian::write(const SparseMat& pattern, SparseMat& out) {
  bool fits = base_.matches(pattern);
  for (int k = 0; fits && k < blocks_.num_blocks(); ++k)
    fits = !diagonal_used_[k] || whole_[k] || added_.count(pair_key(k, k));
  for (int p = 0; fits && p < pairs_used_; ++p) fits = added_.count(pairs_[p].first) > 0;
  if (!fits) build_widened(pattern);
  if (!same_sparsity_pattern(out, widened_)) out = widened_;
  // Column c's entries, in runs of one block of rows (rows are sorted and a block's coordinates
  // are contiguous): one block lookup a run.
  for (int c = 0; c < out.outerSize(); ++c) {
    const int b = blocks_.block_of_coordinate[c], cb = c - blocks_.start[b];
    int a = -1;
    const MatX* m = nullptr;
    for (SparseMat::InnerIterator it(out, c); it; ++it) {
      const int row = static_cast<int>(it.row()), ar = blocks_.block_of_coordinate[row];
      if (ar != a) {
        a = ar;
        m = used_block(a, b);
      }
      it.valueRef() = m ? (*m)(row - blocks_.start[a], cb) : 0.0;
    }
  }
}

}  // namespace softsim
