// libFuzzer target: a reduced body's basis file through read_reduced_basis (JSON, checked key by
// key: scene/reduced_basis_file.hpp).
#include "fuzz_support.hpp"
#include "softsim/scene/reduced_basis_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace softsim::fuzz;
  const auto path = write_scratch("fuzz.basis.json", std::string_view(reinterpret_cast<const char*>(data), size));
  expect_input_error_only([&] { (void)softsim::read_reduced_basis(path); });
  return 0;
}
