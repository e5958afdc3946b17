// Malformed, truncated or nonsensical mesh files give InputError naming the file (and the line
// or byte), never a crash, a hang or a huge allocation.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "io/io_test_util.hpp"
#include "mesh/mesh_checks.hpp"
#include "support/data_dir.hpp"
#include "softsim/io/read_mesh.hpp"
#include "softsim/io/write_mesh.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/quality.hpp"

namespace softsim {
namespace {

std::filesystem::path bad(const std::string& name) { return test::project_data_dir() / "meshes/bad" / name; }

// read_mesh, then validate_mesh, as a scene loader does.
void load(const std::filesystem::path& path, int dim = 3) { validate_mesh(read_mesh(path, dim), path.filename().string()); }

TEST(BadInput, MissingAndUnknownFiles) {
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("does_not_exist.msh")), "does_not_exist.msh", "does not exist");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("unknown.vtk")), "unknown.vtk", "unknown mesh format");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("lonely.node")), "lonely.node", "lonely.ele", "missing");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("lonely.ele")), "lonely.ele", "does not exist");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("box.msh"), 4), "box.msh", "dimension");
}

TEST(BadInput, TruncatedAndGarbageMsh) {
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("truncated_ascii.msh")), "truncated_ascii.msh:5:", "number of nodes is 5");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("truncated_binary.msh")), "truncated_binary.msh: byte ", "$Elements");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("garbage.msh")), "garbage.msh");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("empty.msh")), "empty.msh:1:", "$MeshFormat");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("no_elements.msh")), "no_elements.msh", "no $Elements");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("wrong_marker.msh")), "wrong_marker.msh: byte 20", "endianness");
}

TEST(BadInput, CountsAreBoundedByTheFileSize) {
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("huge_count.msh")), "huge_count.msh:5:", "999999999999");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("huge_count_binary.msh")), "huge_count_binary.msh: byte", "$Nodes");
}

TEST(BadInput, ContentErrorsNameTheLine) {
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("nan_coordinate.msh")), "nan_coordinate.msh:8:", "not finite");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("index_out_of_range.msh")), "index_out_of_range.msh:15:", "node 9");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("short_element.msh")), "short_element.msh:14:",
                             "expected 4 node indices for a tetrahedron, got 3");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("nan.node")), "nan.node:4:", "not finite");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("out_of_range.obj")), "out_of_range.obj:4:", "vertex 4");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("not_planar.obj"), 2), "not_planar.obj", "vertex 2", "2D");
  SOFTSIM_EXPECT_INPUT_ERROR(read_mesh(bad("truncated.ply")), "truncated.ply", "face");
}

TEST(BadInput, GeometricErrorsComeFromValidation) {
  SOFTSIM_EXPECT_INPUT_ERROR(load(bad("inverted_tet.msh")), "inverted_tet.msh", "1 inverted", "cell 0");
  SOFTSIM_EXPECT_INPUT_ERROR(load(bad("zero_volume.node")), "zero_volume.node", "1 degenerate", "cell 0");
  SOFTSIM_EXPECT_INPUT_ERROR(load(bad("empty.obj")), "empty.obj", "no vertices");
}

// Every prefix of valid files and many single-byte corruptions either load or throw
// InputError: no crash, hang or other exception.
void expect_robust(const std::filesystem::path& valid) {
  std::ifstream in(valid, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  const std::string probe = "probe" + valid.extension().string();
  auto attempt = [&](const std::string& content, const std::string& what) {
    try {
      read_mesh_from_memory(content, probe);
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(probe), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": unexpected exception " << e.what();
    }
  };
  const size_t step = 1;  // every prefix
  for (size_t n = 0; n < bytes.size(); n += step) attempt(bytes.substr(0, n), "prefix " + std::to_string(n));
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string copy = bytes;
    const size_t at = rng() % copy.size();
    copy[at] = static_cast<char>(rng() % 256);
    attempt(copy, "corruption at " + std::to_string(at));
  }
}

TEST(BadInput, TruncationsAndCorruptionsNeverCrash) {
  test::ScratchDir dir;
  Mesh mesh = generate_box(Vec3(1, 1, 1), Eigen::Vector3i(2, 1, 1));
  for (int c = 0; c < mesh.num_cells(); ++c) mesh.cell_tags.push_back(1 + c % 2);
  write_msh41_ascii(dir / "a41.msh", mesh);
  write_msh22_ascii(dir / "a22.msh", mesh);
  write_msh22_binary(dir / "b22.msh", mesh);
  write_obj(dir / "s.obj", mesh.vertices, mesh.cells.leftCols(3));
  {
    std::ofstream out(dir / "t.mesh");
    out << "MeshVersionFormatted 1\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n"
           "Tetrahedra\n1\n1 2 3 4 1\nEnd\n";
  }
  for (const char* name : {"a41.msh", "a22.msh", "b22.msh", "s.obj", "t.mesh"}) {
    SCOPED_TRACE(name);
    expect_robust(dir / name);
  }
}

TEST(BadInput, SharedBinaryFilesTruncatedNeverCrash) {
  SOFTSIM_REQUIRE_SHARED_DATA();
  const auto shared = test::shared_data_dir() / "meshes";
  for (const char* name : {"polyfem-data/multi-material/msh_test/41_binary.msh",
                           "polyfem-data/multi-material/msh_test/22_binary.msh", "ipc-toolkit-tests-data/cube.ply"}) {
    SCOPED_TRACE(name);
    expect_robust(shared / name);
  }
}

}  // namespace
}  // namespace softsim
