#include "softsim/mesh/round_generators.hpp"

#include <fmt/format.h>

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "softsim/core/errors.hpp"
#include "softsim/mesh/generators.hpp"
#include "softsim/mesh/surface.hpp"

namespace softsim {

namespace {

constexpr double kPi = 3.14159265358979323846;
// Solid ball: the core cube's half-size over the radius (its corners stay well inside the ball,
// at 0.69 R) and prism layers per core cell (0.35 n layers keep the worst aspect ratio below 4
// for every resolution: 3.6-3.9 for n = 2..16).
constexpr double kCoreFraction = 0.4;
int sphere_layers(int n) { return std::max(1, static_cast<int>(std::lround(0.35 * n))); }

// Unit direction of the cubed-sphere image of a point u on the cube's surface (|u|_inf = 1).
Vec3 cubed_sphere_direction(const Vec3& u) {
  const Vec3 w = (u * (kPi / 4.0)).array().tan().matrix();
  return w.normalized();
}

double signed_volume(const Eigen::MatrixXd& V, const std::array<int, 4>& t) {
  Mat3 E;
  for (int q = 0; q < 3; ++q) E.col(q) = (V.row(t[q + 1]) - V.row(t[0])).transpose();
  return E.determinant() / 6.0;
}

// The prism between triangles lo and hi (ids lo[0] < lo[1] < lo[2] < hi[0] < hi[1] < hi[2], hi[k]
// above lo[k]) as 3 tets, each quad split along the diagonal from its smallest id (staircase
// split), so that prisms sharing a quad agree; each tet positively oriented.
void add_prism(const Eigen::MatrixXd& V, const std::array<int, 3>& lo, const std::array<int, 3>& hi,
               std::vector<std::array<int, 4>>& tets) {
  const std::array<std::array<int, 4>, 3> split{{{lo[0], lo[1], lo[2], hi[2]},
                                                 {lo[0], lo[1], hi[1], hi[2]},
                                                 {lo[0], hi[0], hi[1], hi[2]}}};
  for (auto tet : split) {
    if (signed_volume(V, tet) < 0) std::swap(tet[2], tet[3]);
    tets.push_back(tet);
  }
}

Eigen::MatrixXi to_cells(const std::vector<std::array<int, 4>>& tets) {
  Eigen::MatrixXi cells(static_cast<Eigen::Index>(tets.size()), 4);
  for (std::size_t e = 0; e < tets.size(); ++e)
    for (int q = 0; q < 4; ++q) cells(static_cast<Eigen::Index>(e), q) = tets[e][q];
  return cells;
}

// The cubed-sphere surface grid: unit directions and outward triangles.
struct CubedSphere {
  std::vector<Vec3> directions;
  std::vector<std::array<int, 3>> triangles;
};

CubedSphere cubed_sphere(int n) {
  CubedSphere s;
  // Lattice points (i, j, k) in [0, n]^3 on the cube's surface, numbered in lexicographic order.
  std::vector<int> id((n + 1) * (n + 1) * (n + 1), -1);
  auto index = [n](int i, int j, int k) { return (i * (n + 1) + j) * (n + 1) + k; };
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j)
      for (int k = 0; k <= n; ++k) {
        if (i != 0 && i != n && j != 0 && j != n && k != 0 && k != n) continue;
        id[index(i, j, k)] = static_cast<int>(s.directions.size());
        const Vec3 u = Vec3(i, j, k) * (2.0 / n) - Vec3::Ones();
        s.directions.push_back(cubed_sphere_direction(u));
      }
  // Each cube face: axis d, side 0 or n; its grid spans axes a = d+1, b = d+2 (e_a x e_b = e_d).
  for (int d = 0; d < 3; ++d) {
    const int a = (d + 1) % 3, b = (d + 2) % 3;
    for (int side : {0, n})
      for (int u = 0; u < n; ++u)
        for (int v = 0; v < n; ++v) {
          auto vertex = [&](int du, int dv) {
            std::array<int, 3> c{};
            c[d] = side;
            c[a] = u + du;
            c[b] = v + dv;
            return id[index(c[0], c[1], c[2])];
          };
          // Counter-clockwise about +e_d; reversed on the side facing -e_d.
          std::array<int, 4> q{vertex(0, 0), vertex(1, 0), vertex(1, 1), vertex(0, 1)};
          if (side == 0) std::swap(q[1], q[3]);
          const double d02 = (s.directions[q[0]] - s.directions[q[2]]).norm();
          const double d13 = (s.directions[q[1]] - s.directions[q[3]]).norm();
          if (d02 <= d13) {
            s.triangles.push_back({q[0], q[1], q[2]});
            s.triangles.push_back({q[0], q[2], q[3]});
          } else {
            s.triangles.push_back({q[0], q[1], q[3]});
            s.triangles.push_back({q[1], q[2], q[3]});
          }
        }
  }
  return s;
}

void check_shell_arguments(const char* what, double inner_radius, double outer_radius, int resolution, int layers) {
  if (!(inner_radius > 0.0) || !(outer_radius > inner_radius) || resolution < 1 || layers < 1)
    throw InputError(fmt::format("{}: need 0 < inner radius < outer radius and resolution, layers >= 1 (got {:g}, "
                                 "{:g}, {}, {})",
                                 what, inner_radius, outer_radius, resolution, layers));
}

// Shell tets from the surface triangles kept by `keep` (a predicate on the three directions).
template <class Keep>
Mesh extrude_shell(const CubedSphere& s, double r, double R, int layers, Keep&& keep) {
  const int nv = static_cast<int>(s.directions.size());
  Mesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(nv) * (layers + 1), 3);
  for (int l = 0; l <= layers; ++l) {
    const double radius = r + (R - r) * l / layers;
    for (int v = 0; v < nv; ++v) mesh.vertices.row(l * nv + v) = radius * s.directions[v].transpose();
  }
  std::vector<std::array<int, 4>> tets;
  for (const auto& tri : s.triangles) {
    if (!keep(s.directions[tri[0]], s.directions[tri[1]], s.directions[tri[2]])) continue;
    std::array<int, 3> t = tri;
    std::sort(t.begin(), t.end());
    for (int l = 0; l < layers; ++l) {
      const int lo = l * nv, hi = (l + 1) * nv;
      add_prism(mesh.vertices, {lo + t[0], lo + t[1], lo + t[2]}, {hi + t[0], hi + t[1], hi + t[2]}, tets);
    }
  }
  // Drop unused vertices (the bowl), renumbering in increasing order.
  std::vector<int> new_id(mesh.vertices.rows(), -1);
  for (const auto& t : tets)
    for (int v : t) new_id[v] = 0;
  int next = 0;
  for (int& v : new_id)
    if (v == 0) v = next++;
  Eigen::MatrixXd kept(next, 3);
  for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v)
    if (new_id[v] >= 0) kept.row(new_id[v]) = mesh.vertices.row(v);
  mesh.vertices = kept;
  for (auto& t : tets)
    for (int& v : t) v = new_id[v];
  mesh.cells = to_cells(tets);
  return mesh;
}

// Solid ball: a cube core (generate_box, half-size core_fraction R) wrapped in `layers` layers of
// prisms on the core's boundary triangles, blending each boundary point p linearly from the cube
// to its cubed-sphere image R d(p). (Mapping the whole box lattice onto the ball instead leaves
// tets with all four vertices on the sphere along the cube's edges: slivers.)
Mesh solid_ball(double R, int n, double core_fraction, int layers) {
  const double a = core_fraction * R;
  const Mesh core = generate_box(Vec3::Constant(2.0 * a), Eigen::Vector3i::Constant(n));
  const Surface boundary = extract_surface(core);
  const std::vector<int>& ring = boundary.vertices;  // sorted core ids
  const int nc = core.num_vertices(), nr = static_cast<int>(ring.size());
  std::vector<int> ring_index(nc, -1);
  for (int i = 0; i < nr; ++i) ring_index[ring[i]] = i;
  Mesh mesh;
  mesh.vertices.resize(nc + static_cast<Eigen::Index>(nr) * layers, 3);
  mesh.vertices.topRows(nc) = core.vertices;
  for (int l = 1; l <= layers; ++l) {
    const double t = static_cast<double>(l) / layers;
    for (int i = 0; i < nr; ++i) {
      const Vec3 p = core.vertices.row(ring[i]).transpose();
      const Vec3 x = (1.0 - t) * p + t * R * cubed_sphere_direction(p / a);
      mesh.vertices.row(nc + (l - 1) * nr + i) = x.transpose();
    }
  }
  auto id = [&](int core_id, int l) { return l == 0 ? core_id : nc + (l - 1) * nr + ring_index[core_id]; };
  std::vector<std::array<int, 4>> tets;
  for (Eigen::Index e = 0; e < core.cells.rows(); ++e)
    tets.push_back({core.cells(e, 0), core.cells(e, 1), core.cells(e, 2), core.cells(e, 3)});
  // Within every layer the ids increase with the core ids, and each layer's ids exceed the
  // previous layer's: the staircase split below agrees between neighbouring prisms.
  for (Eigen::Index f = 0; f < boundary.faces.rows(); ++f) {
    std::array<int, 3> t{boundary.faces(f, 0), boundary.faces(f, 1), boundary.faces(f, 2)};
    std::sort(t.begin(), t.end());
    for (int l = 0; l < layers; ++l) add_prism(mesh.vertices, {id(t[0], l), id(t[1], l), id(t[2], l)},
                                               {id(t[0], l + 1), id(t[1], l + 1), id(t[2], l + 1)}, tets);
  }
  mesh.cells = to_cells(tets);
  return mesh;
}

}  // namespace

Mesh generate_sphere(double radius, int resolution) {
  if (!(radius > 0.0) || resolution < 1)
    throw InputError(fmt::format("generate_sphere: need radius > 0 and resolution >= 1 (got {:g}, {})", radius,
                                 resolution));
  return solid_ball(radius, resolution, kCoreFraction, sphere_layers(resolution));
}

Mesh generate_hollow_sphere(double inner_radius, double outer_radius, int resolution, int layers) {
  check_shell_arguments("generate_hollow_sphere", inner_radius, outer_radius, resolution, layers);
  return extrude_shell(cubed_sphere(resolution), inner_radius, outer_radius, layers,
                       [](const Vec3&, const Vec3&, const Vec3&) { return true; });
}

Mesh generate_bowl(double inner_radius, double outer_radius, int resolution, int layers) {
  check_shell_arguments("generate_bowl", inner_radius, outer_radius, resolution, layers);
  if (resolution % 2 != 0)
    throw InputError(fmt::format("generate_bowl: resolution must be even (got {})", resolution));
  const double eps = 1e-9;
  return extrude_shell(cubed_sphere(resolution), inner_radius, outer_radius, layers,
                       [eps](const Vec3& a, const Vec3& b, const Vec3& c) {
                         return a.y() <= eps && b.y() <= eps && c.y() <= eps;
                       });
}

}  // namespace softsim
