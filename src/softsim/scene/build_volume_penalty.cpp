#include <fmt/format.h>

#include "softsim/core/bounding_box.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/mesh/surface_components.hpp"
#include "softsim/scene/scene_sections.hpp"
#include "softsim/volume/volume_penalty.hpp"

namespace softsim {

namespace {

// The closed surfaces (local vertex ids, oriented to enclose a positive volume) of one region.
std::vector<Eigen::MatrixXi> region_surfaces(const Body& body, const VolumePenaltySpec& v, const std::string& file) {
  const Mesh& mesh = body.mesh;
  const VecX X = flatten_rows(mesh.vertices);
  const std::string where = fmt::format("{}: {}", file, v.path);
  if (v.region == VolumeRegion::tets) {
    Mesh selected;
    selected.vertices = mesh.vertices;
    std::vector<int> cells;
    for (int e = 0; e < mesh.num_cells(); ++e) {
      Vec3 centroid = Vec3::Zero();
      for (int a = 0; a < 4; ++a) centroid += mesh.vertices.row(mesh.cells(e, a)).transpose() / 4.0;
      if (!v.box || ((centroid - v.box->first).minCoeff() >= 0 && (v.box->second - centroid).minCoeff() >= 0))
        cells.push_back(e);
    }
    if (cells.empty())
      throw InputError(fmt::format("{}.box: contains the centroid of no tet of body \"{}\"", where, body.name));
    selected.cells.resize(static_cast<Eigen::Index>(cells.size()), 4);
    for (std::size_t i = 0; i < cells.size(); ++i) selected.cells.row(static_cast<Eigen::Index>(i)) = mesh.cells.row(cells[i]);
    // The boundary of a set of tets is a closed chain: its enclosed volume is their volume.
    return {extract_surface(selected).faces};
  }
  const bool shell = mesh.cell_type() == CellType::Triangle;
  std::vector<Eigen::MatrixXi> out;
  for (Eigen::MatrixXi piece : surface_components(body.surface.faces)) {
    if (!is_closed_and_oriented(piece))
      throw InputError(fmt::format("{}: a piece of body \"{}\"'s {} is not a closed, consistently oriented surface, "
                                   "so it encloses no volume",
                                   where, body.name, shell ? "triangle mesh" : "boundary"));
    const double V = enclosed_volume(piece, X, Vec3(mesh.vertices.colwise().mean().transpose()));
    const bool outward = V > 0.0;
    // A shell's orientation is the file's: a closed shell always encloses its volume.
    if (shell || (v.region == VolumeRegion::enclosed) == outward) {
      if (!outward) piece.col(1).swap(piece.col(2));
      out.push_back(piece);
    }
  }
  if (out.empty())
    throw InputError(fmt::format("{}.region: body \"{}\" has no {}", where, body.name,
                                 v.region == VolumeRegion::cavity ? "cavity (its boundary has no inward-facing closed piece)"
                                                      : "outward-facing closed boundary"));
  return out;
}

}  // namespace

void add_volume_penalties(Model& model, const Body& body, const BodySpec& spec, const std::string& file) {
  const VecX X = flatten_rows(body.mesh.vertices);
  for (const VolumePenaltySpec& v : spec.volume_penalties) {
    VolumeLaw law;
    law.model = v.model;
    law.compressibility = v.kappa_v / kAtmosphere;  // 1/atm -> 1/Pa
    law.rest_pressure = v.pressure * kAtmosphere;   // atm -> Pa
    const std::vector<Eigen::MatrixXi> pieces = region_surfaces(body, v, file);
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      const Eigen::MatrixXi& faces = pieces[k];
      Vec3 centre = Vec3::Zero();
      for (Eigen::Index f = 0; f < faces.rows(); ++f)
        for (int a = 0; a < 3; ++a) centre += body.mesh.vertices.row(faces(f, a)).transpose();
      centre /= 3.0 * static_cast<double>(faces.rows());
      law.rest_volume = enclosed_volume(faces, X, centre);
      const double scale = bounding_box_diagonal(body.mesh.vertices);
      if (!(law.rest_volume > 1e-12 * scale * scale * scale))
        throw InputError(fmt::format("{}: {}: the {} volume of body \"{}\" is {:g} m^3 at rest", file, v.path, name_of(v.region),
                                     body.name, law.rest_volume));
      const Eigen::MatrixXi global = faces.array() + body.first_vertex;
      // The centre stays at its rest position: the volume does not depend on it, only rounding does.
      auto term = std::make_unique<VolumePenalty>(global, law, centre, fmt::format("{}.{}[{}]", body.name, name_of(v.region), k));
      term->set_dense_hessian(v.exact_direct_jacobian);
      model.add_energy(std::move(term));
    }
  }
}

}  // namespace softsim
