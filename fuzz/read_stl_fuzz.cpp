// libFuzzer target: STL, ASCII and binary (told apart by content), through read_mesh_from_memory.
#include "read_mesh_memory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  softsim::fuzz::fuzz_read_mesh_from_memory(data, size, "fuzz.stl");
  return 0;
}
