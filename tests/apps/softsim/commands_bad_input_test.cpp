// Every file of the bad-input corpus (tests/data/bad/, listed in its README.md) must be
// rejected by `softsim check` and `softsim run` with exit code 2 and one clear line on stderr
// naming the file and the key (scene) or line (mesh) at fault, never with a crash and never
// leaving an output directory whose summary says "ok".
#include <set>

#include "apps/softsim/cli_support.hpp"

namespace softsim_cli_test {
namespace {

struct BadScene {
  const char* scene;      // file in tests/data/bad/
  const char* names;      // the file the message must name (the scene, or the mesh at fault)
  const char* fragment;   // the key path (scene) or file:line (mesh) and message the line must contain
  const char* detail;     // a second fragment the line must contain ("" for none)
};

// Keep in sync with tests/data/bad/README.md.
const BadScene kBadScenes[] = {
    {"truncated_json.json", "truncated_json.json", "malformed JSON", "at line 6, column 1"},
    {"trailing_comma.json", "trailing_comma.json", "malformed JSON", "at line 5, column 1"},
    {"number_overflow.json", "number_overflow.json", "malformed JSON: at line 2, column 16: number overflow parsing '31e308'",
     ""},
    {"deep_nesting.json", "deep_nesting.json", "malformed JSON: at line 4, column 532",
     "nested deeper than 512 levels"},
    {"invalid_utf8.json", "invalid_utf8.json", "malformed JSON: parse error at line 3, column 80",
     "ill-formed UTF-8 byte; last read: '\"b\\xFF'"},
    {"E_is_string.json", "E_is_string.json", "bodies[0].material.E: expected a number, got \"1e5\"", ""},
    {"dim_is_4.json", "dim_is_4.json", "dim: expected an integer in [2, 3], got 4", ""},
    {"dt_negative.json", "dt_negative.json", "time.dt: expected a positive number, got -0.01", ""},
    {"resolution_not_integers.json", "resolution_not_integers.json",
     "bodies[0].generator.resolution: expected an array of 3 integers", ""},
    {"end_too_many_steps.json", "end_too_many_steps.json", "time.end: 1e+06 s at dt = 1e-09 s is 1e+15 steps",
     "more than the limit"},
    {"gravity_wrong_length.json", "gravity_wrong_length.json", "gravity: expected an array of 3 numbers", ""},
    {"unknown_top_level_key.json", "unknown_top_level_key.json", "gravty: unknown key", ""},
    {"unknown_material_key.json", "unknown_material_key.json", "bodies[0].material.Young: unknown key", ""},
    {"missing_mesh_file.json", "does_not_exist.msh", "the mesh file does not exist", ""},
    {"mesh_truncated_v41.json", "truncated_v41.msh", "truncated_v41.msh:6: ", "bytes left in the file"},
    {"mesh_truncated_v22.json", "truncated_v22.msh", "unexpected end of file, expected node 3 of 4 of element 1",
     ""},
    {"mesh_garbage.json", "garbage.msh", "garbage.msh:1: ", "expected $MeshFormat"},
    {"mesh_nan_coordinate.json", "nan_coordinate.msh", "nan_coordinate.msh:8: ", "not finite"},
    {"mesh_zero_volume_tet.json", "zero_volume_tet.msh", "1 degenerate cell(s)", "the first is cell 0"},
    {"mesh_inverted_tet.json", "inverted_tet.msh", "1 inverted cell(s)", "the first is cell 0"},
    {"mesh_node_index_out_of_range.json", "node_index_out_of_range.msh", "node_index_out_of_range.msh:13: ",
     "refers to node 9"},
    {"mesh_empty.json", "empty.msh", "empty.msh:1: ", "$MeshFormat"},
    {"mesh_ply_index_1e30.json", "ply_index_1e30.ply", "ply_index_1e30.ply:13: ",
     "list entry 1e+30 is out of the range of an index"},
    {"obj_for_3d_solid.json", "triangle_surface.obj", "bodies[0]: a 3D solid needs tetrahedron cells",
     "triangle_surface.obj has triangle cells"},
    {"mesh_stl_truncated.json", "truncated_binary.stl", "announces 12 facets", "truncated"},
    {"mesh_stl_bad_keyword.json", "bad_keyword.stl", "bad_keyword.stl:6: ", "expected 'vertex', got 'vertx'"},
    {"tetrahedralize_open_surface.json", "open_cube.obj",
     "bodies[0].tetrahedralize: meshes/open_cube.obj: the surface is not closed: 3 boundary edges", ""},
    {"tetrahedralize_self_intersecting.json", "crossing_cubes.obj", "the surface intersects itself", ""},
    {"fixed_box_selects_nothing.json", "fixed_box_selects_nothing.json", "bodies[0].fixed[0].box: selects no vertex",
     ""},
    {"fixed_ids_out_of_range.json", "fixed_ids_out_of_range.json", "bodies[0].fixed[0].ids: vertex 999 is out of range",
     "has 12 vertices"},
    {"body_below_plane.json", "body_below_plane.json", "obstacles[0]: a vertex starts on or behind the plane", ""},
    {"contact_type_unknown.json", "contact_type_unknown.json", "contact.type: expected one of barrier, penalty",
     "got \"penalties\""},
    {"penalty_delta_negative.json", "penalty_delta_negative.json",
     "contact.delta: expected a positive number, got -0.001", ""},
    {"track_unknown_body.json", "track_unknown_body.json",
     "output.track: no body or moving mesh obstacle is named \"bal\"", ""},
    {"affine_partly_fixed.json", "affine_partly_fixed.json", "bodies[0].fixed[0]: selects 4 of the 12 vertices",
     "prescribed as a whole"},
    {"reduction_moving_fixed.json", "reduction_moving_fixed.json", "bodies[0]: a reduced body holds its fixed vertices",
     "cannot move them"},
    {"reduction_basis_missing.json", "no_such.basis.json", "cannot open the basis file", ""},
};

// Mesh files that are bad on their own: `softsim info` must reject them too (the others,
// inverted / zero-volume tets and a surface .obj, are readable meshes that `info` reports on).
struct BadMesh {
  const char* mesh;      // file in tests/data/bad/meshes/
  const char* fragment;  // file:line (or file:) and message fragment
};
const BadMesh kBadMeshes[] = {
    {"truncated_v41.msh", "truncated_v41.msh:6: "},
    {"truncated_v22.msh", "unexpected end of file"},
    {"garbage.msh", "garbage.msh:1: "},
    {"nan_coordinate.msh", "nan_coordinate.msh:8: "},
    {"node_index_out_of_range.msh", "node_index_out_of_range.msh:13: "},
    {"empty.msh", "empty.msh:1: "},
    {"ply_index_1e30.ply", "ply_index_1e30.ply:13: "},
    {"truncated_binary.stl", "announces 12 facets"},
    {"bad_keyword.stl", "bad_keyword.stl:6: "},
};

// The one diagnostic line: "error: ..." naming the file and containing the fragment.
void expect_one_error_line(const Result& r, const std::string& names, const std::string& fragment) {
  const auto lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << "expected exactly one line on stderr\n" << r;
  EXPECT_EQ(lines[0].rfind("error: ", 0), 0u) << r;
  EXPECT_NE(lines[0].find(names), std::string::npos) << "the message does not name " << names << "\n" << r;
  EXPECT_NE(lines[0].find(fragment), std::string::npos) << "the message lacks \"" << fragment << "\"\n" << r;
  EXPECT_EQ(r.err.back(), '\n') << r;
}

void expect_rejected(const Result& r, const BadScene& c) {
  ASSERT_TRUE(r.exited) << "softsim crashed\n" << r;
  EXPECT_EQ(r.code, 2) << r;
  expect_one_error_line(r, c.names, c.fragment);
  if (*c.detail) EXPECT_NE(r.err.find(c.detail), std::string::npos) << "the message lacks \"" << c.detail << "\"\n" << r;
  EXPECT_EQ(r.out.find(": ok"), std::string::npos) << "stdout claims success\n" << r;
  EXPECT_EQ(r.out.find("steps in"), std::string::npos) << "stdout claims success\n" << r;
}

class BadScenes : public ::testing::TestWithParam<BadScene> {};

TEST_P(BadScenes, CheckExitsWithTwoAndOneLine) {
  SOFTSIM_REQUIRE_TOOL();
  const BadScene& c = GetParam();
  TempDir tmp(std::string("check_") + c.scene);
  const Result r = run_tool({"check", (data_dir() / "bad" / c.scene).string()}, tmp.path());
  expect_rejected(r, c);
}

TEST_P(BadScenes, RunExitsWithTwoAndLeavesNoOkSummary) {
  SOFTSIM_REQUIRE_TOOL();
  const BadScene& c = GetParam();
  TempDir tmp(std::string("run_") + c.scene);
  const fs::path out = tmp.path() / "out";
  const Result r =
      run_tool({"run", (data_dir() / "bad" / c.scene).string(), "--out", out.string(), "--quiet"},
               tmp.path());
  expect_rejected(r, c);
  if (fs::exists(out / "summary.json")) {
    const std::string summary = read_text(out / "summary.json");
    EXPECT_EQ(summary.find("\"status\": \"ok\""), std::string::npos) << summary;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadScenes, ::testing::ValuesIn(kBadScenes),
                         [](const ::testing::TestParamInfo<BadScene>& info) {
                           std::string name = info.param.scene;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

class BadMeshes : public ::testing::TestWithParam<BadMesh> {};

TEST_P(BadMeshes, InfoExitsWithTwoAndOneLine) {
  SOFTSIM_REQUIRE_TOOL();
  const BadMesh& c = GetParam();
  TempDir tmp(std::string("info_") + c.mesh);
  const Result r = run_tool({"info", (data_dir() / "bad" / "meshes" / c.mesh).string()}, tmp.path());
  ASSERT_TRUE(r.exited) << "softsim crashed\n" << r;
  EXPECT_EQ(r.code, 2) << r;
  expect_one_error_line(r, c.mesh, c.fragment);
  EXPECT_EQ(r.out.find("vertices:"), std::string::npos) << "stdout reports a mesh\n" << r;
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadMeshes, ::testing::ValuesIn(kBadMeshes),
                         [](const ::testing::TestParamInfo<BadMesh>& info) {
                           std::string name = info.param.mesh;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// The tables, the README and the directory agree: a file added to the corpus without a
// table entry (or a stale entry) fails here instead of going untested.
TEST(BadCorpus, TablesCoverEveryFileAndTheReadmeListsThem) {
  const fs::path dir = data_dir() / "bad";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::set<std::string> on_disk, in_table;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename() != "README.md") on_disk.insert(e.path().filename().string());
  for (const auto& e : fs::directory_iterator(dir / "meshes"))
    if (e.is_regular_file()) on_disk.insert("meshes/" + e.path().filename().string());
  for (const BadScene& c : kBadScenes) {
    in_table.insert(c.scene);
    const std::string scene = read_text(dir / c.scene);
    // Mesh files are covered through the scene that names them.
    const auto at = scene.find("\"meshes/");
    if (at != std::string::npos) {
      const auto end = scene.find('"', at + 1);
      const std::string mesh = scene.substr(at + 1, end - at - 1);
      if (fs::exists(dir / mesh)) in_table.insert(mesh);
    }
  }
  EXPECT_EQ(on_disk, in_table);
  const std::string readme = read_text(dir / "README.md");
  for (const auto& f : on_disk) EXPECT_NE(readme.find(f), std::string::npos) << f << " is not listed in README.md";
}

}  // namespace
}  // namespace softsim_cli_test
