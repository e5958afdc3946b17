#include "softsim/core/hessian_layout.hpp"

#include <algorithm>
#include <stdexcept>

namespace softsim {

int HessianLayout::add_stencils(const MatXi& stencils) {
  if (finalized_) throw std::logic_error("HessianLayout: add_stencils after finalize");
  sets_.push_back({stencils, {}, {}});
  return static_cast<int>(sets_.size()) - 1;
}

void HessianLayout::finalize() {
  // Vertex adjacency (including self) from all stencils.
  std::vector<std::vector<int>> adjacency(num_vertices_);
  for (int v = 0; v < num_vertices_; ++v) adjacency[v].push_back(v);
  for (const auto& set : sets_) {
    for (Eigen::Index e = 0; e < set.stencils.rows(); ++e)
      for (Eigen::Index a = 0; a < set.stencils.cols(); ++a)
        for (Eigen::Index b = 0; b < set.stencils.cols(); ++b)
          adjacency[set.stencils(e, b)].push_back(set.stencils(e, a));
  }
  for (auto& rows : adjacency) {
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  }
  // Column-major pattern: column (v*dim + s) holds rows (u*dim + r) for u adjacent to v.
  const int n = num_dofs();
  std::vector<int> outer(n + 1, 0);
  for (int v = 0; v < num_vertices_; ++v)
    for (int s = 0; s < dim_; ++s) outer[v * dim_ + s + 1] = static_cast<int>(adjacency[v].size()) * dim_;
  for (int c = 0; c < n; ++c) outer[c + 1] += outer[c];
  std::vector<int> inner(outer[n]);
  for (int v = 0; v < num_vertices_; ++v)
    for (int s = 0; s < dim_; ++s) {
      int p = outer[v * dim_ + s];
      for (int u : adjacency[v])
        for (int r = 0; r < dim_; ++r) inner[p++] = u * dim_ + r;
    }
  std::vector<double> values(inner.size(), 0.0);
  pattern_ = Eigen::Map<const SparseMat>(n, n, static_cast<int>(inner.size()), outer.data(), inner.data(),
                                          values.data());
  pattern_.makeCompressed();

  // Position of the block (u, v) inside column v*dim + s: binary search in the adjacency row.
  auto entry_index = [&](int u, int v, int s) {
    const auto& rows = adjacency[v];
    const int pos = static_cast<int>(std::lower_bound(rows.begin(), rows.end(), u) - rows.begin());
    return pattern_.outerIndexPtr()[v * dim_ + s] + pos * dim_;
  };
  diagonal_index_.resize(n);
  for (int v = 0; v < num_vertices_; ++v)
    for (int s = 0; s < dim_; ++s) diagonal_index_[v * dim_ + s] = entry_index(v, v, s) + s;

  for (auto& set : sets_) {
    const int k = static_cast<int>(set.stencils.cols());
    const int m = static_cast<int>(set.stencils.rows());
    set.block_start.resize(static_cast<std::size_t>(m) * k * k * dim_);
    for (int e = 0; e < m; ++e)
      for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b)
          for (int s = 0; s < dim_; ++s)
            set.block_start[((static_cast<std::size_t>(e) * k + a) * k + b) * dim_ + s] =
                entry_index(set.stencils(e, a), set.stencils(e, b), s);
    set.colors = color_stencils(set.stencils, num_vertices_);
  }
  finalized_ = true;
}

std::vector<std::vector<int>> color_stencils(const MatXi& stencils, int num_vertices) {
  // Per-vertex sets of colours already used by stencils touching it, as bit words.
  constexpr int kBits = 64;
  std::vector<std::vector<std::uint64_t>> used(num_vertices);
  std::vector<std::vector<int>> colors;
  for (int e = 0; e < stencils.rows(); ++e) {
    std::vector<std::uint64_t> taken;
    for (int a = 0; a < stencils.cols(); ++a) {
      const auto& u = used[stencils(e, a)];
      if (u.size() > taken.size()) taken.resize(u.size(), 0);
      for (std::size_t w = 0; w < u.size(); ++w) taken[w] |= u[w];
    }
    int color = 0;
    for (std::size_t w = 0;; ++w) {
      const std::uint64_t word = w < taken.size() ? taken[w] : 0;
      if (~word != 0) {
        color = static_cast<int>(w) * kBits + __builtin_ctzll(~word);
        break;
      }
    }
    if (color >= static_cast<int>(colors.size())) colors.resize(color + 1);
    colors[color].push_back(e);
    const std::size_t word = color / kBits;
    for (int a = 0; a < stencils.cols(); ++a) {
      auto& u = used[stencils(e, a)];
      if (u.size() <= word) u.resize(word + 1, 0);
      u[word] |= std::uint64_t(1) << (color % kBits);
    }
  }
  return colors;
}

}  // namespace softsim
