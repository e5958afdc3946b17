#include "softsim/model/subspace_map.hpp"

#include <Eigen/Dense>
#include <stdexcept>

#include "softsim/model/state.hpp"
#include "softsim/model/subspace_pull_back.hpp"

namespace softsim {

SparseMat SubspaceMap::pull_back(const SparseMat& H) const { return SubspacePullBack(*this).apply(H); }

double SubspaceMap::distance_from_range(const VecX& x) const {
  if (empty()) return 0.0;
  return (x - positions(coordinates(x))).lpNorm<Eigen::Infinity>();
}

int SubspaceMap::first_coordinate_of_vertex(int v) const {
  // Row v * dim of B is column v * dim of B^T; a group's coordinates are contiguous.
  int first = -1;
  for (SparseMat::InnerIterator it(basis_t, v * dim); it; ++it)
    if (first < 0 || it.index() < first) first = static_cast<int>(it.index());
  return first;
}

void update_positions(const SubspaceMap& map, State& state) {
  if (state.positions_current) return;
  // Into the state's own storage (views on x and v, as Python's, stay valid).
  state.x.noalias() = map.basis * state.y;
  state.x += map.offset;
  state.v.noalias() = map.basis * state.y_dot;
  state.positions_current = true;
}

void start_coordinates(const SubspaceMap& map, const State& state, VecX& y, VecX& y_dot) {
  if (state.defer_positions && state.coordinates_current) {
    y = state.y;
    y_dot = state.y_dot;
  } else {
    y = map.coordinates(state.x);
    y_dot = map.to_coordinates(state.v);
  }
}

void finish_coordinates(const SubspaceMap& map, State& state, VecX& y, VecX& y_dot, double t) {
  state.y.swap(y);
  state.y_dot.swap(y_dot);
  state.coordinates_current = true;
  state.positions_current = false;
  state.t = t;
  if (!state.defer_positions) update_positions(map, state);
}

void SubspaceMapBuilder::add_group(const std::vector<int>& vertices, const MatX& weights) {
  if (weights.rows() != static_cast<Eigen::Index>(vertices.size()))
    throw std::invalid_argument("SubspaceMapBuilder: one row of weights per vertex");
  // W (x) I_dim with the coordinates handle-major: coordinate k * dim + a is axis a of handle k.
  const int d = dim_;
  MatX basis = MatX::Zero(weights.rows() * d, weights.cols() * d);
  for (Eigen::Index i = 0; i < weights.rows(); ++i)
    for (Eigen::Index k = 0; k < weights.cols(); ++k)
      for (int a = 0; a < d; ++a) basis(i * d + a, k * d + a) = weights(i, k);
  add_basis_group(vertices, basis, VecX::Zero(basis.rows()));
}

void SubspaceMapBuilder::add_basis_group(const std::vector<int>& vertices, const MatX& basis, const VecX& offset) {
  const Eigen::Index rows = static_cast<Eigen::Index>(vertices.size()) * dim_;
  if (basis.rows() != rows || offset.size() != rows)
    throw std::invalid_argument("SubspaceMapBuilder: a group's basis and offset need dim rows per vertex");
  const int group = static_cast<int>(vertices_.size());
  for (int v : vertices) {
    if (v < 0 || v >= num_vertices_ || group_of_[v] != -1)
      throw std::invalid_argument("SubspaceMapBuilder: a vertex out of range or in two groups");
  }
  Eigen::ColPivHouseholderQR<MatX> qr(basis);
  qr.setThreshold(1e-12);
  if (qr.rank() < basis.cols()) throw std::invalid_argument("SubspaceMapBuilder: a group's basis is rank-deficient");
  for (int v : vertices) group_of_[v] = group;
  vertices_.push_back(vertices);
  bases_.push_back(basis);
  offsets_.push_back(offset);
}

SubspaceMap SubspaceMapBuilder::build() const {
  const int d = dim_;
  std::vector<char> placed(vertices_.size(), 0);
  std::vector<Triplet> b, l;
  SubspaceMap map;
  map.offset = VecX::Zero(num_vertices_ * d);
  map.dim = d;
  int coordinates = 0;
  for (int v = 0; v < num_vertices_; ++v) {
    const int g = group_of_[v];
    if (g < 0) {
      for (int a = 0; a < d; ++a) {
        b.emplace_back(v * d + a, coordinates + a, 1.0);
        l.emplace_back(coordinates + a, v * d + a, 1.0);
      }
      coordinates += d;
      continue;
    }
    if (placed[g]) continue;
    placed[g] = 1;
    const MatX& U = bases_[g];
    const std::vector<int>& verts = vertices_[g];
    // Least squares on the group's DOFs: q = (U^T U)^-1 U^T (x - offset), exact on the range.
    const MatX pseudo_inverse = Eigen::LDLT<MatX>(U.transpose() * U).solve(U.transpose());
    for (std::size_t i = 0; i < verts.size(); ++i)
      for (int a = 0; a < d; ++a) {
        const Eigen::Index row = static_cast<Eigen::Index>(i) * d + a;
        const int dof = verts[i] * d + a;
        map.offset[dof] = offsets_[g][row];
        for (Eigen::Index k = 0; k < U.cols(); ++k) {
          const int coordinate = coordinates + static_cast<int>(k);
          if (U(row, k) != 0.0) b.emplace_back(dof, coordinate, U(row, k));
          if (pseudo_inverse(k, row) != 0.0) l.emplace_back(coordinate, dof, pseudo_inverse(k, row));
        }
      }
    coordinates += static_cast<int>(U.cols());
  }
  map.basis.resize(num_vertices_ * d, coordinates);
  map.basis.setFromTriplets(b.begin(), b.end());
  map.basis_t = map.basis.transpose();
  map.left_inverse.resize(coordinates, num_vertices_ * d);
  map.left_inverse.setFromTriplets(l.begin(), l.end());
  return map;
}

}  // namespace softsim
