#include "softsim/pbf/neighbour_grid.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "softsim/core/parallel.hpp"

namespace softsim {

template <int D>
NeighbourGrid<D>::NeighbourGrid(const VecD<D>& lo, const VecD<D>& hi, double radius) : lo_(lo), radius_(radius) {
  if (!(radius > 0.0) || !std::isfinite(radius) || !((hi - lo).array() > 0.0).all() || !hi.allFinite() ||
      !lo.allFinite())
    throw std::invalid_argument("NeighbourGrid: an empty box or a non-positive radius");
  double total = 1.0;
  for (int a = 0; a < D; ++a) {
    const double n = std::ceil((hi[a] - lo[a]) / radius);
    total *= std::max(n, 1.0);
    if (total > 2e9) throw std::invalid_argument("NeighbourGrid: more than 2^31 cells (the radius is too small)");
    cells_[a] = std::max(1, static_cast<int>(n));
  }
}

template <int D>
std::array<int, D> NeighbourGrid<D>::cell_of(const VecD<D>& p) const {
  std::array<int, D> c{};
  for (int a = 0; a < D; ++a) {
    const double s = std::floor((p[a] - lo_[a]) / radius_);
    // Outside the box (or NaN): the boundary cell, so that no index leaves the grid.
    c[a] = !(s >= 0.0) ? 0 : (s >= cells_[a] ? cells_[a] - 1 : static_cast<int>(s));
  }
  return c;
}

template <int D>
long NeighbourGrid<D>::flat(const std::array<int, D>& c) const {
  long index = 0;
  for (int a = D - 1; a >= 0; --a) index = index * cells_[a] + c[a];
  return index;
}

template <int D>
void NeighbourGrid<D>::build(const std::vector<VecD<D>>& x) {
  const std::size_t n = x.size();
  long cell_count = 1;
  for (int a = 0; a < D; ++a) cell_count *= cells_[a];
  particle_cell_.resize(n);
  parallel_for(n, [&](std::size_t i) { particle_cell_[i] = flat(cell_of(x[i])); });
  // Counting sort: each cell's particles in ascending order.
  cell_start_.assign(cell_count + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++cell_start_[particle_cell_[i] + 1];
  for (long c = 0; c < cell_count; ++c) cell_start_[c + 1] += cell_start_[c];
  sorted_.resize(n);
  {
    std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) sorted_[fill[particle_cell_[i]]++] = static_cast<int>(i);
  }
  const double r2 = radius_ * radius_;
  // Visits the particles of the 3^D cells around particle i, in ascending cell order.
  auto visit = [&](std::size_t i, auto&& f) {
    const std::array<int, D> c = cell_of(x[i]);
    std::array<int, D> lo{}, hi{};
    for (int a = 0; a < D; ++a) {
      lo[a] = std::max(c[a] - 1, 0);
      hi[a] = std::min(c[a] + 1, cells_[a] - 1);
    }
    std::array<int, D> k = lo;
    while (true) {
      const long cell = flat(k);
      for (int s = cell_start_[cell]; s < cell_start_[cell + 1]; ++s) {
        const int j = sorted_[s];
        if (static_cast<std::size_t>(j) != i && (x[j] - x[i]).squaredNorm() < r2) f(j);
      }
      int a = 0;
      while (a < D && k[a] == hi[a]) k[a] = lo[a], ++a;
      if (a == D) break;
      ++k[a];
    }
  };
  start_.assign(n + 1, 0);
  parallel_for(n, [&](std::size_t i) {
    std::int64_t m = 0;
    visit(i, [&](int) { ++m; });
    start_[i + 1] = m;
  });
  for (std::size_t i = 0; i < n; ++i) start_[i + 1] += start_[i];
  neighbours_.resize(start_[n]);
  parallel_for(n, [&](std::size_t i) {
    int* out = neighbours_.data() + start_[i];
    visit(i, [&](int j) { *out++ = j; });
  });
}

template class NeighbourGrid<2>;
template class NeighbourGrid<3>;

}  // namespace softsim
