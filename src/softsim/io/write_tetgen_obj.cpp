#include <fmt/format.h>
#include <ostream>

#include "softsim/core/errors.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/io/write_mesh.hpp"

namespace softsim {

void write_tetgen(const std::filesystem::path& node_path, const Mesh& mesh) {
  std::filesystem::path ele_path = node_path;
  ele_path.replace_extension(".ele");
  const int dim = mesh.dim();
  if (dim != 2 && dim != 3) throw RunError(fmt::format("{}: cannot write {}D vertices to TetGen.", node_path.string(), dim));
  const bool tagged = !mesh.cell_tags.empty() && static_cast<int>(mesh.cell_tags.size()) == mesh.num_cells();
  write_file_atomically(node_path, [&](std::ostream& out) {
    out << fmt::format("{} {} 0 0\n", mesh.num_vertices(), dim);
    for (int v = 0; v < mesh.num_vertices(); ++v) {
      out << v + 1;
      for (int c = 0; c < dim; ++c) out << ' ' << fmt::format("{}", mesh.vertices(v, c));
      out << '\n';
    }
  });
  write_file_atomically(ele_path, [&](std::ostream& out) {
    out << fmt::format("{} {} {}\n", mesh.num_cells(), mesh.cells.cols(), tagged ? 1 : 0);
    for (int c = 0; c < mesh.num_cells(); ++c) {
      out << c + 1;
      for (int q = 0; q < mesh.cells.cols(); ++q) out << ' ' << mesh.cells(c, q) + 1;
      if (tagged) out << ' ' << mesh.cell_tags[c];
      out << '\n';
    }
  });
}

void write_obj(const std::filesystem::path& path, const Eigen::MatrixXd& V, const Eigen::MatrixXi& F) {
  write_file_atomically(path, [&](std::ostream& out) {
    for (Eigen::Index v = 0; v < V.rows(); ++v)
      out << fmt::format("v {} {} {}\n", V(v, 0), V.cols() > 1 ? V(v, 1) : 0.0, V.cols() > 2 ? V(v, 2) : 0.0);
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
      out << 'f';
      for (Eigen::Index q = 0; q < F.cols(); ++q) out << ' ' << F(f, q) + 1;
      out << '\n';
    }
  });
}

}  // namespace softsim
