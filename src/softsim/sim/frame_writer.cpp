#include "softsim/sim/frame_writer.hpp"

#include <fmt/format.h>

#include "softsim/contact/geometry/obstacle_outline.hpp"
#include "softsim/io/write_mesh.hpp"

namespace softsim {

FrameWriter::FrameWriter(const Model& model, std::filesystem::path frames_dir, bool vtu, bool obj,
                         const std::vector<NamedObstacle>& obstacles)
    : model_(model), dir_(std::move(frames_dir)), vtu_(vtu), obj_(obj) {
  std::filesystem::create_directories(dir_);
  if (!vtu_ || obstacles.empty()) return;
  // Planes are drawn as squares 3 times the bodies' rest extent, centred below their middle.
  const int dim = model_.dim();
  const auto X = as_rows(model_.rest_positions, dim);
  VecX lo = VecX::Constant(dim, HUGE_VAL), hi = VecX::Constant(dim, -HUGE_VAL);
  for (const Body& body : model_.bodies)
    for (int i = 0; i < body.mesh.num_vertices(); ++i) {
      lo = lo.cwiseMin(X.row(body.first_vertex + i).transpose());
      hi = hi.cwiseMax(X.row(body.first_vertex + i).transpose());
    }
  const bool any = model_.bodies.size() > 0 && (hi - lo).allFinite();
  const VecX centre = any ? VecX(0.5 * (lo + hi)) : VecX::Zero(dim);
  const double diagonal = any ? (hi - lo).norm() : 0.0;
  const double extent = diagonal > 0.0 ? 3.0 * diagonal : 1.0;
  for (const NamedObstacle& o : obstacles)
    obstacles_.push_back({o.name, obstacle_outline(o.shape, dim, centre, extent), o.shape.pose_vertex,
                          o.shape.point.head(dim)});
  std::filesystem::create_directories(dir_ / "obstacles");
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
  if (vtu_) {
    for (std::size_t k = 0; k < obstacles_.size(); ++k) {
      const Outline& o = obstacles_[k];
      VecX shift = VecX::Zero(dim), velocity = VecX::Zero(dim);
      if (o.pose_vertex >= 0) {
        shift = X.row(o.pose_vertex).transpose() - o.rest_point;
        velocity = V.row(o.pose_vertex).transpose();
      }
      const Eigen::MatrixXd points = o.mesh.vertices.rowwise() + shift.transpose();
      const Eigen::MatrixXd velocities = velocity.transpose().replicate(o.mesh.num_vertices(), 1);
      const std::string name = fmt::format("obstacles/{}_{:05d}.vtu", o.name, frame);
      write_vtu(dir_ / name, o.mesh, points, {{"velocity", velocities}});
      entries_.push_back({state.t, name, static_cast<int>(model_.bodies.size() + k)});
    }
    write_pvd(dir_ / "simulation.pvd", entries_);
  }
  if (obj_ && !faces.empty()) {
    Eigen::MatrixXi F(faces.size(), 3);
    for (std::size_t i = 0; i < faces.size(); ++i) F.row(i) = faces[i];
    write_obj(dir_ / fmt::format("surface_{:05d}.obj", frame), surface_vertices, F);
  }
}

}  // namespace softsim
