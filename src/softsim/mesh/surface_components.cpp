#include "softsim/mesh/surface_components.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

namespace softsim {

namespace {

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

std::vector<Eigen::MatrixXi> surface_components(const Eigen::MatrixXi& faces) {
  const int m = static_cast<int>(faces.rows());
  std::vector<int> parent(m);
  std::iota(parent.begin(), parent.end(), 0);
  std::map<std::pair<int, int>, int> first_face;  // undirected edge -> a face using it
  for (int f = 0; f < m; ++f)
    for (int a = 0; a < 3; ++a) {
      const int u = faces(f, a), v = faces(f, (a + 1) % 3);
      const auto [it, inserted] = first_face.emplace(std::minmax(u, v), f);
      if (!inserted) parent[find_root(parent, f)] = find_root(parent, it->second);
    }
  std::map<int, std::vector<int>> groups;  // root -> faces; keyed by root, reordered below
  std::vector<int> order;
  for (int f = 0; f < m; ++f) {
    const int r = find_root(parent, f);
    if (groups[r].empty()) order.push_back(r);
    groups[r].push_back(f);
  }
  std::vector<Eigen::MatrixXi> out;
  for (int r : order) {
    const std::vector<int>& ids = groups[r];
    Eigen::MatrixXi block(static_cast<Eigen::Index>(ids.size()), 3);
    for (std::size_t i = 0; i < ids.size(); ++i) block.row(static_cast<Eigen::Index>(i)) = faces.row(ids[i]);
    out.push_back(std::move(block));
  }
  return out;
}

bool is_closed_and_oriented(const Eigen::MatrixXi& faces) {
  std::map<std::pair<int, int>, int> directed;
  for (Eigen::Index f = 0; f < faces.rows(); ++f)
    for (int a = 0; a < 3; ++a) ++directed[{faces(f, a), faces(f, (a + 1) % 3)}];
  for (const auto& [edge, count] : directed) {
    if (count != 1) return false;
    const auto reverse = directed.find({edge.second, edge.first});
    if (reverse == directed.end() || reverse->second != 1) return false;
  }
  return faces.rows() > 0;
}

}  // namespace softsim
