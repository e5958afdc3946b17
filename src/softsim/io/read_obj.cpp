// Wavefront OBJ reader: `v x y z` and `f a b c ...` (forms a, a/t, a//n, a/t/n; negative
// indices count back from the last vertex defined). Polygons are fan-triangulated; every
// other statement is ignored.
#include <fmt/format.h>
#include <vector>

#include "softsim/core/errors.hpp"
#include "softsim/io/parse_buffer.hpp"
#include "softsim/io/readers.hpp"
#include "softsim/io/text_util.hpp"

namespace softsim::io_detail {

Mesh read_obj(ParseBuffer& b) {
  std::vector<double> coords;
  std::vector<int> tris;
  std::vector<int> tri_lines;
  while (!b.at_end()) {
    const std::string_view line = b.line_text();
    const auto words = split_words(line);
    if (words.empty() || words[0][0] == '#') continue;
    if (words[0] == "v") {
      if (words.size() < 4) b.fail_line(fmt::format("a vertex needs 3 coordinates, got {}", words.size() - 1));
      for (int c = 1; c <= 3; ++c) {
        double x = 0;
        if (!parse_double(words[c], x)) b.fail_line(fmt::format("expected a number, got '{}'", words[c].substr(0, 40)));
        if (!std::isfinite(x))
          b.fail_line(fmt::format("vertex {} has a non-finite coordinate", coords.size() / 3 + 1));
        coords.push_back(x);
      }
    } else if (words[0] == "f") {
      if (words.size() < 4) b.fail_line(fmt::format("a face needs at least 3 vertices, got {}", words.size() - 1));
      std::vector<int> poly;
      const long long defined = static_cast<long long>(coords.size() / 3);
      for (size_t w = 1; w < words.size(); ++w) {
        const std::string_view ref = words[w].substr(0, words[w].find('/'));
        long long index = 0;
        if (!parse_int(ref, index) || index == 0)
          b.fail_line(fmt::format("invalid vertex reference '{}'", words[w].substr(0, 40)));
        const long long zero_based = index < 0 ? defined + index : index - 1;
        if (zero_based < 0 || (index < 0 && zero_based >= defined) || zero_based > 2000000000)
          b.fail_line(fmt::format("vertex reference {} is out of range ({} vertices defined so far)", index, defined));
        poly.push_back(static_cast<int>(zero_based));
      }
      for (size_t j = 1; j + 1 < poly.size(); ++j) {
        tris.insert(tris.end(), {poly[0], poly[j], poly[j + 1]});
        tri_lines.push_back(b.token_line());
      }
    }
  }
  Mesh mesh;
  const Eigen::Index n = static_cast<Eigen::Index>(coords.size() / 3);
  mesh.vertices.resize(n, 3);
  for (Eigen::Index i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) mesh.vertices(i, c) = coords[static_cast<size_t>(i) * 3 + c];
  const Eigen::Index m = static_cast<Eigen::Index>(tris.size() / 3);
  mesh.cells.resize(m, 3);
  for (Eigen::Index f = 0; f < m; ++f)
    for (int c = 0; c < 3; ++c) {
      const int v = tris[static_cast<size_t>(f) * 3 + c];
      if (v >= n)
        throw InputError(fmt::format("{}:{}: face refers to vertex {}, but the file defines only {} vertices.",
                                     b.name(), tri_lines[f], v + 1, n));
      mesh.cells(f, c) = v;
    }
  return mesh;
}

}  // namespace softsim::io_detail
