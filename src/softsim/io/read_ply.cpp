// PLY reader (ASCII, binary little- and big-endian): vertex x y z (any numeric type) and a
// face list property (vertex_indices / vertex_index, any integer count and index types).
// Polygons are fan-triangulated; other elements and properties are skipped.
#include <fmt/format.h>
#include <string>
#include <vector>

#include "softsim/core/errors.hpp"
#include "softsim/io/parse_buffer.hpp"
#include "softsim/io/readers.hpp"
#include "softsim/io/text_util.hpp"

namespace softsim::io_detail {

namespace {

enum class Scalar { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64, Invalid };

Scalar scalar_type(std::string_view s) {
  if (s == "char" || s == "int8") return Scalar::Int8;
  if (s == "uchar" || s == "uint8") return Scalar::UInt8;
  if (s == "short" || s == "int16") return Scalar::Int16;
  if (s == "ushort" || s == "uint16") return Scalar::UInt16;
  if (s == "int" || s == "int32") return Scalar::Int32;
  if (s == "uint" || s == "uint32") return Scalar::UInt32;
  if (s == "float" || s == "float32") return Scalar::Float32;
  if (s == "double" || s == "float64") return Scalar::Float64;
  return Scalar::Invalid;
}

size_t scalar_size(Scalar t) {
  switch (t) {
    case Scalar::Int8: case Scalar::UInt8: return 1;
    case Scalar::Int16: case Scalar::UInt16: return 2;
    case Scalar::Int32: case Scalar::UInt32: case Scalar::Float32: return 4;
    case Scalar::Float64: return 8;
    default: return 0;
  }
}

struct Property {
  std::string name;
  Scalar type = Scalar::Invalid;
  bool is_list = false;
  Scalar count_type = Scalar::Invalid;
};

struct Element {
  std::string name;
  size_t count = 0;
  std::vector<Property> properties;
};

class PlyReader {
 public:
  explicit PlyReader(ParseBuffer& b) : b_(b) {}

  Mesh read() {
    read_header();
    Mesh mesh;
    mesh.vertices.resize(0, 3);
    mesh.cells.resize(0, 3);
    std::vector<int> tris;
    for (const Element& e : elements_) {
      b_.set_section("element " + e.name);
      const bool is_vertex = e.name == "vertex";
      const bool is_face = e.name == "face";
      int px = -1, py = -1, pz = -1, plist = -1;
      for (int p = 0; p < static_cast<int>(e.properties.size()); ++p) {
        const Property& q = e.properties[p];
        if (q.name == "x") px = p;
        if (q.name == "y") py = p;
        if (q.name == "z") pz = p;
        if (q.is_list && (q.name == "vertex_indices" || q.name == "vertex_index" || plist < 0)) plist = p;
      }
      if (is_vertex && (px < 0 || py < 0 || pz < 0)) b_.fail("the vertex element lacks an x, y or z property");
      if (is_face && plist < 0) b_.fail("the face element has no list property of vertex indices");
      if (is_vertex) mesh.vertices.resize(static_cast<Eigen::Index>(e.count), 3);
      // An element without properties has no data: its count, unbounded by the file size, must not
      // drive a loop.
      if (e.properties.empty()) continue;
      std::vector<long long> list;
      for (size_t i = 0; i < e.count; ++i) {
        for (int p = 0; p < static_cast<int>(e.properties.size()); ++p) {
          const Property& q = e.properties[p];
          if (q.is_list) {
            const double count = value(q.count_type, "a list count");
            if (count < 0 || count != std::floor(count) || count > 1e6) fail_value(fmt::format("invalid list count {}", count));
            list.resize(static_cast<size_t>(count));
            for (auto& v : list) {
              const double x = value(q.type, "a list entry");
              if (x != std::floor(x)) fail_value(fmt::format("list entry {} is not an integer", x));
              // No index lies beyond int's range, and converting such a value would be undefined.
              if (std::abs(x) > 2147483647.0) fail_value(fmt::format("list entry {} is out of the range of an index", x));
              v = static_cast<long long>(x);
            }
            if (is_face && p == plist) {
              if (list.size() < 3) fail_value(fmt::format("face {} has {} vertices, at least 3 are needed", i, list.size()));
              for (long long v : list)
                if (v < 0 || v >= mesh.num_vertices())
                  fail_value(fmt::format("face {} refers to vertex {}, but there are {} vertices", i, v, mesh.num_vertices()));
              for (size_t j = 1; j + 1 < list.size(); ++j)
                tris.insert(tris.end(), {static_cast<int>(list[0]), static_cast<int>(list[j]), static_cast<int>(list[j + 1])});
            }
          } else {
            const double x = value(q.type, "a property value");
            if (is_vertex && (p == px || p == py || p == pz)) {
              if (!std::isfinite(x)) fail_value(fmt::format("vertex {} has a non-finite coordinate", i));
              mesh.vertices(static_cast<Eigen::Index>(i), p == px ? 0 : p == py ? 1 : 2) = x;
            }
          }
        }
      }
    }
    mesh.cells.resize(static_cast<Eigen::Index>(tris.size() / 3), 3);
    for (Eigen::Index f = 0; f < mesh.cells.rows(); ++f)
      for (int c = 0; c < 3; ++c) mesh.cells(f, c) = tris[static_cast<size_t>(f) * 3 + c];
    return mesh;
  }

 private:
  [[noreturn]] void fail_value(const std::string& msg) {
    if (ascii_) b_.fail_line(msg);
    b_.fail_byte(msg);
  }

  double value(Scalar t, std::string_view what) {
    if (ascii_) {
      const std::string_view tok = b_.require_token(what);
      double x = 0;
      if (!parse_double(tok, x)) b_.fail_line(fmt::format("expected a number for {}, got '{}'", what, tok.substr(0, 40)));
      return x;
    }
    switch (t) {
      case Scalar::Int8: return b_.read_binary<std::int8_t>(what);
      case Scalar::UInt8: return b_.read_binary<std::uint8_t>(what);
      case Scalar::Int16: return b_.read_binary<std::int16_t>(what);
      case Scalar::UInt16: return b_.read_binary<std::uint16_t>(what);
      case Scalar::Int32: return b_.read_binary<std::int32_t>(what);
      case Scalar::UInt32: return b_.read_binary<std::uint32_t>(what);
      case Scalar::Float32: return b_.read_binary<float>(what);
      case Scalar::Float64: return b_.read_binary<double>(what);
      default: b_.fail_byte("invalid property type");
    }
  }

  void read_header() {
    if (b_.line_text() != "ply") b_.fail_line("expected 'ply' on the first line");
    bool have_format = false;
    for (;;) {
      if (b_.at_end()) b_.fail_line("unexpected end of file in the header (no end_header)");
      const std::string_view line = b_.line_text();
      const auto w = split_words(line);
      if (w.empty()) continue;
      if (w[0] == "end_header") break;
      if (w[0] == "comment" || w[0] == "obj_info") continue;
      if (w[0] == "format") {
        if (w.size() < 2) b_.fail_line("format needs a value");
        if (w[1] == "ascii") ascii_ = true;
        else if (w[1] == "binary_little_endian") b_.set_swap_bytes(false);
        else if (w[1] == "binary_big_endian") b_.set_swap_bytes(true);
        else b_.fail_line(fmt::format("unknown format '{}'", w[1].substr(0, 40)));
        have_format = true;
      } else if (w[0] == "element") {
        long long n = 0;
        if (w.size() != 3 || !parse_int(w[2], n) || n < 0) b_.fail_line("expected 'element <name> <count>'");
        elements_.push_back({std::string(w[1]), static_cast<size_t>(n), {}});
      } else if (w[0] == "property") {
        if (elements_.empty()) b_.fail_line("a property comes before any element");
        Property p;
        if (w.size() == 5 && w[1] == "list") {
          p.is_list = true;
          p.count_type = scalar_type(w[2]);
          p.type = scalar_type(w[3]);
          p.name = std::string(w[4]);
          if (p.count_type == Scalar::Invalid || p.count_type == Scalar::Float32 || p.count_type == Scalar::Float64)
            b_.fail_line(fmt::format("invalid list count type '{}'", w[2]));
        } else if (w.size() == 3) {
          p.type = scalar_type(w[1]);
          p.name = std::string(w[2]);
        } else {
          b_.fail_line("expected 'property <type> <name>' or 'property list <count type> <type> <name>'");
        }
        if (p.type == Scalar::Invalid) b_.fail_line("unknown property type");
        elements_.back().properties.push_back(p);
      } else {
        b_.fail_line(fmt::format("unknown header keyword '{}'", w[0].substr(0, 40)));
      }
    }
    if (!have_format) b_.fail_line("the header has no format line");
    if (!ascii_) b_.skip_line_end();
    // Every item takes at least one byte (binary) or two characters (ASCII): bound the counts
    // by the size of the file before anything is allocated.
    size_t min_bytes = 0;
    for (const Element& e : elements_) {
      size_t per = 0;
      for (const Property& p : e.properties) per += ascii_ ? 2 : scalar_size(p.is_list ? p.count_type : p.type);
      if (per == 0) continue;
      if (e.count > b_.remaining() / per)
        b_.fail(fmt::format("the header declares {} {} elements, more than the {} bytes of data can hold", e.count, e.name,
                            b_.remaining()));
      min_bytes += e.count * per;
    }
    if (min_bytes > b_.remaining()) b_.fail(fmt::format("the data are shorter ({} bytes) than the header declares", b_.remaining()));
  }

  ParseBuffer& b_;
  bool ascii_ = false;
  std::vector<Element> elements_;
};

}  // namespace

Mesh read_ply(ParseBuffer& b) {
  return PlyReader(b).read();
}

}  // namespace softsim::io_detail
