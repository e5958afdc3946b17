// libFuzzer target: CCD query files (CSV, 6 or 7 columns) through read_ccd_queries.
#include "fuzz_support.hpp"
#include "softsim/contact/ccd/query_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace softsim::fuzz;
  const auto path = write_scratch("fuzz_vf.csv", std::string_view(reinterpret_cast<const char*>(data), size));
  expect_input_error_only([&] { (void)softsim::read_ccd_queries(path); });
  return 0;
}
