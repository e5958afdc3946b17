#pragma once
// The body of the fuzz targets of the readers behind read_mesh_from_memory (all but TetGen): the
// bytes as a 3D mesh, then, if readable, as a planar one (the z-column check and reduction).
#include <string>

#include "mesh_contract.hpp"
#include "softsim/io/read_mesh.hpp"

namespace softsim::fuzz {

inline void fuzz_read_mesh_from_memory(const uint8_t* data, size_t size, const std::string& name) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  bool readable = false;
  expect_input_error_only([&] {
    check_mesh_contract(read_mesh_from_memory(bytes, name, 3), 3);
    readable = true;
  });
  if (readable)
    expect_input_error_only([&] { check_mesh_contract(read_mesh_from_memory(bytes, name, 2), 2); });
}

}  // namespace softsim::fuzz
