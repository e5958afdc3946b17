// libFuzzer target: scene JSON through the reader its sections choose (read_scene, or the MPM or
// position-based fluid reader), parse and validate only: a valid scene may ask for a generated
// mesh or a particle count of any resolution, which would only measure memory.
#include "fuzz_support.hpp"
#include "softsim/scene/mpm_scene.hpp"
#include "softsim/scene/pbf_scene.hpp"
#include "softsim/scene/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace softsim::fuzz;
  const auto path = write_scratch("fuzz.json", std::string_view(reinterpret_cast<const char*>(data), size));
  expect_input_error_only([&] {
    const nlohmann::json json = softsim::read_scene_json(path);
    if (softsim::is_mpm_scene(json)) (void)softsim::parse_mpm_scene(json, path);
    else if (softsim::is_pbf_scene(json)) (void)softsim::parse_pbf_scene(json, path);
    else (void)softsim::read_scene(path);
  });
  return 0;
}
