// TetGen .node / .ele reader. Either file may be given; the sibling with the same stem is
// read too. Numbering is 0- or 1-based according to the first point number of the .node file;
// attributes and boundary markers are read and ignored.
#include <fmt/format.h>
#include <vector>

#include "softsim/core/errors.hpp"
#include "softsim/io/parse_buffer.hpp"
#include "softsim/io/readers.hpp"
#include "softsim/io/text_util.hpp"

namespace softsim::io_detail {

namespace {

ParseBuffer load_without_comments(const std::filesystem::path& path) {
  ParseBuffer raw = ParseBuffer::from_file(path);
  std::string text = raw.data();
  blank_comments(text);
  return ParseBuffer(std::move(text), raw.name());
}

}  // namespace

Mesh read_tetgen(const std::filesystem::path& path) {
  std::filesystem::path node_path = path, ele_path = path;
  node_path.replace_extension(".node");
  ele_path.replace_extension(".ele");
  const std::filesystem::path& given = path.extension() == ".ele" ? ele_path : node_path;
  const std::filesystem::path& sibling = path.extension() == ".ele" ? node_path : ele_path;
  if (!std::filesystem::exists(given)) throw InputError(fmt::format("{}: the mesh file does not exist.", given.string()));
  if (!std::filesystem::exists(sibling))
    throw InputError(fmt::format("{}: the matching TetGen file {} is missing.", given.filename().string(),
                                 sibling.filename().string()));

  Mesh mesh;
  long long first_index = 0;
  {
    ParseBuffer b = load_without_comments(node_path);
    const size_t n = b.read_count("the number of points", 4);
    const long long dim = b.read_int("the dimension");
    if (dim != 2 && dim != 3) b.fail_line(fmt::format("the dimension must be 2 or 3, got {}", dim));
    const long long nattr = b.read_int("the number of attributes");
    const long long markers = b.read_int("the boundary-marker flag");
    if (nattr < 0 || nattr > 1000) b.fail_line(fmt::format("invalid number of attributes {}", nattr));
    if (markers != 0 && markers != 1) b.fail_line(fmt::format("the boundary-marker flag must be 0 or 1, got {}", markers));
    mesh.vertices = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), 3);
    for (size_t i = 0; i < n; ++i) {
      const long long id = b.read_int("a point number");
      if (i == 0) {
        first_index = id;
        if (id != 0 && id != 1) b.fail_line(fmt::format("the first point number must be 0 or 1, got {}", id));
      } else if (id != first_index + static_cast<long long>(i)) {
        b.fail_line(fmt::format("point numbers must be consecutive: expected {}, got {}", first_index + static_cast<long long>(i), id));
      }
      for (int c = 0; c < dim; ++c)
        mesh.vertices(static_cast<Eigen::Index>(i), c) = b.read_double(fmt::format("coordinate {} of point {}", c + 1, id));
      for (long long a = 0; a < nattr + markers; ++a) b.require_token("a point attribute or marker");
    }
    if (!b.at_end()) b.fail_line("unexpected data after the last point");
  }
  {
    ParseBuffer b = load_without_comments(ele_path);
    const size_t m = b.read_count("the number of elements", 6);
    const long long k = b.read_int("the number of nodes per element");
    if (k != 3 && k != 4 && k != 6 && k != 10)
      b.fail_line(fmt::format("nodes per element must be 3, 4, 6 or 10, got {}", k));
    const int corners = k == 10 || k == 4 ? 4 : 3;
    const long long nattr = b.read_int("the number of attributes");
    if (nattr < 0 || nattr > 1000) b.fail_line(fmt::format("invalid number of attributes {}", nattr));
    mesh.cells.resize(static_cast<Eigen::Index>(m), corners);
    for (size_t e = 0; e < m; ++e) {
      const long long id = b.read_int("an element number");
      for (long long q = 0; q < k; ++q) {
        const long long v = b.read_int(fmt::format("node {} of element {}", q + 1, id));
        const long long index = v - first_index;
        if (index < 0 || index >= mesh.num_vertices())
          b.fail_line(fmt::format("element {} refers to point {}, but the .node file numbers points {} to {}", id, v,
                                  first_index, first_index + mesh.num_vertices() - 1));
        if (q < corners) mesh.cells(static_cast<Eigen::Index>(e), static_cast<int>(q)) = static_cast<int>(index);
      }
      for (long long a = 0; a < nattr; ++a) b.require_token("an element attribute");
    }
    if (!b.at_end()) b.fail_line("unexpected data after the last element");
  }
  return mesh;
}

}  // namespace softsim::io_detail
