// Inputs found by fuzzing the readers (fuzz/, docs/fuzzing.md), reduced to their smallest form:
// each must give InputError naming the file and the line or byte, not undefined behaviour, a hang
// or a huge allocation.
#include <gtest/gtest.h>

#include <string>

#include "mesh/mesh_checks.hpp"
#include "softsim/io/read_mesh.hpp"

namespace softsim {
namespace {

const std::string kPlyTriangleHeader =
    "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
    "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n";

// A list entry beyond the range of long long was converted to it (undefined behaviour) before
// its range was checked.
TEST(FuzzRegression, PlyListEntryBeyondAnIndexRange) {
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh_from_memory(kPlyTriangleHeader + "3 0 1 1e30\n", "big.ply"), "big.ply:13:",
                             "list entry 1e+30 is out of the range of an index");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh_from_memory(kPlyTriangleHeader + "3 0 1 -9e18\n", "negative.ply"),
                             "negative.ply:13:", "out of the range of an index");
}

// The same in a binary file: a double list entry of 7.5e28.
TEST(FuzzRegression, PlyBinaryListEntryBeyondAnIndexRange) {
  std::string bytes =
      "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty uchar x\nproperty uchar y\n"
      "property uchar z\nelement face 1\nproperty list uchar double vertex_indices\nend_header\n";
  bytes += std::string(9, '\0');
  bytes += '\3';
  const double entries[3] = {0.0, 1.0, 7.5e28};
  bytes.append(reinterpret_cast<const char*>(entries), sizeof(entries));
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh_from_memory(bytes, "big.ply"), "big.ply: byte ", "element face",
                             "out of the range of an index");
}

// An element without properties takes no bytes, so its count is not bounded by the file size; a
// huge count used to drive an empty loop for as many iterations.
TEST(FuzzRegression, PlyElementWithoutPropertiesAndAHugeCount) {
  const std::string ply =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
      "element nothing 999999999999999999\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  const Mesh mesh = read_mesh_from_memory(ply, "empty_element.ply");
  EXPECT_EQ(mesh.num_vertices(), 3);
  EXPECT_EQ(mesh.num_cells(), 1);
}

}  // namespace
}  // namespace softsim
