#pragma once
// Spatial hashing (Li & Jiang 2025, §24.2, "Spatial Hashing"): space is cut into a uniform grid and each cell
// lists the primitives whose boxes intersect it; a query box visits the cells it covers.
// Built as sorted (cell key, primitive) entries rather than a hash table: counting, filling and
// sorting are data-parallel, and a cell's entries are found by binary search (GPU friendly).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "softsim/contact/broad_phase/aabb.hpp"

namespace softsim {

struct SpatialHash {
  double origin[3] = {0.0, 0.0, 0.0};
  double cell_size = 1.0;
  std::int64_t dims[3] = {1, 1, 1};  // cells per axis
  std::vector<std::int64_t> cell_keys;  // distinct non-empty cells, ascending
  std::vector<int> cell_start;          // entries of cell_keys[c]: [cell_start[c], cell_start[c+1])
  std::vector<int> entries;             // primitive ids grouped by cell, ascending within a cell
  std::vector<std::array<std::int64_t, 3>> first_cell;  // lowest cell of each primitive's box

  // Cell range of a box, clamped to the grid; false when it misses the grid.
  bool cell_range(const Aabb& box, std::int64_t lo[3], std::int64_t hi[3]) const;
  std::int64_t key(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return (i * dims[1] + j) * dims[2] + k;
  }
};

// Cell size: mean over all boxes (both sets) of the box's largest extent (about the primitive
// size; Li & Jiang 2025, §24.2, leaves the cell size open); the grid covers the targets' boxes.
SpatialHash build_spatial_hash(std::span<const Aabb> targets, double cell_size);
double mean_box_size(std::span<const Aabb> a, std::span<const Aabb> b);

}  // namespace softsim
