// STL reader, ASCII and binary, told apart by content: a binary file is exactly 84 + 50 n bytes
// for the n its header announces; anything else that starts with "solid" is read as ASCII (CAD
// programs also write binary files whose header starts with "solid", hence the size test first).
// STL stores every facet with its own three corners, so they are welded (weld_vertices.hpp)
// within 1e-7 x the bounding-box diagonal, about float precision: the corners a binary file
// rounded to float32 still meet. Facet normals are ignored (orientation is the corners' order).
#include <cctype>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <vector>

#include "softsim/core/errors.hpp"
#include "softsim/io/parse_buffer.hpp"
#include "softsim/io/readers.hpp"
#include "softsim/mesh/weld_vertices.hpp"

namespace softsim::io_detail {

namespace {

constexpr double kWeldRelativeTolerance = 1e-7;
constexpr size_t kBinaryHeaderBytes = 84, kBinaryFacetBytes = 50;

// The facet count a binary header announces (the file must hold at least the header).
std::uint32_t announced_facets(const ParseBuffer& b) {
  std::uint32_t count = 0;
  std::memcpy(&count, b.data().data() + 80, 4);
  return count;
}

size_t binary_size(std::uint32_t facets) { return kBinaryHeaderBytes + kBinaryFacetBytes * static_cast<size_t>(facets); }

bool is_binary_stl(const ParseBuffer& b) {
  return b.size() >= kBinaryHeaderBytes && b.size() == binary_size(announced_facets(b));
}

bool starts_with_solid(const ParseBuffer& b) {
  size_t i = 0;
  while (i < b.size() && std::isspace(static_cast<unsigned char>(b.data()[i]))) ++i;
  return b.data().compare(i, 5, "solid") == 0;
}

bool keyword_is(std::string_view token, std::string_view keyword) {
  if (token.size() != keyword.size()) return false;
  for (size_t i = 0; i < token.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(token[i])) != keyword[i]) return false;
  return true;
}

void expect_keyword(ParseBuffer& b, std::string_view keyword) {
  const std::string_view t = b.require_token(fmt::format("'{}'", keyword));
  if (!keyword_is(t, keyword)) b.fail_line(fmt::format("expected '{}', got '{}'", keyword, t.substr(0, 40)));
}

// The solid's name (any text, possibly none) up to the end of the line.
void skip_rest_of_line(ParseBuffer& b) {
  const size_t newline = b.data().find('\n', b.offset());
  b.skip_to(newline == std::string::npos ? b.size() : newline);
}

void read_ascii(ParseBuffer& b, std::vector<double>& corners) {
  bool in_solid = false;
  while (true) {
    const std::string_view t = b.token();
    if (t.empty()) break;
    if (keyword_is(t, "solid")) {
      if (in_solid) b.fail_line("'solid' inside a solid (missing 'endsolid')");
      in_solid = true;
      skip_rest_of_line(b);
    } else if (keyword_is(t, "endsolid")) {
      if (!in_solid) b.fail_line("'endsolid' without 'solid'");
      in_solid = false;
      skip_rest_of_line(b);
    } else if (keyword_is(t, "facet")) {
      if (!in_solid) b.fail_line("'facet' outside a solid");
      expect_keyword(b, "normal");
      // Ignored, so not parsed: exporters write "nan" for the normal of a degenerate facet, and
      // the facet is then judged by its corners.
      for (int c = 0; c < 3; ++c) b.require_token("a facet normal component");
      expect_keyword(b, "outer");
      expect_keyword(b, "loop");
      for (int corner = 0; corner < 3; ++corner) {
        expect_keyword(b, "vertex");
        for (int c = 0; c < 3; ++c) corners.push_back(b.read_double("a vertex coordinate"));
      }
      expect_keyword(b, "endloop");
      expect_keyword(b, "endfacet");
    } else {
      b.fail_line(fmt::format("expected 'facet' or 'endsolid', got '{}'", t.substr(0, 40)));
    }
  }
  if (in_solid) b.fail_line("unexpected end of file, expected 'endsolid'");
}

void read_binary(ParseBuffer& b, std::vector<double>& corners) {
  b.seek(80);
  b.set_section("header");
  const std::uint32_t count = b.read_binary<std::uint32_t>("the facet count");
  corners.reserve(static_cast<size_t>(count) * 9);
  for (std::uint32_t f = 0; f < count; ++f) {
    b.set_section(fmt::format("facet {}", f));
    b.skip_bytes(12, "a facet normal");
    for (int k = 0; k < 9; ++k) {
      const float x = b.read_binary<float>("a vertex coordinate");
      if (!std::isfinite(x)) b.fail_byte(fmt::format("a vertex coordinate is {}", x));
      corners.push_back(x);
    }
    b.skip_bytes(2, "the attribute byte count");
  }
}

}  // namespace

Mesh read_stl(ParseBuffer& b) {
  std::vector<double> corners;
  if (is_binary_stl(b)) {
    read_binary(b, corners);
  } else if (starts_with_solid(b)) {
    read_ascii(b, corners);
  } else if (b.size() < kBinaryHeaderBytes) {
    b.fail(fmt::format("{} bytes: too short for a binary STL (84-byte header) and not ASCII STL (which starts "
                       "with 'solid')", b.size()));
  } else {
    const std::uint32_t count = announced_facets(b);
    b.fail(fmt::format("binary STL whose header announces {} facets, which take {} bytes, but the file has {} "
                       "(truncated or not an STL file)", count, binary_size(count), b.size()));
  }
  if (corners.empty()) b.fail("the STL file has no facets");
  Mesh mesh;
  const Eigen::Index num_corners = static_cast<Eigen::Index>(corners.size() / 3);
  mesh.vertices = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>>(corners.data(), num_corners, 3);
  mesh.cells.resize(num_corners / 3, 3);
  for (Eigen::Index i = 0; i < num_corners; ++i) mesh.cells(i / 3, i % 3) = static_cast<int>(i);
  const WeldReport weld = weld_vertices(mesh, kWeldRelativeTolerance);
  mesh.notes.push_back(fmt::format("{}: {} facet corners welded into {} vertices ({} merged; tolerance {:.3g} m = "
                                   "{:g} x the bounding-box diagonal)", b.name(), weld.vertices_before,
                                   weld.vertices_after, weld.merged(), weld.tolerance, kWeldRelativeTolerance));
  return mesh;
}

}  // namespace softsim::io_detail
