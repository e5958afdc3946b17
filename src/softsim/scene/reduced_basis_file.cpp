#include "softsim/scene/reduced_basis_file.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/scene/json_reader.hpp"

namespace softsim {

namespace {
constexpr const char* kFormat = "softsim reduced basis";

// The stored cubature: T distinct element ids below num_elements and T positive weights.
Cubature read_cubature(const JsonReader& c) {
  if (!c.node().is_object()) c.fail_here("expected an object with num_elements, elements and weights");
  for (const char* key : {"num_elements", "elements", "weights"})
    if (!c.has(key)) c.fail(key, "missing");
  Cubature cubature;
  cubature.num_elements = c.integer("num_elements", 1, 1, 1 << 30);
  cubature.relative_error = c.number("relative_error", 0.0, 0.0);
  const nlohmann::json& ids = c.node().at("elements");
  if (!ids.is_array() || ids.empty()) c.fail("elements", "expected a non-empty array of element ids");
  for (const nlohmann::json& e : ids) {
    if (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() >= cubature.num_elements)
      c.fail("elements", fmt::format("expected element ids from 0 to num_elements - 1 = {}, got {}",
                                     cubature.num_elements - 1, describe_json(e)));
    cubature.elements.push_back(static_cast<int>(e.get<long long>()));
  }
  std::vector<int> sorted = cubature.elements;  // sized by the file's data, not by its claims
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
    c.fail("elements", fmt::format("element {} appears twice", *twice));
  const VecX w = c.vector("weights", VecX(), static_cast<int>(ids.size()));
  for (Eigen::Index k = 0; k < w.size(); ++k) {
    if (!(w[k] > 0.0)) c.fail("weights", fmt::format("entry {}: expected a positive weight, got {}", k, w[k]));
    cubature.weights.push_back(w[k]);
  }
  c.finish();
  return cubature;
}
}  // namespace

void write_reduced_basis(const std::filesystem::path& file, const std::string& body, const ReducedBasis& basis,
                         const std::optional<Cubature>& cubature) {
  // Numbers are written with 17 significant digits, so a basis read back is the basis written.
  write_file_atomically(file, [&](std::ostream& out) {
    out << fmt::format("{{\"format\": \"{}\", \"version\": 1, \"body\": {}, \"kind\": \"{}\", \"dim\": {}, "
                       "\"num_vertices\": {},\n \"values\": [",
                       kFormat, nlohmann::json(body).dump(), name_of(basis.kind), basis.dim, basis.num_vertices());
    for (Eigen::Index j = 0; j < basis.values.size(); ++j) out << (j ? ", " : "") << fmt::format("{:.17g}", basis.values[j]);
    out << "],\n";
    if (const auto& c = cubature) {
      out << fmt::format(" \"cubature\": {{\"num_elements\": {}, \"relative_error\": {:.17g}, \"elements\": [{}],\n  \"weights\": [",
                         c->num_elements, c->relative_error, fmt::join(c->elements, ", "));
      for (std::size_t k = 0; k < c->weights.size(); ++k) out << (k ? ", " : "") << fmt::format("{:.17g}", c->weights[k]);
      out << "]},\n";
    }
    out << " \"columns\": [";
    for (Eigen::Index j = 0; j < basis.columns.cols(); ++j) {
      out << (j ? ",\n  [" : "\n  [");
      for (Eigen::Index i = 0; i < basis.columns.rows(); ++i)
        out << (i ? "," : "") << fmt::format("{:.17g}", basis.columns(i, j));
      out << "]";
    }
    out << "]}\n";
  });
}

BasisFile read_basis_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the basis file", file.string()));
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {  // bad syntax, or a number out of range
    throw InputError(fmt::format("{}: not valid JSON: {}", file.string(), e.what()));
  }
  if (!json.is_object()) throw InputError(fmt::format("{}: expected a JSON object (a softsim reduced basis)", file.string()));
  const JsonReader r(json, "", file.string());
  for (const char* key : {"format", "version", "kind", "dim", "num_vertices", "values", "columns"})
    if (!r.has(key)) r.fail(key, "missing");
  r.string("format", "", {kFormat});
  r.integer("version", 1, 1, 1);
  r.string("body", "");
  BasisFile read;
  ReducedBasis& basis = read.basis;
  basis.kind = r.choice("kind", basis.kind);
  basis.dim = r.integer("dim", 3, 2, 3);
  const int n = r.integer("num_vertices", 0, 1, 1 << 28);
  if (!r.has("columns") || !r.node().at("columns").is_array() || r.node().at("columns").empty())
    r.fail("columns", "expected a non-empty array of columns");
  const JsonReader columns = r.child("columns");
  const int size = static_cast<int>(columns.array_size());
  basis.values = r.vector("values", VecX(), size);
  // Every column's length first: the sizes in the header are only claims until the data match.
  const std::size_t rows = static_cast<std::size_t>(n) * basis.dim;
  for (int j = 0; j < size; ++j) {
    const JsonReader column = columns.element(j);
    const nlohmann::json& c = column.node();
    if (!c.is_array() || c.size() != rows)
      column.fail_here(fmt::format("expected an array of num_vertices * dim = {} numbers, got {}", rows, describe_json(c)));
  }
  basis.columns.resize(static_cast<Eigen::Index>(rows), size);
  for (int j = 0; j < size; ++j) {
    const JsonReader column = columns.element(j);
    const nlohmann::json& c = column.node();
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (!c[i].is_number() || !std::isfinite(c[i].get<double>()))
        column.fail_here(fmt::format("entry {}: expected a finite number, got {}", i, describe_json(c[i])));
      basis.columns(static_cast<Eigen::Index>(i), j) = c[i].get<double>();
    }
  }
  if (r.has("cubature")) read.cubature = read_cubature(r.child("cubature"));
  r.finish();
  return read;
}

ReducedBasis read_reduced_basis(const std::filesystem::path& file) { return read_basis_file(file).basis; }

}  // namespace softsim
