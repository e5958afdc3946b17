// The basis file of a reduced body (scene/reduced_basis_file.hpp): written and read back to the
// same doubles, with and without a stored cubature; every malformed file refused with one message
// that names the file and the key.
#include "softsim/scene/reduced_basis_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "support/temp_dir.hpp"

namespace softsim {
namespace {

ReducedBasis small_basis() {
  ReducedBasis b;
  b.kind = ReducedBasisKind::modes_and_derivatives;
  b.dim = 2;
  b.columns = MatX::Random(6, 2);
  b.columns(0, 0) = 1.0 / 3.0;
  b.values = VecX::Random(2);
  return b;
}

std::string refusal(const std::filesystem::path& file) {
  try {
    read_reduced_basis(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(read without complaint)";
}

// The refusal of `good` changed by `change`, written to dir / name.
std::string refusal_of_variant(const std::filesystem::path& dir, const nlohmann::json& good, const std::string& name,
                               const std::function<void(nlohmann::json&)>& change) {
  nlohmann::json j = good;
  change(j);
  std::ofstream(dir / name) << j.dump();
  return refusal(dir / name);
}

void expect_has(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << message;
}

TEST(ReducedBasisFile, RoundTripsExactly) {
  test::TempDir dir("basis_round_trip");
  const ReducedBasis b = small_basis();
  write_reduced_basis(dir.path() / "b.json", "beam", b);
  const ReducedBasis back = read_reduced_basis(dir.path() / "b.json");
  EXPECT_EQ(back.kind, b.kind);
  EXPECT_EQ(back.dim, 2);
  EXPECT_EQ(back.num_vertices(), 3);
  EXPECT_EQ(back.columns, b.columns);
  EXPECT_EQ(back.values, b.values);
}

Cubature small_cubature() {
  Cubature c;
  c.num_elements = 40;
  c.elements = {17, 3, 29};
  c.weights = {2.0 / 3.0, 1e-9, 41.5};
  c.relative_error = 0.0071;
  return c;
}

TEST(ReducedBasisFile, RoundTripsACubatureExactly) {
  test::TempDir dir("basis_cubature_round_trip");
  const ReducedBasis b = small_basis();
  const Cubature c = small_cubature();
  write_reduced_basis(dir.path() / "b.json", "beam", b, c);
  const BasisFile back = read_basis_file(dir.path() / "b.json");
  ASSERT_TRUE(back.cubature);
  EXPECT_EQ(back.cubature->num_elements, 40);
  EXPECT_EQ(back.cubature->elements, c.elements);
  EXPECT_EQ(back.cubature->weights, c.weights);
  EXPECT_EQ(back.cubature->relative_error, c.relative_error);
  EXPECT_EQ(back.basis.columns, b.columns);
  write_reduced_basis(dir.path() / "plain.json", "beam", b);
  EXPECT_FALSE(read_basis_file(dir.path() / "plain.json").cubature);
}

TEST(ReducedBasisFile, RefusesMalformedCubaturesNamingTheKey) {
  test::TempDir dir("basis_cubature_bad");
  write_reduced_basis(dir.path() / "good.json", "beam", small_basis(), small_cubature());
  nlohmann::json good;
  std::ifstream(dir.path() / "good.json") >> good;
  auto variant = [&](const std::string& name, const std::function<void(nlohmann::json&)>& change) {
    return refusal_of_variant(dir.path(), good, name, change);
  };
  expect_has(variant("range.json", [](auto& j) { j["cubature"]["elements"][1] = 40; }),
             "range.json: cubature.elements: expected element ids from 0 to num_elements - 1 = 39, got 40");
  expect_has(variant("negative.json", [](auto& j) { j["cubature"]["elements"][0] = -1; }), "cubature.elements");
  expect_has(variant("huge_id.json", [](auto& j) { j["cubature"]["elements"][0] = 1e15; }), "cubature.elements");
  expect_has(variant("twice.json", [](auto& j) { j["cubature"]["elements"][2] = 17; }),
             "twice.json: cubature.elements: element 17 appears twice");
  expect_has(variant("weight.json", [](auto& j) { j["cubature"]["weights"][1] = 0.0; }),
             "weight.json: cubature.weights: entry 1: expected a positive weight");
  expect_has(variant("count.json", [](auto& j) { j["cubature"]["weights"].erase(0); }),
             "count.json: cubature.weights: expected an array of 3 numbers");
  expect_has(variant("no_m.json", [](auto& j) { j["cubature"].erase("num_elements"); }),
             "no_m.json: cubature.num_elements: missing");
  expect_has(variant("kind.json", [](auto& j) { j["cubature"] = 3; }), "kind.json: cubature: expected an object");
  expect_has(variant("empty_ids.json", [](auto& j) { j["cubature"]["elements"] = nlohmann::json::array(); }),
             "cubature.elements: expected a non-empty array");
  expect_has(variant("key.json", [](auto& j) { j["cubature"]["poses"] = 3; }), "key.json: cubature.poses");
}

TEST(ReducedBasisFile, RefusesMalformedFilesNamingTheKey) {
  test::TempDir dir("basis_bad");
  write_reduced_basis(dir.path() / "good.json", "beam", small_basis());
  nlohmann::json good;
  std::ifstream(dir.path() / "good.json") >> good;
  auto variant = [&](const std::string& name, const std::function<void(nlohmann::json&)>& change) {
    return refusal_of_variant(dir.path(), good, name, change);
  };
  expect_has(refusal(dir.path() / "missing.json"), "missing.json: cannot open");
  std::ofstream(dir.path() / "broken.json") << "{\"format\": ";
  expect_has(refusal(dir.path() / "broken.json"), "broken.json: not valid JSON");
  // A number nlohmann cannot hold is an out_of_range, not a parse_error (found by the fuzzer).
  std::ofstream(dir.path() / "overflow.json") << "{\"format\": \"softsim reduced basis\", \"version\": 7E7777777777777}";
  expect_has(refusal(dir.path() / "overflow.json"), "overflow.json: not valid JSON");
  expect_has(variant("format.json", [](auto& j) { j["format"] = "mesh"; }), "format.json: format: expected one of");
  expect_has(variant("nokind.json", [](auto& j) { j.erase("kind"); }), "nokind.json: kind: missing");
  expect_has(variant("dim.json", [](auto& j) { j["dim"] = 4; }), "dim.json: dim:");
  expect_has(variant("short.json", [](auto& j) { j["columns"][1].erase(0); }),
             "short.json: columns[1]: expected an array of num_vertices * dim = 6 numbers");
  expect_has(variant("null.json", [](auto& j) { j["columns"][0][2] = nullptr; }),
             "null.json: columns[0]: entry 2: expected a finite number, got null");
  expect_has(variant("values.json", [](auto& j) { j["values"].push_back(1.0); }), "values.json: values: expected an array of 2");
  expect_has(variant("extra.json", [](auto& j) { j["colour"] = "red"; }), "extra.json: colour");
  // A header that claims far more than the file holds is refused before anything is allocated.
  expect_has(variant("huge.json", [](auto& j) { j["num_vertices"] = 200000000; }),
             "huge.json: columns[0]: expected an array of num_vertices * dim = 400000000 numbers");
  expect_has(variant("empty.json", [](auto& j) { j["columns"] = nlohmann::json::array(); }), "empty.json: columns:");
}

}  // namespace
}  // namespace softsim
