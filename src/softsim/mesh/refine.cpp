#include "softsim/mesh/refine.hpp"

#include <Eigen/Geometry>
#include <array>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace softsim {
namespace {

// Midpoint vertex ids, one per undirected edge, created on first request; positions of the
// original vertices and of the midpoints made so far.
class Midpoints {
 public:
  explicit Midpoints(const Mesh& mesh) : mesh_(mesh) {}
  int operator()(int a, int b) {
    const std::uint64_t key = a < b ? (std::uint64_t(a) << 32) | std::uint32_t(b) : (std::uint64_t(b) << 32) | std::uint32_t(a);
    const auto [it, inserted] = ids_.try_emplace(key, mesh_.num_vertices() + static_cast<int>(added_.size()));
    if (inserted) added_.push_back(0.5 * (mesh_.vertices.row(a) + mesh_.vertices.row(b)));
    return it->second;
  }
  Eigen::RowVectorXd point(int id) const {
    return id < mesh_.num_vertices() ? Eigen::RowVectorXd(mesh_.vertices.row(id))
                                     : added_[static_cast<std::size_t>(id - mesh_.num_vertices())];
  }
  // Six times the signed volume of tet t (3D points).
  double orientation(const std::array<int, 4>& t) const {
    const Vec3 a = point(t[0]).transpose();
    return (Vec3(point(t[1]).transpose()) - a).cross(Vec3(point(t[2]).transpose()) - a).dot(Vec3(point(t[3]).transpose()) - a);
  }
  const std::vector<Eigen::RowVectorXd>& added() const { return added_; }

 private:
  const Mesh& mesh_;
  std::vector<Eigen::RowVectorXd> added_;
  std::unordered_map<std::uint64_t, int> ids_;
};

Mesh refine_once(const Mesh& mesh) {
  const CellType type = mesh.cell_type();
  if (type != CellType::Triangle && type != CellType::Tetrahedron)
    throw std::invalid_argument("uniform refinement takes triangle or tetrahedron meshes, not " + to_string(type) + " meshes");
  const int children = type == CellType::Triangle ? 4 : 8;
  if (static_cast<double>(mesh.num_cells()) * children > std::numeric_limits<int>::max() / 2)
    throw std::invalid_argument("uniform refinement: the refined mesh would have too many cells");
  Midpoints mid(mesh);
  Mesh out;
  out.cells.resize(static_cast<Eigen::Index>(mesh.num_cells()) * children, mesh.cells.cols());
  if (!mesh.cell_tags.empty()) out.cell_tags.reserve(static_cast<std::size_t>(out.cells.rows()));
  Eigen::Index row = 0;
  const auto emit = [&](int c, std::initializer_list<int> ids) {
    int k = 0;
    for (int id : ids) out.cells(row, k++) = id;
    ++row;
    if (!mesh.cell_tags.empty()) out.cell_tags.push_back(mesh.cell_tags[static_cast<std::size_t>(c)]);
  };
  for (int c = 0; c < mesh.num_cells(); ++c) {
    const auto v = [&](int i) { return mesh.cells(c, i); };
    if (type == CellType::Triangle) {
      const int m01 = mid(v(0), v(1)), m02 = mid(v(0), v(2)), m12 = mid(v(1), v(2));
      // The corners and the middle triangle, all turning the parent's way.
      emit(c, {v(0), m01, m02});
      emit(c, {m01, v(1), m12});
      emit(c, {m02, m12, v(2)});
      emit(c, {m01, m12, m02});
      continue;
    }
    const int m01 = mid(v(0), v(1)), m02 = mid(v(0), v(2)), m03 = mid(v(0), v(3)), m12 = mid(v(1), v(2)),
              m13 = mid(v(1), v(3)), m23 = mid(v(2), v(3));
    // The corner tets: scaled copies of the parent, same orientation.
    emit(c, {v(0), m01, m02, m03});
    emit(c, {m01, v(1), m12, m13});
    emit(c, {m02, m12, v(2), m23});
    emit(c, {m03, m13, m23, v(3)});
    // The octahedron: cut along its shortest diagonal (the best-shaped children); the other four
    // midpoints form a cycle around it, consecutive ones sharing a parent vertex.
    const auto length = [&](int a, int b) { return (mid.point(a) - mid.point(b)).squaredNorm(); };
    const std::array<std::array<int, 6>, 3> options = {{{m02, m13, m01, m12, m23, m03},
                                                        {m01, m23, m02, m03, m13, m12},
                                                        {m03, m12, m01, m02, m23, m13}}};
    std::size_t best = 0;
    for (std::size_t k = 1; k < 3; ++k)
      if (length(options[k][0], options[k][1]) < length(options[best][0], options[best][1])) best = k;
    const std::array<int, 6>& o = options[best];
    const double parent = mid.orientation({v(0), v(1), v(2), v(3)});
    for (int k = 0; k < 4; ++k) {
      std::array<int, 4> t = {o[0], o[1], o[2 + k], o[2 + (k + 1) % 4]};
      if ((mid.orientation(t) > 0) != (parent > 0)) std::swap(t[2], t[3]);
      emit(c, {t[0], t[1], t[2], t[3]});
    }
  }
  const std::vector<Eigen::RowVectorXd>& added = mid.added();
  out.vertices.resize(mesh.num_vertices() + static_cast<Eigen::Index>(added.size()), mesh.vertices.cols());
  out.vertices.topRows(mesh.num_vertices()) = mesh.vertices;
  for (std::size_t i = 0; i < added.size(); ++i) out.vertices.row(mesh.num_vertices() + static_cast<Eigen::Index>(i)) = added[i];
  out.notes = mesh.notes;
  return out;
}

}  // namespace

Mesh refine_uniformly(const Mesh& mesh, int levels) {
  if (levels < 0) throw std::invalid_argument("uniform refinement: levels must be >= 0");
  Mesh out = mesh;
  for (int l = 0; l < levels; ++l) out = refine_once(out);
  return out;
}

}  // namespace softsim
