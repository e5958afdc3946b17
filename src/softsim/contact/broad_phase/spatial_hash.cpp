#include "softsim/contact/broad_phase/spatial_hash.hpp"

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cmath>

#include "softsim/contact/broad_phase/box_pairs.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {
namespace {

constexpr std::int64_t kMaxCellsPerAxis = std::int64_t(1) << 20;  // keys fit in 60 bits

std::int64_t cell_of(double x, double origin, double h, std::int64_t n) {
  const double c = std::floor((x - origin) / h);
  if (!(c >= 0.0)) return c < 0.0 ? -1 : 0;  // NaN -> 0
  return c >= static_cast<double>(n) ? n : static_cast<std::int64_t>(c);
}

}  // namespace

double mean_box_size(std::span<const Aabb> a, std::span<const Aabb> b) {
  double sum = 0.0;
  for (const auto* set : {&a, &b})
    for (const Aabb& box : *set)
      sum += std::max({box.hi[0] - box.lo[0], box.hi[1] - box.lo[1], box.hi[2] - box.lo[2]});
  const std::size_t n = a.size() + b.size();
  return n ? sum / static_cast<double>(n) : 0.0;
}

bool SpatialHash::cell_range(const Aabb& box, std::int64_t lo[3], std::int64_t hi[3]) const {
  for (int d = 0; d < 3; ++d) {
    lo[d] = cell_of(box.lo[d], origin[d], cell_size, dims[d]);
    hi[d] = cell_of(box.hi[d], origin[d], cell_size, dims[d]);
    if (hi[d] < 0 || lo[d] >= dims[d]) return false;
    lo[d] = std::max<std::int64_t>(lo[d], 0);
    hi[d] = std::min<std::int64_t>(hi[d], dims[d] - 1);
  }
  return true;
}

SpatialHash build_spatial_hash(std::span<const Aabb> targets, double cell_size) {
  SpatialHash g;
  Aabb bounds = empty_aabb();
  for (const Aabb& b : targets) expand(bounds, b);
  if (targets.empty()) bounds = Aabb{};
  double extent = 0.0;
  for (int d = 0; d < 3; ++d) extent = std::max(extent, bounds.hi[d] - bounds.lo[d]);
  double h = cell_size;
  if (!(h > 0.0) || !std::isfinite(h)) h = extent > 0.0 ? extent / std::cbrt(double(targets.size()) + 1.0) : 1.0;
  // Coarsen the grid if it would need more than kMaxCellsPerAxis cells along an axis.
  h = std::max(h, extent / static_cast<double>(kMaxCellsPerAxis - 1));
  g.cell_size = h;
  for (int d = 0; d < 3; ++d) {
    g.origin[d] = bounds.lo[d];
    g.dims[d] = std::min<std::int64_t>(
        kMaxCellsPerAxis, static_cast<std::int64_t>(std::floor((bounds.hi[d] - bounds.lo[d]) / h)) + 1);
  }

  // Count the cells of every box, prefix-sum, fill (key, id) entries, sort (data-parallel).
  const std::size_t n = targets.size();
  g.first_cell.resize(n);
  std::vector<std::int64_t> offset(n + 1, 0);
  parallel_for(n, [&](std::size_t i) {
    std::int64_t lo[3], hi[3];
    g.cell_range(targets[i], lo, hi);  // inside the grid by construction
    g.first_cell[i] = {lo[0], lo[1], lo[2]};
    offset[i + 1] = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
  });
  for (std::size_t i = 0; i < n; ++i) offset[i + 1] += offset[i];
  std::vector<std::pair<std::int64_t, int>> keyed(static_cast<std::size_t>(offset[n]));
  parallel_for(n, [&](std::size_t i) {
    std::int64_t lo[3], hi[3];
    g.cell_range(targets[i], lo, hi);
    std::size_t w = static_cast<std::size_t>(offset[i]);
    for (std::int64_t a = lo[0]; a <= hi[0]; ++a)
      for (std::int64_t b = lo[1]; b <= hi[1]; ++b)
        for (std::int64_t c = lo[2]; c <= hi[2]; ++c) keyed[w++] = {g.key(a, b, c), static_cast<int>(i)};
  });
  tbb::parallel_sort(keyed.begin(), keyed.end());  // (key, id) pairs are distinct: unique order
  g.entries.resize(keyed.size());
  for (std::size_t e = 0; e < keyed.size(); ++e) {
    g.entries[e] = keyed[e].second;
    if (e == 0 || keyed[e].first != keyed[e - 1].first) {
      g.cell_keys.push_back(keyed[e].first);
      g.cell_start.push_back(static_cast<int>(e));
    }
  }
  g.cell_start.push_back(static_cast<int>(keyed.size()));
  return g;
}

PairList spatial_hash_pairs(std::span<const Aabb> queries, std::span<const Aabb> targets,
                            bool self, const PairExclusion& excluded) {
  if (queries.empty() || targets.empty()) return {};
  const SpatialHash g = build_spatial_hash(targets, mean_box_size(queries, targets));
  return collect_pairs(queries.size(), excluded, [&](int i, std::vector<int>& hits) {
    const Aabb& q = queries[static_cast<std::size_t>(i)];
    std::int64_t lo[3], hi[3];
    if (!g.cell_range(q, lo, hi)) return;
    for (std::int64_t a = lo[0]; a <= hi[0]; ++a)
      for (std::int64_t b = lo[1]; b <= hi[1]; ++b)
        for (std::int64_t c = lo[2]; c <= hi[2]; ++c) {
          const std::int64_t k = g.key(a, b, c);
          const auto it = std::lower_bound(g.cell_keys.begin(), g.cell_keys.end(), k);
          if (it == g.cell_keys.end() || *it != k) continue;
          const std::size_t cell = static_cast<std::size_t>(it - g.cell_keys.begin());
          for (int e = g.cell_start[cell]; e < g.cell_start[cell + 1]; ++e) {
            const int j = g.entries[static_cast<std::size_t>(e)];
            if (self && j <= i) continue;
            // Deduplicate without a set: a pair is reported only in the first cell shared by
            // both cell ranges (per axis the larger of the two lower cells).
            const auto& f = g.first_cell[static_cast<std::size_t>(j)];
            if (std::max(lo[0], f[0]) != a || std::max(lo[1], f[1]) != b ||
                std::max(lo[2], f[2]) != c)
              continue;
            if (overlaps(q, targets[static_cast<std::size_t>(j)])) hits.push_back(j);
          }
        }
  });
}

}  // namespace softsim
