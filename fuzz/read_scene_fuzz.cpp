// libFuzzer target: scene JSON through read_scene (parse and validate; build_model is not called:
// a valid scene may ask for a generated mesh of any resolution, which would only measure memory).
#include "fuzz_support.hpp"
#include "softsim/scene/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace softsim::fuzz;
  const auto path = write_scratch("fuzz.json", std::string_view(reinterpret_cast<const char*>(data), size));
  expect_input_error_only([&] { (void)softsim::read_scene(path); });
  return 0;
}
