// The basis file of a reduced body (scene/reduced_basis_file.hpp): written and read back to the
// same doubles; every malformed file refused with one message that names the file and the key.
#include "softsim/scene/reduced_basis_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
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

TEST(ReducedBasisFile, RefusesMalformedFilesNamingTheKey) {
  test::TempDir dir("basis_bad");
  write_reduced_basis(dir.path() / "good.json", "beam", small_basis());
  nlohmann::json good;
  std::ifstream(dir.path() / "good.json") >> good;
  auto variant = [&](const std::string& name, const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json j = good;
    change(j);
    const auto path = dir.path() / name;
    std::ofstream(path) << j.dump();
    return refusal(path);
  };
  auto expect_has = [](const std::string& message, const std::string& part) {
    EXPECT_NE(message.find(part), std::string::npos) << message;
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
