#pragma once
// Fixed-radius neighbours of particles in a bounded domain: a uniform grid of cells of the search
// radius, particles bucketed by a counting sort, each particle's neighbours gathered from its 3^D
// cells in parallel. Lists come in a fixed order (cells visited in flat order, each cell's
// particles in index order), so everything summed over them is the same for any thread count.
#include <array>
#include <cstdint>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

template <int D>
class NeighbourGrid {
 public:
  // The grid covering the box [lo, hi] with cells of side radius; throws std::invalid_argument
  // on an empty box or a non-positive radius, or when it would need more than 2^31 cells.
  NeighbourGrid(const VecD<D>& lo, const VecD<D>& hi, double radius);

  // The neighbours of every particle: the others within `radius` (strictly closer), positions
  // outside the box counted in its boundary cells.
  void build(const std::vector<VecD<D>>& x);

  std::size_t size() const { return start_.empty() ? 0 : start_.size() - 1; }
  const int* begin(std::size_t i) const { return neighbours_.data() + start_[i]; }
  const int* end(std::size_t i) const { return neighbours_.data() + start_[i + 1]; }
  std::size_t count(std::size_t i) const { return start_[i + 1] - start_[i]; }
  std::size_t total() const { return neighbours_.size(); }

 private:
  std::array<int, D> cell_of(const VecD<D>& p) const;
  long flat(const std::array<int, D>& c) const;

  VecD<D> lo_;
  double radius_;
  std::array<int, D> cells_{};
  std::vector<int> cell_start_, sorted_;  // particles of cell c: sorted_[cell_start_[c] .. cell_start_[c+1])
  std::vector<long> particle_cell_;
  std::vector<std::int64_t> start_;
  std::vector<int> neighbours_;
};

}  // namespace softsim
