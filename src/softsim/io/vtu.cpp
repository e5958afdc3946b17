#include "softsim/io/vtu.hpp"

#include <fmt/format.h>
#include <ostream>

#include "softsim/core/errors.hpp"
#include "softsim/io/atomic_file.hpp"

namespace softsim {

namespace {

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

void write_fields(std::ostream& out, const char* tag, const VtuFields& fields) {
  if (fields.empty()) return;
  out << "      <" << tag << ">\n";
  for (const auto& [name, data] : fields) {
    out << fmt::format("        <DataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"{}\" format=\"ascii\">\n",
                       xml_escape(name), data.cols());
    for (Eigen::Index r = 0; r < data.rows(); ++r) {
      out << "         ";
      for (Eigen::Index c = 0; c < data.cols(); ++c) out << ' ' << fmt::format("{}", data(r, c));
      out << '\n';
    }
    out << "        </DataArray>\n";
  }
  out << "      </" << tag << ">\n";
}

}  // namespace

void write_vtu(const std::filesystem::path& path, const Mesh& mesh, const Eigen::MatrixXd& positions,
               const VtuFields& point_data, const VtuFields& cell_data) {
  const std::string name = path.string();
  if (positions.rows() != mesh.num_vertices() || positions.cols() < 1 || positions.cols() > 3)
    throw RunError(fmt::format("{}: positions are {} x {} for a mesh of {} vertices.", name, positions.rows(),
                               positions.cols(), mesh.num_vertices()));
  int vtk_type = 0;
  switch (mesh.cells.cols()) {
    case 1: vtk_type = 1; break;  // a point cloud: one vertex per cell
    case 2: vtk_type = 3; break;
    case 3: vtk_type = 5; break;
    case 4: vtk_type = 10; break;
    default: throw RunError(fmt::format("{}: cannot write cells with {} vertices.", name, mesh.cells.cols()));
  }
  for (const auto& [field, data] : point_data)
    if (data.rows() != mesh.num_vertices())
      throw RunError(fmt::format("{}: point field '{}' has {} rows for {} vertices.", name, field, data.rows(), mesh.num_vertices()));
  for (const auto& [field, data] : cell_data)
    if (data.rows() != mesh.num_cells())
      throw RunError(fmt::format("{}: cell field '{}' has {} rows for {} cells.", name, field, data.rows(), mesh.num_cells()));
  write_file_atomically(path, [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
           "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
           "  <UnstructuredGrid>\n";
    out << fmt::format("    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n", mesh.num_vertices(), mesh.num_cells());
    write_fields(out, "PointData", point_data);
    write_fields(out, "CellData", cell_data);
    out << "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    for (Eigen::Index v = 0; v < positions.rows(); ++v) {
      out << "         ";
      for (int c = 0; c < 3; ++c) out << ' ' << fmt::format("{}", c < positions.cols() ? positions(v, c) : 0.0);
      out << '\n';
    }
    out << "        </DataArray>\n      </Points>\n      <Cells>\n"
           "        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n";
    for (int c = 0; c < mesh.num_cells(); ++c) {
      out << "         ";
      for (int q = 0; q < mesh.cells.cols(); ++q) out << ' ' << mesh.cells(c, q);
      out << '\n';
    }
    out << "        </DataArray>\n        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n";
    for (int c = 0; c < mesh.num_cells(); ++c) out << "          " << (c + 1) * mesh.cells.cols() << '\n';
    out << "        </DataArray>\n        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
    for (int c = 0; c < mesh.num_cells(); ++c) out << "          " << vtk_type << '\n';
    out << "        </DataArray>\n      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
  });
}

void write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries) {
  write_file_atomically(path, [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
           "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
           "  <Collection>\n";
    for (const PvdEntry& e : entries)
      out << fmt::format("    <DataSet timestep=\"{}\" group=\"\" part=\"{}\" file=\"{}\"/>\n", e.time, e.part,
                         xml_escape(e.file));
    out << "  </Collection>\n</VTKFile>\n";
  });
}

}  // namespace softsim
