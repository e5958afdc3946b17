// libFuzzer target: gmsh .msh 2.2 / 4.1, ASCII and binary (the seed corpus has both) bytes through read_mesh_from_memory.
#include "read_mesh_memory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  softsim::fuzz::fuzz_read_mesh_from_memory(data, size, "fuzz.msh");
  return 0;
}
