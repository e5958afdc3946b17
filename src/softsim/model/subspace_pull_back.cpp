#include "softsim/model/subspace_pull_back.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <stdexcept>

#include "softsim/core/parallel.hpp"
#include "softsim/model/subspace_map.hpp"

namespace softsim {

namespace {

// m itself when it is compressed, else a compressed copy of it in `storage`.
const SparseMat& compressed(const SparseMat& m, SparseMat& storage) {
  if (m.isCompressed()) return m;
  storage = m;
  storage.makeCompressed();
  return storage;
}

}  // namespace

SubspacePullBack::SubspacePullBack(const SubspaceMap& map)
    : num_dofs_(static_cast<int>(map.basis.rows())),
      num_coordinates_(map.num_coordinates()),
      work_([n = num_dofs_, m = num_coordinates_] { return Work{VecX::Zero(n), VecX::Zero(m)}; }) {
  by_rows_ = &compressed(map.basis_t, rows_storage_);  // column i of B^T = row i of B
  by_columns_ = &compressed(map.basis, columns_storage_);
}

void SubspacePullBack::analyse(const SparseMat& H) {
  // Column c of H B has a row i wherever some DOF j with B(j, c) != 0 has an entry H(i, j);
  // column c of B^T (H B) has a row a wherever such an i has B(i, a) != 0.
  hb_rows_.assign(num_coordinates_, {});
  std::vector<std::vector<int>> rows(num_coordinates_);
  const int* column_start = by_columns_->outerIndexPtr();
  const int* column_dof = by_columns_->innerIndexPtr();
  const int* row_start = by_rows_->outerIndexPtr();
  const int* row_coordinate = by_rows_->innerIndexPtr();
  tbb::enumerable_thread_specific<std::pair<std::vector<char>, std::vector<char>>> flags(
      [this] { return std::make_pair(std::vector<char>(num_dofs_, 0), std::vector<char>(num_coordinates_, 0)); });
  parallel_for(static_cast<std::size_t>(num_coordinates_), [&](std::size_t c) {
    auto& [dof_seen, coordinate_seen] = flags.local();
    std::vector<int>& touched = hb_rows_[c];
    for (int q = column_start[c]; q < column_start[c + 1]; ++q) {
      const int j = column_dof[q];
      for (int k = H.outerIndexPtr()[j]; k < H.outerIndexPtr()[j + 1]; ++k) {
        const int i = H.innerIndexPtr()[k];
        if (!dof_seen[i]) {
          dof_seen[i] = 1;
          touched.push_back(i);
        }
      }
    }
    std::sort(touched.begin(), touched.end());
    std::vector<int>& column = rows[c];
    for (int i : touched) {
      dof_seen[i] = 0;  // clean for the thread's next column
      for (int s = row_start[i]; s < row_start[i + 1]; ++s) {
        const int a = row_coordinate[s];
        if (!coordinate_seen[a]) {
          coordinate_seen[a] = 1;
          column.push_back(a);
        }
      }
    }
    std::sort(column.begin(), column.end());
    for (int a : column) coordinate_seen[a] = 0;
  });
  std::vector<Triplet> entries;
  std::size_t total = 0;
  for (const auto& column : rows) total += column.size();
  entries.reserve(total);
  for (int c = 0; c < num_coordinates_; ++c)
    for (int a : rows[c]) entries.emplace_back(a, c, 0.0);
  reduced_.resize(num_coordinates_, num_coordinates_);
  reduced_.setFromTriplets(entries.begin(), entries.end());
  reduced_.makeCompressed();
  seen_.assign(H);
}

const SparseMat& SubspacePullBack::apply(const SparseMat& H_in) {
  if (H_in.rows() != num_dofs_ || H_in.cols() != num_dofs_)
    throw std::invalid_argument("SubspacePullBack: H must be square with one row per DOF of the map");
  SparseMat storage;
  const SparseMat& H = compressed(H_in, storage);
  if (!seen_.matches(H)) analyse(H);

  const int* outer = H.outerIndexPtr();
  const int* inner = H.innerIndexPtr();
  const double* values = H.valuePtr();
  const int* reduced_outer = reduced_.outerIndexPtr();
  const int* reduced_inner = reduced_.innerIndexPtr();
  double* reduced_values = reduced_.valuePtr();
  const int* column_start = by_columns_->outerIndexPtr();
  const int* column_dof = by_columns_->innerIndexPtr();
  const double* column_weight = by_columns_->valuePtr();
  const int* row_start = by_rows_->outerIndexPtr();
  const int* row_coordinate = by_rows_->innerIndexPtr();
  const double* row_weight = by_rows_->valuePtr();
  parallel_for(static_cast<std::size_t>(num_coordinates_), [&](std::size_t c) {
    Work& work = work_.local();
    // (H B)(:, c) = sum_j B(j, c) H(:, j), in positions.
    for (int q = column_start[c]; q < column_start[c + 1]; ++q) {
      const int j = column_dof[q];
      const double beta = column_weight[q];
      for (int k = outer[j]; k < outer[j + 1]; ++k) work.positions[inner[k]] += values[k] * beta;
    }
    // B^T (H B)(:, c), then the reduced column in its pattern's order.
    for (int i : hb_rows_[c]) {
      const double v = work.positions[i];
      work.positions[i] = 0.0;
      for (int s = row_start[i]; s < row_start[i + 1]; ++s) work.coordinates[row_coordinate[s]] += row_weight[s] * v;
    }
    for (int p = reduced_outer[c]; p < reduced_outer[c + 1]; ++p) {
      double& w = work.coordinates[reduced_inner[p]];
      reduced_values[p] = w;
      w = 0.0;
    }
  });
  return reduced_;
}

}  // namespace softsim
