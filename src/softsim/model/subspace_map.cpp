#include "softsim/model/subspace_map.hpp"

#include <Eigen/Dense>
#include <stdexcept>

namespace softsim {

SparseMat SubspaceMap::pull_back(const SparseMat& H) const {
  SparseMat HB = H * basis;
  SparseMat reduced = basis_t * HB;
  reduced.makeCompressed();
  return reduced;
}

double SubspaceMap::distance_from_range(const VecX& x) const {
  if (empty()) return 0.0;
  return (x - positions(coordinates(x))).lpNorm<Eigen::Infinity>();
}

void SubspaceMapBuilder::add_group(const std::vector<int>& vertices, const MatX& weights) {
  if (weights.rows() != static_cast<Eigen::Index>(vertices.size()))
    throw std::invalid_argument("SubspaceMapBuilder: one row of weights per vertex");
  const int group = static_cast<int>(vertices_.size());
  for (int v : vertices) {
    if (v < 0 || v >= num_vertices_ || group_of_[v] != -1)
      throw std::invalid_argument("SubspaceMapBuilder: a vertex out of range or in two groups");
    group_of_[v] = group;
  }
  vertices_.push_back(vertices);
  weights_.push_back(weights);
}

SubspaceMap SubspaceMapBuilder::build() const {
  const int d = dim_;
  std::vector<int> first_handle(vertices_.size(), -1);
  std::vector<Triplet> b, l;
  int handles = 0;
  for (int v = 0; v < num_vertices_; ++v) {
    const int g = group_of_[v];
    if (g < 0) {
      for (int a = 0; a < d; ++a) {
        b.emplace_back(v * d + a, handles * d + a, 1.0);
        l.emplace_back(handles * d + a, v * d + a, 1.0);
      }
      ++handles;
      continue;
    }
    if (first_handle[g] >= 0) continue;
    first_handle[g] = handles;
    const MatX& W = weights_[g];
    const std::vector<int>& verts = vertices_[g];
    // Least squares on the group's vertices: handles = (W^T W)^-1 W^T X, exact on the range.
    Eigen::ColPivHouseholderQR<MatX> qr(W);
    qr.setThreshold(1e-12);
    if (qr.rank() < W.cols()) throw std::invalid_argument("SubspaceMapBuilder: a group's weights are rank-deficient");
    const MatX pseudo_inverse = Eigen::LDLT<MatX>(W.transpose() * W).solve(W.transpose());
    for (std::size_t i = 0; i < verts.size(); ++i)
      for (Eigen::Index k = 0; k < W.cols(); ++k)
        for (int a = 0; a < d; ++a) {
          const int coordinate = static_cast<int>((handles + k) * d + a);
          if (W(i, k) != 0.0) b.emplace_back(verts[i] * d + a, coordinate, W(i, k));
          if (pseudo_inverse(k, i) != 0.0) l.emplace_back(coordinate, verts[i] * d + a, pseudo_inverse(k, i));
        }
    handles += static_cast<int>(W.cols());
  }
  SubspaceMap map;
  map.basis.resize(num_vertices_ * d, handles * d);
  map.basis.setFromTriplets(b.begin(), b.end());
  map.basis_t = map.basis.transpose();
  map.left_inverse.resize(handles * d, num_vertices_ * d);
  map.left_inverse.setFromTriplets(l.begin(), l.end());
  map.offset = VecX::Zero(num_vertices_ * d);
  return map;
}

}  // namespace softsim
