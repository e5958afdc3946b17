// gmsh .msh reader: format 2.2 and 4.1, ASCII and binary (either byte order). Takes the
// simplices (lines, triangles, tetrahedra) of the highest dimension present; physical tags
// (2.2: first tag; 4.1: the entity's first physical group) become cell_tags.
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <unordered_map>
#include <vector>

#include "softsim/core/errors.hpp"
#include "softsim/io/parse_buffer.hpp"
#include "softsim/io/readers.hpp"

namespace softsim::io_detail {

namespace {

struct ElementInfo {
  int dim = -1;
  int nodes = 0;
  bool simplex = false;
};

// Number of nodes and dimension of gmsh element types (first- to high-order), so that elements
// we do not keep can still be skipped in binary files.
ElementInfo element_info(long long type) {
  switch (type) {
    case 1: return {1, 2, true};
    case 2: return {2, 3, true};
    case 3: return {2, 4, false};
    case 4: return {3, 4, true};
    case 5: return {3, 8, false};
    case 6: return {3, 6, false};
    case 7: return {3, 5, false};
    case 8: return {1, 3, false};
    case 9: return {2, 6, false};
    case 10: return {2, 9, false};
    case 11: return {3, 10, false};
    case 12: return {3, 27, false};
    case 13: return {3, 18, false};
    case 14: return {3, 14, false};
    case 15: return {0, 1, false};
    case 16: return {2, 8, false};
    case 17: return {3, 20, false};
    case 18: return {3, 15, false};
    case 19: return {3, 13, false};
    case 20: return {2, 9, false};
    case 21: return {2, 10, false};
    case 22: return {2, 12, false};
    case 23: return {2, 15, false};
    case 24: return {2, 15, false};
    case 25: return {2, 21, false};
    case 26: return {1, 4, false};
    case 27: return {1, 5, false};
    case 28: return {1, 6, false};
    case 29: return {3, 20, false};
    case 30: return {3, 35, false};
    case 31: return {3, 56, false};
    default: return {};
  }
}

const char* element_name(int dim) { return dim == 1 ? "line" : dim == 2 ? "triangle" : "tetrahedron"; }

class MshReader {
 public:
  explicit MshReader(ParseBuffer& buf) : b_(buf) {}

  Mesh read() {
    read_format();
    for (;;) {
      const std::string_view t = b_.token();
      if (t.empty()) break;
      if (t[0] != '$') {
        if (binary_) b_.fail_byte(fmt::format("expected a section header such as $Nodes, got '{}'", t.substr(0, 40)));
        b_.fail_line(fmt::format("expected a section header such as $Nodes, got '{}'", t.substr(0, 40)));
      }
      const std::string name(t.substr(1));
      b_.set_section("$" + name);
      if (name == "Nodes") {
        if (have_nodes_) fail_here("a second $Nodes section");
        version4_ ? read_nodes4() : read_nodes2();
        have_nodes_ = true;
      } else if (name == "Elements") {
        if (!have_nodes_) fail_here("$Elements comes before $Nodes");
        if (have_elements_) fail_here("a second $Elements section");
        version4_ ? read_elements4() : read_elements2();
        have_elements_ = true;
      } else if (name == "Entities" && version4_) {
        read_entities();
      } else {
        skip_section(name);
        continue;  // skip_section consumed the $End line
      }
      expect_end(name);
    }
    b_.set_section("");
    if (!have_nodes_) b_.fail("no $Nodes section");
    if (!have_elements_) b_.fail("no $Elements section");
    return assemble();
  }

 private:
  void fail_here(const std::string& message) {
    if (binary_) b_.fail_byte(message);
    b_.fail_line(message);
  }

  void read_format() {
    const std::string_view head = b_.token();
    if (head != "$MeshFormat") b_.fail_line("expected $MeshFormat at the start of a gmsh file");
    const std::string_view version = b_.require_token("the format version");
    if (version.substr(0, 2) == "2.") version4_ = false;
    else if (version == "4.1") version4_ = true;
    else b_.fail_line(fmt::format("unsupported gmsh format version {} (2.2 and 4.1 are read)", version.substr(0, 20)));
    const long long file_type = b_.read_int("the file type");
    if (file_type != 0 && file_type != 1) b_.fail_line(fmt::format("file type must be 0 (ASCII) or 1 (binary), got {}", file_type));
    binary_ = file_type == 1;
    data_size_ = static_cast<int>(b_.read_int("the data size"));
    if (version4_ && binary_ && data_size_ != 4 && data_size_ != 8)
      b_.fail_line(fmt::format("data size must be 4 or 8, got {}", data_size_));
    if (binary_) {
      b_.skip_line_end();
      b_.set_section("$MeshFormat");
      const auto one = b_.read_binary<std::int32_t>("the endianness marker");
      if (one == 0x01000000) b_.set_swap_bytes(true);
      else if (one != 1) b_.seek(b_.offset() - 4), b_.fail_byte(fmt::format("the endianness marker is {}, expected 1", one));
    }
    expect_end("MeshFormat");
  }

  void expect_end(const std::string& name) {
    const std::string_view t = b_.token();
    if (t != "$End" + name) {
      const std::string msg = t.empty() ? fmt::format("unexpected end of file, expected $End{}", name)
                                        : fmt::format("expected $End{}, got '{}'", name, t.substr(0, 40));
      if (binary_) b_.fail_byte(msg);
      b_.fail_line(msg);
    }
  }

  void skip_section(const std::string& name) {
    const std::string end = "$End" + name;
    const size_t at = b_.data().find(end, b_.offset());
    if (at == std::string::npos) fail_here(fmt::format("section ${} is never closed by {}", name, end));
    b_.skip_to(at + end.size());
  }

  // ---- 4.1 ----
  size_t count4(std::string_view what, size_t min_bytes) {
    return binary_ ? b_.read_binary_count(what, data_size_, min_bytes) : b_.read_count(what, min_bytes);
  }
  long long int4(std::string_view what) {
    return binary_ ? b_.read_binary<std::int32_t>(what) : b_.read_int(what);
  }
  double double_value(std::string_view what) {
    if (!binary_) return b_.read_double(what);
    const double v = b_.read_binary<double>(what);
    if (!std::isfinite(v)) {
      b_.seek(b_.offset() - 8);
      b_.fail_byte(fmt::format("{} is not finite", what));
    }
    return v;
  }
  long long tag4(std::string_view what) {
    if (!binary_) return b_.read_int(what);
    if (data_size_ == 8) return static_cast<long long>(b_.read_binary<std::uint64_t>(what));
    return b_.read_binary<std::uint32_t>(what);
  }

  void read_entities() {
    if (binary_) b_.skip_line_end();
    std::array<size_t, 4> counts{};
    for (int d = 0; d < 4; ++d) counts[d] = count4("the number of entities", binary_ ? 4 : 2);
    for (int d = 0; d < 4; ++d)
      for (size_t e = 0; e < counts[d]; ++e) {
        const long long tag = int4("an entity tag");
        const int nbox = d == 0 ? 3 : 6;
        for (int q = 0; q < nbox; ++q) {
          if (binary_) b_.read_binary<double>("an entity bounding box");
          else b_.require_token("an entity bounding box");
        }
        const size_t nphys = count4("the number of physical tags", binary_ ? 4 : 2);
        for (size_t p = 0; p < nphys; ++p) {
          const long long phys = int4("a physical tag");
          if (p == 0) entity_physical_[{d, tag}] = static_cast<int>(phys);
        }
        if (d > 0) {
          const size_t nbound = count4("the number of bounding entities", binary_ ? 4 : 2);
          for (size_t q = 0; q < nbound; ++q) int4("a bounding entity tag");
        }
      }
  }

  void read_nodes4() {
    if (binary_) b_.skip_line_end();
    const size_t blocks = count4("the number of node blocks", binary_ ? 20 : 8);
    const size_t total = count4("the number of nodes", binary_ ? 32 : 6);
    tag4("the minimum node tag");
    tag4("the maximum node tag");
    coords_.reserve(3 * total);
    std::vector<long long> tags;
    for (size_t blk = 0; blk < blocks; ++blk) {
      const long long entity_dim = int4("the entity dimension");
      int4("the entity tag");
      const long long parametric = int4("the parametric flag");
      const size_t n = count4("the number of nodes in the block", binary_ ? 32 : 6);
      if (entity_dim < 0 || entity_dim > 3) fail_here(fmt::format("entity dimension {} is not 0..3", entity_dim));
      tags.resize(n);
      for (size_t i = 0; i < n; ++i) tags[i] = tag4("a node tag");
      const int extra = parametric ? static_cast<int>(entity_dim) : 0;
      for (size_t i = 0; i < n; ++i) {
        add_node(tags[i]);
        for (int c = 0; c < 3; ++c) coords_.push_back(double_value("a node coordinate"));
        for (int c = 0; c < extra; ++c) {
          if (binary_) b_.read_binary<double>("a parametric coordinate");
          else b_.require_token("a parametric coordinate");
        }
      }
    }
    if (node_index_.size() != total)
      fail_here(fmt::format("the header announces {} nodes but the blocks hold {}", total, node_index_.size()));
  }

  void read_elements4() {
    if (binary_) b_.skip_line_end();
    const size_t blocks = count4("the number of element blocks", binary_ ? 20 : 8);
    const size_t total = count4("the number of elements", binary_ ? 16 : 4);
    tag4("the minimum element tag");
    tag4("the maximum element tag");
    size_t seen = 0;
    std::vector<long long> nodes;
    for (size_t blk = 0; blk < blocks; ++blk) {
      const long long entity_dim = int4("the entity dimension");
      const long long entity_tag = int4("the entity tag");
      const long long type = int4("the element type");
      const ElementInfo info = element_info(type);
      if (info.dim < 0) fail_here(fmt::format("unsupported element type {}", type));
      const size_t n = count4("the number of elements in the block", (binary_ ? 8 : 2) * (info.nodes + 1));
      const auto it = entity_physical_.find({static_cast<int>(entity_dim), entity_tag});
      const int phys = it == entity_physical_.end() ? 0 : it->second;
      if (it != entity_physical_.end()) has_physical_[info.dim] = true;
      nodes.resize(info.nodes);
      for (size_t e = 0; e < n; ++e) {
        const long long element_tag = tag4("an element tag");
        for (int q = 0; q < info.nodes; ++q) nodes[q] = tag4("an element node tag");
        add_element(info, type, element_tag, nodes, phys);
      }
      seen += n;
    }
    if (seen != total) fail_here(fmt::format("the header announces {} elements but the blocks hold {}", total, seen));
  }

  // ---- 2.2 ----
  void read_nodes2() {
    const size_t n = b_.read_count("the number of nodes", binary_ ? 28 : 8);
    coords_.reserve(3 * n);
    if (binary_) b_.skip_line_end();
    for (size_t i = 0; i < n; ++i) {
      add_node(binary_ ? b_.read_binary<std::int32_t>("a node tag") : b_.read_int("a node tag"));
      for (int c = 0; c < 3; ++c) coords_.push_back(double_value("a node coordinate"));
    }
  }

  void read_elements2() {
    const size_t n = b_.read_count("the number of elements", binary_ ? 12 : 8);
    std::vector<long long> nodes;
    if (!binary_) {
      for (size_t e = 0; e < n; ++e) {
        const long long element_tag = b_.read_int("an element number");
        const long long type = b_.read_int("the element type");
        const ElementInfo info = element_info(type);
        if (info.dim < 0) b_.fail_line(fmt::format("unsupported element type {}", type));
        const size_t ntags = b_.read_count("the number of tags", 2);
        int phys = 0;
        for (size_t t = 0; t < ntags; ++t) {
          const long long v = b_.read_int("an element tag");
          if (t == 0) phys = static_cast<int>(v);
        }
        if (ntags > 0) has_physical_[info.dim] = true;
        nodes.resize(info.nodes);
        const int line = b_.token_line();
        for (int q = 0; q < info.nodes; ++q) {
          nodes[q] = b_.read_int(fmt::format("node {} of {} of element {}", q + 1, info.nodes, element_tag));
          if (b_.token_line() != line)
            throw InputError(fmt::format("{}:{}: expected {} node indices for a {}, got {}.", b_.name(), line,
                                         info.nodes, info.simplex ? element_name(info.dim) : "gmsh element", q));
        }
        add_element(info, type, element_tag, nodes, phys);
      }
      return;
    }
    b_.skip_line_end();
    size_t seen = 0;
    while (seen < n) {
      const long long type = b_.read_binary<std::int32_t>("the element type");
      const ElementInfo info = element_info(type);
      if (info.dim < 0) {
        b_.seek(b_.offset() - 4);
        b_.fail_byte(fmt::format("unsupported element type {}", type));
      }
      const long long follow = b_.read_binary<std::int32_t>("the number of elements that follow");
      const long long ntags = b_.read_binary<std::int32_t>("the number of tags");
      if (follow <= 0 || ntags < 0 || static_cast<size_t>(follow) > n - seen || ntags > 1000) {
        b_.seek(b_.offset() - 8);
        b_.fail_byte(fmt::format("invalid element block header (type {}, {} elements, {} tags)", type, follow, ntags));
      }
      const size_t per = 4 * (1 + static_cast<size_t>(ntags) + info.nodes);
      if (static_cast<size_t>(follow) > b_.remaining() / per)
        b_.fail_byte(fmt::format("{} elements of type {} do not fit in the {} bytes left", follow, type, b_.remaining()));
      nodes.resize(info.nodes);
      for (long long e = 0; e < follow; ++e) {
        const long long element_tag = b_.read_binary<std::int32_t>("an element number");
        int phys = 0;
        for (long long t = 0; t < ntags; ++t) {
          const int v = b_.read_binary<std::int32_t>("an element tag");
          if (t == 0) phys = v;
        }
        if (ntags > 0) has_physical_[info.dim] = true;
        for (int q = 0; q < info.nodes; ++q) nodes[q] = b_.read_binary<std::int32_t>("an element node");
        add_element(info, type, element_tag, nodes, phys);
      }
      seen += static_cast<size_t>(follow);
    }
  }

  // ---- shared ----
  void add_node(long long tag) {
    const int index = static_cast<int>(node_index_.size());
    if (!node_index_.emplace(tag, index).second) fail_here(fmt::format("node {} is defined twice", tag));
  }

  void add_element(const ElementInfo& info, long long type, long long element_tag,
                   const std::vector<long long>& nodes, int phys) {
    if (info.dim > max_dim_) {
      max_dim_ = info.dim;
      max_dim_non_simplex_type_ = 0;
    }
    if (info.dim == max_dim_ && !info.simplex && info.dim > 0) max_dim_non_simplex_type_ = type;
    if (!info.simplex) return;
    auto& cells = cells_[info.dim];
    for (long long tag : nodes) {
      const auto it = node_index_.find(tag);
      if (it == node_index_.end())
        fail_here(fmt::format("element {} refers to node {}, which is not defined in $Nodes", element_tag, tag));
      cells.push_back(it->second);
    }
    tags_[info.dim].push_back(phys);
  }

  Mesh assemble() {
    if (max_dim_ < 1) b_.fail("the file has no line, triangle or tetrahedron elements");
    if (max_dim_non_simplex_type_ != 0)
      b_.fail(fmt::format("element type {} ({}D, not a simplex) is not supported; use triangles or tetrahedra",
                          max_dim_non_simplex_type_, max_dim_));
    Mesh mesh;
    const size_t n = coords_.size() / 3;
    mesh.vertices.resize(static_cast<Eigen::Index>(n), 3);
    for (size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) mesh.vertices(static_cast<Eigen::Index>(i), c) = coords_[3 * i + c];
    const int k = max_dim_ + 1;
    const auto& cells = cells_[max_dim_];
    const Eigen::Index m = static_cast<Eigen::Index>(cells.size() / k);
    mesh.cells.resize(m, k);
    for (Eigen::Index c = 0; c < m; ++c)
      for (int q = 0; q < k; ++q) mesh.cells(c, q) = cells[static_cast<size_t>(c) * k + q];
    if (has_physical_[max_dim_]) mesh.cell_tags = tags_[max_dim_];
    return mesh;
  }

  ParseBuffer& b_;
  bool version4_ = false, binary_ = false, have_nodes_ = false, have_elements_ = false;
  int data_size_ = 8;
  std::map<std::pair<int, long long>, int> entity_physical_;
  std::unordered_map<long long, int> node_index_;
  std::vector<double> coords_;
  std::array<std::vector<int>, 4> cells_, tags_;
  std::array<bool, 4> has_physical_{};
  int max_dim_ = 0;
  long long max_dim_non_simplex_type_ = 0;
};

}  // namespace

Mesh read_msh(ParseBuffer& buf) {
  return MshReader(buf).read();
}

}  // namespace softsim::io_detail
