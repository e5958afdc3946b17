// The .vtu/.pvd files are well-formed XML (xmllint when available) and a minimal reader gets
// the points, connectivity, offsets, types and data arrays back.
#include "softsim/io/vtu.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "io/io_test_util.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/mesh/generators.hpp"
#include "support/text_lines.hpp"

namespace softsim {
namespace {

// Text of the first <DataArray ... Name="name" ...> (or the first DataArray after `after` when
// name is empty) as numbers.
std::vector<double> data_array(const std::string& xml, const std::string& name, const std::string& after = "") {
  size_t start = after.empty() ? 0 : xml.find(after);
  EXPECT_NE(start, std::string::npos);
  size_t tag = std::string::npos;
  for (size_t at = xml.find("<DataArray", start); at != std::string::npos; at = xml.find("<DataArray", at + 1)) {
    const std::string open = xml.substr(at, xml.find('>', at) - at);
    if (name.empty() || open.find("Name=\"" + name + "\"") != std::string::npos) {
      tag = at;
      break;
    }
  }
  EXPECT_NE(tag, std::string::npos) << "no DataArray " << name;
  if (tag == std::string::npos) return {};
  const size_t body = xml.find('>', tag) + 1;
  std::istringstream in(xml.substr(body, xml.find("</DataArray>", body) - body));
  std::vector<double> values;
  for (std::string word; in >> word;) values.push_back(std::strtod(word.c_str(), nullptr));
  return values;
}

void expect_valid_xml(const std::filesystem::path& p) {
  if (!std::filesystem::exists("/usr/bin/xmllint")) {
    std::cout << "[  NOTE    ] /usr/bin/xmllint not found: XML well-formedness not checked for " << p << "\n";
    return;
  }
  const std::string cmd = "/usr/bin/xmllint --noout '" + p.string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(WriteVtu, TetMeshWithFieldsReadsBack) {
  test::ScratchDir dir;
  const Mesh mesh = generate_box(Vec3(1, 2, 3), Eigen::Vector3i(2, 1, 1));
  Eigen::MatrixXd positions = mesh.vertices;
  positions(3, 1) = 0.1 + 0.2;  // needs 17 digits
  Eigen::MatrixXd velocity = Eigen::MatrixXd::Random(mesh.num_vertices(), 3);
  Eigen::MatrixXd stress = Eigen::MatrixXd::Random(mesh.num_cells(), 1);
  write_vtu(dir / "frame.vtu", mesh, positions, {{"velocity", velocity}}, {{"von <Mises>", stress}});
  EXPECT_FALSE(std::filesystem::exists(dir / "frame.vtu.tmp"));
  expect_valid_xml(dir / "frame.vtu");
  const std::string xml = test::file_text(dir / "frame.vtu");
  EXPECT_NE(xml.find("NumberOfPoints=\"12\" NumberOfCells=\"10\""), std::string::npos);
  const auto points = data_array(xml, "", "<Points>");
  ASSERT_EQ(points.size(), 36u);
  for (int v = 0; v < 12; ++v)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(points[3 * v + c], positions(v, c));
  const auto conn = data_array(xml, "connectivity");
  ASSERT_EQ(conn.size(), 40u);
  for (int t = 0; t < 10; ++t)
    for (int q = 0; q < 4; ++q) EXPECT_EQ(conn[4 * t + q], mesh.cells(t, q));
  const auto offsets = data_array(xml, "offsets");
  ASSERT_EQ(offsets.size(), 10u);
  EXPECT_EQ(offsets.back(), 40);
  for (double t : data_array(xml, "types")) EXPECT_EQ(t, 10);
  const auto vel = data_array(xml, "velocity");
  ASSERT_EQ(vel.size(), 36u);
  EXPECT_EQ(vel[5], velocity(1, 2));
  EXPECT_EQ(data_array(xml, "von &lt;Mises&gt;").size(), 10u);
}

TEST(WriteVtu, TwoDimensionalPositionsArePaddedAndTypesMatch) {
  test::ScratchDir dir;
  const Mesh tris = generate_rectangle(Vec2(1, 1), Eigen::Vector2i(1, 2));
  write_vtu(dir / "tri.vtu", tris, tris.vertices);
  expect_valid_xml(dir / "tri.vtu");
  const std::string xml = test::file_text(dir / "tri.vtu");
  const auto points = data_array(xml, "", "<Points>");
  ASSERT_EQ(points.size(), 3u * tris.num_vertices());
  for (int v = 0; v < tris.num_vertices(); ++v) EXPECT_EQ(points[3 * v + 2], 0.0);
  for (double t : data_array(xml, "types")) EXPECT_EQ(t, 5);
  const Mesh springs = generate_spring_grid(Vec2(1, 1), Eigen::Vector2i(1, 1));
  write_vtu(dir / "springs.vtu", springs, springs.vertices);
  for (double t : data_array(test::file_text(dir / "springs.vtu"), "types")) EXPECT_EQ(t, 3);
}

TEST(WriteVtu, RejectsMismatchedData) {
  test::ScratchDir dir;
  const Mesh mesh = generate_box(Vec3(1, 1, 1), Eigen::Vector3i(1, 1, 1));
  EXPECT_THROW(write_vtu(dir / "x.vtu", mesh, Eigen::MatrixXd::Zero(3, 3)), RunError);
  EXPECT_THROW(write_vtu(dir / "x.vtu", mesh, mesh.vertices, {{"u", Eigen::MatrixXd::Zero(2, 3)}}), RunError);
  EXPECT_THROW(write_vtu(dir / "x.vtu", mesh, mesh.vertices, {}, {{"s", Eigen::MatrixXd::Zero(2, 1)}}), RunError);
  EXPECT_FALSE(std::filesystem::exists(dir / "x.vtu"));
}

// read_vtu_points gives back exactly the positions write_vtu wrote (shortest round-trip
// floats), with point data before the points; a truncated file and a foreign one are refused
// naming the file and line.
TEST(ReadVtuPoints, ReadsBackWrittenPositionsAndRefusesBadFiles) {
  test::ScratchDir dir;
  const Mesh tris = generate_rectangle(Vec2(1, 1), Eigen::Vector2i(2, 1));
  Eigen::MatrixXd x = tris.vertices;
  x(1, 0) = 0.1 + 1e-17;
  x(2, 1) = -1.0 / 3.0;
  write_vtu(dir / "tri.vtu", tris, x, VtuFields{{"velocity", Eigen::MatrixXd::Ones(tris.num_vertices(), 2)}});
  const Eigen::MatrixXd back = read_vtu_points(dir / "tri.vtu");
  ASSERT_EQ(back.rows(), tris.num_vertices());
  EXPECT_EQ(back.leftCols(2), x);
  EXPECT_EQ(back.col(2), Eigen::VectorXd::Zero(tris.num_vertices()));
  const std::string xml = test::file_text(dir / "tri.vtu");
  std::ofstream(dir / "short.vtu") << xml.substr(0, xml.find("</Points>") - 40);
  try {
    read_vtu_points(dir / "short.vtu");
    ADD_FAILURE() << "a truncated file was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("short.vtu:"), std::string::npos) << e.what();
  }
  std::string claims_more = xml;
  claims_more.replace(claims_more.find("NumberOfPoints=\""), 17, "NumberOfPoints=\"1000000000");
  std::ofstream(dir / "claims_more.vtu") << claims_more;
  try {
    read_vtu_points(dir / "claims_more.vtu");
    ADD_FAILURE() << "a count the file cannot hold was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is more than the rest of the file can hold"), std::string::npos) << e.what();
  }
  std::ofstream(dir / "other.vtu") << "<VTKFile>\n</VTKFile>\n";
  EXPECT_THROW(read_vtu_points(dir / "other.vtu"), InputError);
  EXPECT_THROW(read_vtu_points(dir / "missing.vtu"), InputError);
}

TEST(WritePvd, ListsFramesWithTimes) {
  test::ScratchDir dir;
  write_pvd(dir / "run.pvd", {{0.0, "frames/f_0000.vtu"}, {0.1, "frames/f_0001.vtu"}});
  expect_valid_xml(dir / "run.pvd");
  const std::string xml = test::file_text(dir / "run.pvd");
  EXPECT_NE(xml.find("timestep=\"0.1\""), std::string::npos);
  EXPECT_NE(xml.find("file=\"frames/f_0001.vtu\""), std::string::npos);
  EXPECT_NE(xml.find("type=\"Collection\""), std::string::npos);
}

}  // namespace
}  // namespace softsim
