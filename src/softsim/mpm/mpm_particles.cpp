#include "softsim/mpm/mpm_particles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>

namespace softsim {

template <int D>
std::vector<VecD<D>> sample_box_regular(const VecD<D>& lo, const VecD<D>& hi, double dx, double per_cell) {
  if (!(dx > 0.0) || !(per_cell > 0.0) || ((hi - lo).array() <= 0.0).any())
    throw std::invalid_argument("sample_box_regular: an empty box, or a non-positive spacing");
  const double spacing = dx / std::pow(per_cell, 1.0 / D);
  std::array<int, D> count{};
  VecD<D> start;
  long total = 1;
  for (int a = 0; a < D; ++a) {
    // A box a whole number of spacings wide holds that many rows, whatever the rounding of the ratio.
    count[a] = std::max(1, static_cast<int>(std::floor((hi[a] - lo[a]) / spacing * (1.0 + 1e-12))));
    start[a] = 0.5 * (lo[a] + hi[a]) - 0.5 * (count[a] - 1) * spacing;
    total *= count[a];
  }
  std::vector<VecD<D>> out;
  out.reserve(total);
  for (long k = 0; k < total; ++k) {
    long rest = k;
    VecD<D> p;
    for (int a = 0; a < D; ++a) {
      p[a] = start[a] + (rest % count[a]) * spacing;
      rest /= count[a];
    }
    out.push_back(p);
  }
  return out;
}

template <int D>
std::vector<VecD<D>> sample_box_poisson(const VecD<D>& lo, const VecD<D>& hi, double dx, double per_cell,
                                        unsigned seed) {
  if (!(dx > 0.0) || !(per_cell > 0.0) || ((hi - lo).array() <= 0.0).any())
    throw std::invalid_argument("sample_box_poisson: an empty box, or a non-positive spacing");
  // Maximal Poisson-disk sets pack at about 0.7 (2D) and 0.6 (3D) of the lattice density of
  // spacing r, so r is a little under the lattice spacing that gives per_cell.
  const double r = (D == 2 ? 0.85 : 0.82) * dx / std::pow(per_cell, 1.0 / D);
  const double cell = r / std::sqrt(double(D));  // at most one sample per background cell
  std::array<int, D> n{};
  long cells = 1;
  for (int a = 0; a < D; ++a) {
    n[a] = std::max(1, static_cast<int>(std::ceil((hi[a] - lo[a]) / cell)));
    cells *= n[a];
  }
  std::vector<int> owner(cells, -1);
  auto index_of = [&](const VecD<D>& p, std::array<int, D>& c) {
    long id = 0, stride = 1;
    for (int a = 0; a < D; ++a) {
      c[a] = std::clamp(static_cast<int>((p[a] - lo[a]) / cell), 0, n[a] - 1);
      id += c[a] * stride;
      stride *= n[a];
    }
    return id;
  };
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<VecD<D>> out;
  std::vector<int> active;
  auto far_enough = [&](const VecD<D>& p) {
    std::array<int, D> c;
    index_of(p, c);
    // Neighbours within r lie at most 2 background cells away (cell = r / sqrt(D), D = 2, 3).
    constexpr int reach = 2;
    std::array<int, D> o;
    o.fill(-reach);
    while (true) {
      long id = 0, stride = 1;
      bool inside = true;
      for (int a = 0; a < D; ++a) {
        const int k = c[a] + o[a];
        if (k < 0 || k >= n[a]) inside = false;
        id += k * stride;
        stride *= n[a];
      }
      if (inside && owner[id] >= 0 && (out[owner[id]] - p).squaredNorm() < r * r) return false;
      int a = 0;
      while (a < D && ++o[a] > reach) o[a++] = -reach;
      if (a == D) return true;
    }
  };
  auto accept = [&](const VecD<D>& p) {
    std::array<int, D> c;
    owner[index_of(p, c)] = static_cast<int>(out.size());
    active.push_back(static_cast<int>(out.size()));
    out.push_back(p);
  };
  VecD<D> first;
  for (int a = 0; a < D; ++a) first[a] = lo[a] + unit(rng) * (hi[a] - lo[a]);
  accept(first);
  constexpr int kAttempts = 30;
  while (!active.empty()) {
    const std::size_t pick = static_cast<std::size_t>(unit(rng) * active.size()) % active.size();
    const VecD<D> centre = out[active[pick]];
    bool placed = false;
    for (int t = 0; t < kAttempts && !placed; ++t) {
      VecD<D> dir;
      for (int a = 0; a < D; ++a) dir[a] = normal(rng);
      if (dir.norm() < 1e-12) continue;
      const double radius = r * (1.0 + unit(rng));  // in the annulus [r, 2r)
      const VecD<D> p = centre + radius * dir.normalized();
      if (((p - lo).array() < 0.0).any() || ((p - hi).array() > 0.0).any() || !far_enough(p)) continue;
      accept(p);
      placed = true;
    }
    if (!placed) {
      active[pick] = active.back();
      active.pop_back();
    }
  }
  return out;
}

template std::vector<VecD<2>> sample_box_regular<2>(const VecD<2>&, const VecD<2>&, double, double);
template std::vector<VecD<3>> sample_box_regular<3>(const VecD<3>&, const VecD<3>&, double, double);
template std::vector<VecD<2>> sample_box_poisson<2>(const VecD<2>&, const VecD<2>&, double, double, unsigned);
template std::vector<VecD<3>> sample_box_poisson<3>(const VecD<3>&, const VecD<3>&, double, double, unsigned);

}  // namespace softsim
