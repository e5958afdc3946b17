#include "softsim/sim/frame_writer.hpp"

#include <fmt/format.h>

#include "softsim/io/write_mesh.hpp"

namespace softsim {

FrameWriter::FrameWriter(const Model& model, std::filesystem::path frames_dir, bool vtu, bool obj)
    : model_(model), dir_(std::move(frames_dir)), vtu_(vtu), obj_(obj) {
  std::filesystem::create_directories(dir_);
}

void FrameWriter::write(const State& state, int frame, const ModelData& data) {
  const int dim = model_.dim();
  const auto X = as_rows(state.x, dim);
  const auto V = as_rows(state.v, dim);
  // Surfaces of all bodies in one .obj (3D: boundary faces; 2D: the triangles at z = 0).
  Eigen::MatrixXd surface_vertices(model_.num_vertices(), 3);
  surface_vertices.setZero();
  surface_vertices.leftCols(dim) = X;
  std::vector<Eigen::RowVector3i> faces;
  for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
    const Body& body = model_.bodies[b];
    const int n = body.mesh.num_vertices();
    if (vtu_) {
      VtuFields point_data{{"velocity", V.middleRows(body.first_vertex, n)}};
      VtuFields cell_data;
      if (body.elasticity_term >= 0) {
        const Stage stage;
        const VecX density =
            model_.energies()[body.elasticity_term]->element_energy_density(EvalContext{stage, data}, state.x);
        if (density.size() == body.mesh.num_cells()) cell_data["energy_density"] = density;
      }
      const std::string name = model_.bodies.size() == 1 ? fmt::format("frame_{:05d}.vtu", frame)
                                                         : fmt::format("{}_{:05d}.vtu", body.name, frame);
      write_vtu(dir_ / name, body.mesh, X.middleRows(body.first_vertex, n), point_data, cell_data);
      entries_.push_back({state.t, name, static_cast<int>(b)});
    }
    const Eigen::MatrixXi& f = dim == 3 ? body.surface.faces : body.mesh.cells;
    if (f.cols() == 3)
      for (int i = 0; i < f.rows(); ++i) faces.emplace_back(f.row(i).array() + body.first_vertex);
  }
  if (vtu_) write_pvd(dir_ / "simulation.pvd", entries_);
  if (obj_ && !faces.empty()) {
    Eigen::MatrixXi F(faces.size(), 3);
    for (std::size_t i = 0; i < faces.size(); ++i) F.row(i) = faces[i];
    write_obj(dir_ / fmt::format("surface_{:05d}.obj", frame), surface_vertices, F);
  }
}

}  // namespace softsim
