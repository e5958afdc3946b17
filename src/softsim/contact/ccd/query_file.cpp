#include "softsim/contact/ccd/query_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

#include "softsim/core/errors.hpp"

namespace softsim {

namespace fs = std::filesystem;

std::optional<CcdQueryKind> infer_ccd_query_kind(const fs::path& file) {
  for (const auto& part : file.parent_path()) {
    if (part == "vertex-face") return CcdQueryKind::vertex_face;
    if (part == "edge-edge") return CcdQueryKind::edge_edge;
  }
  const std::string name = file.filename().string();
  auto ends_with = [&](const std::string& s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  if (ends_with("vf.csv")) return CcdQueryKind::vertex_face;
  if (ends_with("ee.csv")) return CcdQueryKind::edge_edge;
  return std::nullopt;
}

std::optional<fs::path> ccd_truth_file(const fs::path& file) {
  const std::string stem = file.stem().string();
  const fs::path candidates[] = {file.parent_path().parent_path() / "mma_bool" / (stem + "_mma_bool.json"),
                                 file.parent_path() / (stem + "_mma_bool.json")};
  for (const auto& c : candidates)
    if (fs::exists(c)) return c;
  return std::nullopt;
}

namespace {

[[noreturn]] void fail(const fs::path& file, long line, const std::string& what) {
  throw InputError(fmt::format("{}:{}: {}", file.string(), line, what));
}

double parse_number(const std::string& text, const fs::path& file, long line) {
  size_t b = text.find_first_not_of(" \t\r"), e = text.find_last_not_of(" \t\r");
  if (b == std::string::npos) fail(file, line, "empty field");
  const std::string s = text.substr(b, e - b + 1);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) fail(file, line, fmt::format("'{}' is not a number", s));
  return v;
}

}  // namespace

std::vector<CcdQuery> read_ccd_queries(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}: cannot open the file", file.string()));
  std::vector<CcdQuery> queries;
  std::string line;
  long line_no = 0, row = 0;
  int columns = 0;
  CcdQuery q;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::vector<std::string> fields;
    size_t start = 0;
    while (true) {
      const size_t comma = line.find(',', start);
      fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (fields.size() != 6 && fields.size() != 7)
      fail(file, line_no, fmt::format("expected 6 or 7 comma-separated columns, found {}", fields.size()));
    if (columns == 0) columns = int(fields.size());
    if (int(fields.size()) != columns)
      fail(file, line_no, fmt::format("expected {} columns like the first row, found {}", columns, fields.size()));
    const int r = int(row % 8);
    for (int k = 0; k < 3; ++k) {
      const double num = parse_number(fields[2 * k], file, line_no);
      const double den = parse_number(fields[2 * k + 1], file, line_no);
      if (!(den > 0)) fail(file, line_no, "denominators must be positive");
      q.v[r][k] = num / den;
    }
    if (columns == 7) {
      const double gt = parse_number(fields[6], file, line_no);
      if (gt != 0 && gt != 1) fail(file, line_no, "the ground-truth column must be 0 or 1");
      if (r == 0) q.truth = int(gt);
      else if (q.truth != int(gt)) fail(file, line_no, "the ground truth differs between the rows of one query");
    }
    if (r == 7) {
      queries.push_back(q);
      q = CcdQuery{};
    }
    ++row;
  }
  if (row % 8 != 0)
    fail(file, line_no, fmt::format("{} rows is not a multiple of 8 (8 rows per query)", row));
  if (columns == 6) {
    if (const auto truth = ccd_truth_file(file)) {
      std::ifstream jin(*truth);
      nlohmann::json j;
      try {
        jin >> j;
      } catch (const std::exception& e) {
        throw InputError(fmt::format("{}: not valid JSON: {}", truth->string(), e.what()));
      }
      if (!j.is_array() || j.size() != queries.size())
        throw InputError(fmt::format("{}: expected an array of {} booleans (one per query of {})", truth->string(),
                                     queries.size(), file.string()));
      for (size_t i = 0; i < queries.size(); ++i) {
        if (!j[i].is_boolean()) throw InputError(fmt::format("{}: entry {} is not a boolean", truth->string(), i));
        queries[i].truth = j[i].get<bool>() ? 1 : 0;
      }
    }
  }
  return queries;
}

std::vector<std::pair<int, double>> read_ccd_toi(const fs::path& queries_file) {
  const fs::path toi = queries_file.parent_path().parent_path() / "toi" / (queries_file.stem().string() + "_toi.csv");
  std::vector<std::pair<int, double>> out;
  std::ifstream in(toi);
  if (!in) return out;
  std::string line;
  long line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 || line.empty()) continue;  // header
    const size_t c1 = line.find(','), c2 = line.find(',', c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos) fail(toi, line_no, "expected query_index,toi,num_roots");
    out.emplace_back(int(parse_number(line.substr(0, c1), toi, line_no)),
                     parse_number(line.substr(c1 + 1, c2 - c1 - 1), toi, line_no));
  }
  return out;
}

CcdResult evaluate_ccd_query(const CcdQuery& q, CcdQueryKind kind, const AccdOptions& options) {
  const auto& v = q.v;
  if (kind == CcdQueryKind::vertex_face)
    return additive_ccd_point_triangle(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], options);
  return additive_ccd_edge_edge(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], options);
}

}  // namespace softsim
