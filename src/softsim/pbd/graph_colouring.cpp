#include "softsim/pbd/graph_colouring.hpp"

#include <cstdint>

namespace softsim {

std::vector<std::vector<int>> colour_constraints(int count, int num_vertices,
                                                 const std::function<std::span<const int>(int)>& vertices_of) {
  // Per vertex, a bit set of the colours already touching it (64 colours per word).
  std::vector<std::vector<std::uint64_t>> used(static_cast<std::size_t>(num_vertices));
  std::vector<std::vector<int>> colours;
  std::vector<std::uint64_t> taken;
  for (int c = 0; c < count; ++c) {
    const std::span<const int> vs = vertices_of(c);
    taken.assign(colours.size() / 64 + 1, 0);
    for (const int v : vs) {
      const auto& u = used[static_cast<std::size_t>(v)];
      for (std::size_t w = 0; w < u.size() && w < taken.size(); ++w) taken[w] |= u[w];
    }
    std::size_t colour = 0;
    while (colour / 64 < taken.size() && (taken[colour / 64] >> (colour % 64) & 1u)) ++colour;
    if (colour == colours.size()) colours.emplace_back();
    colours[colour].push_back(c);
    for (const int v : vs) {
      auto& u = used[static_cast<std::size_t>(v)];
      if (u.size() <= colour / 64) u.resize(colour / 64 + 1, 0);
      u[colour / 64] |= std::uint64_t{1} << (colour % 64);
    }
  }
  return colours;
}

}  // namespace softsim
