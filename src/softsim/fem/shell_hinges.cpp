#include "softsim/fem/shell_hinges.hpp"

#include <map>
#include <utility>
#include <vector>

namespace softsim {

Hinges interior_hinges(const MatXi& triangles) {
  std::map<std::pair<int, int>, std::pair<int, int>> first_use;  // edge -> (triangle, local edge)
  std::vector<Eigen::Vector4i> found;
  for (int t = 0; t < triangles.rows(); ++t)
    for (int k = 0; k < 3; ++k) {
      const int i = triangles(t, k), j = triangles(t, (k + 1) % 3), opposite = triangles(t, (k + 2) % 3);
      const auto key = std::minmax(i, j);
      auto it = first_use.find(key);
      if (it == first_use.end()) {
        first_use[key] = {t, k};
        continue;
      }
      const auto [t0, k0] = it->second;
      found.emplace_back(triangles(t0, k0), triangles(t0, (k0 + 1) % 3), triangles(t0, (k0 + 2) % 3), opposite);
    }
  Hinges hinges(static_cast<int>(found.size()), 4);
  for (std::size_t h = 0; h < found.size(); ++h) hinges.row(static_cast<Eigen::Index>(h)) = found[h].transpose();
  return hinges;
}

}  // namespace softsim
