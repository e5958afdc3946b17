#include "softsim/contact/penalty/surfaces.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <tuple>

#include "softsim/contact/distance/classification.hpp"
#include "softsim/contact/distance/point_edge.hpp"
#include "softsim/contact/distance/point_triangle.hpp"
#include "softsim/core/parallel.hpp"

namespace softsim {

namespace {

using Directed = std::tuple<int, int, int>;  // (body, from, to)

// Bodies whose boundary is closed and consistently oriented. 3D: every directed side (a, b) of a
// face appears once and its reverse (b, a) once (each edge has two faces, traversed in opposite
// directions). 2D: every vertex starts exactly one boundary edge and ends exactly one.
std::vector<char> closed_bodies(const CollisionMesh& mesh, int num_bodies) {
  std::vector<char> closed(static_cast<std::size_t>(num_bodies), 0);
  std::vector<Directed> directed;
  if (mesh.dim == 3) {
    for (int f = 0; f < mesh.num_faces(); ++f)
      for (int k = 0; k < 3; ++k) directed.emplace_back(mesh.face_body[f], mesh.faces(f, k), mesh.faces(f, (k + 1) % 3));
  } else {
    for (int e = 0; e < mesh.num_edges(); ++e) directed.emplace_back(mesh.edge_body[e], mesh.edges(e, 0), mesh.edges(e, 1));
  }
  for (const auto& [b, from, to] : directed) closed[static_cast<std::size_t>(b)] = 1;
  auto open = [&](int b) { closed[static_cast<std::size_t>(b)] = 0; };
  std::sort(directed.begin(), directed.end());
  if (mesh.dim == 3) {
    for (std::size_t i = 0; i < directed.size(); ++i) {
      const auto& [b, from, to] = directed[i];
      if ((i + 1 < directed.size() && directed[i + 1] == directed[i]) ||
          !std::binary_search(directed.begin(), directed.end(), Directed{b, to, from}))
        open(b);
    }
    return closed;
  }
  std::vector<std::pair<int, int>> starts, ends;  // (body, vertex)
  for (const auto& [b, from, to] : directed) {
    starts.emplace_back(b, from);
    ends.emplace_back(b, to);
  }
  std::sort(ends.begin(), ends.end());
  for (std::size_t i = 0; i + 1 < starts.size(); ++i)
    if (starts[i] == starts[i + 1]) open(starts[i].first);
  for (std::size_t i = 0; i + 1 < ends.size(); ++i)
    if (ends[i] == ends[i + 1]) open(ends[i].first);
  // Starts (sorted, as directed is) and ends must be the same vertices.
  std::vector<std::pair<int, int>> unmatched;
  std::set_symmetric_difference(starts.begin(), starts.end(), ends.begin(), ends.end(), std::back_inserter(unmatched));
  for (const auto& [b, v] : unmatched) open(b);
  return closed;
}

template <int D>
Eigen::Matrix<double, D, 1> at(const VertexRows& V, int id) {
  return V.row(id).transpose();
}

}  // namespace

struct PenaltySurfaces::Normals {
  VertexRows primitive;  // unit outward normal of every face (3D) or edge (2D)
  VertexRows edge;       // 3D: pseudo-normal of every face edge (sum of its faces' normals)
  VertexRows vertex;     // pseudo-normal per vertex (angle-weighted sum of faces' / sum of edges' normals)
};

PenaltySurfaces::PenaltySurfaces(const CollisionMesh& mesh, std::vector<double> radius, VertexRows initial)
    : mesh_(mesh), initial_(std::move(initial)), radius_(std::move(radius)) {
  const int num_bodies = mesh.num_bodies + mesh.num_obstacles;
  radius_.resize(static_cast<std::size_t>(num_bodies), 0.0);
  surface_ = closed_bodies(mesh, num_bodies);
  const bool has_primitives_3d = mesh.dim == 3;
  for (int b = mesh.num_bodies; b < num_bodies; ++b) {  // static mesh obstacles, open or closed
    const auto& owner = has_primitives_3d ? mesh.face_body : mesh.edge_body;
    surface_[static_cast<std::size_t>(b)] = std::find(owner.begin(), owner.end(), b) != owner.end();
  }
  if (mesh.dim != 3) return;
  // Undirected edge ids of the faces' sides (for the edge pseudo-normals).
  std::vector<std::tuple<int, int, int>> sides;  // (min, max, 3 f + k)
  for (int f = 0; f < mesh.num_faces(); ++f)
    for (int k = 0; k < 3; ++k) {
      const int a = mesh.faces(f, k), b = mesh.faces(f, (k + 1) % 3);
      sides.emplace_back(std::min(a, b), std::max(a, b), 3 * f + k);
    }
  std::sort(sides.begin(), sides.end());
  face_edges_.resize(mesh.num_faces(), 3);
  for (std::size_t i = 0; i < sides.size(); ++i) {
    const bool new_edge = i > 0 && (std::get<0>(sides[i]) != std::get<0>(sides[i - 1]) ||
                                    std::get<1>(sides[i]) != std::get<1>(sides[i - 1]));
    if (new_edge) ++num_face_edges_;
    const int slot = std::get<2>(sides[i]);
    face_edges_(slot / 3, slot % 3) = num_face_edges_;
  }
  if (!sides.empty()) ++num_face_edges_;
}

double PenaltySurfaces::initial_plane_distance(int p, int prim) const {
  PenaltyContactPoint c;
  c.stencil.kind = mesh_.dim == 3 ? StencilKind::point_triangle : StencilKind::point_edge;
  if (mesh_.dim == 3) {
    const Vec3 x[4] = {at<3>(initial_, p), at<3>(initial_, mesh_.faces(prim, 0)), at<3>(initial_, mesh_.faces(prim, 1)),
                       at<3>(initial_, mesh_.faces(prim, 2))};
    return penalty_signed_distance<double, 3>(c, x, {});
  }
  const Vec2 x[3] = {at<2>(initial_, p), at<2>(initial_, mesh_.edges(prim, 0)), at<2>(initial_, mesh_.edges(prim, 1))};
  return penalty_signed_distance<double, 2>(c, x, {});
}

PenaltySurfaces::Normals PenaltySurfaces::pseudo_normals(const VertexRows& V) const {
  Normals n;
  const int dim = mesh_.dim;
  n.vertex = VertexRows::Zero(V.rows(), dim);
  if (dim == 3) {
    n.primitive.resize(mesh_.num_faces(), 3);
    n.edge = VertexRows::Zero(num_face_edges_, 3);
    for (int f = 0; f < mesh_.num_faces(); ++f) {
      const Vec3 t[3] = {at<3>(V, mesh_.faces(f, 0)), at<3>(V, mesh_.faces(f, 1)), at<3>(V, mesh_.faces(f, 2))};
      const Vec3 nf = (t[1] - t[0]).cross(t[2] - t[0]).normalized();
      n.primitive.row(f) = nf.transpose();
      for (int k = 0; k < 3; ++k) {
        n.edge.row(face_edges_(f, k)) += nf.transpose();
        const Vec3 a = t[(k + 1) % 3] - t[k], b = t[(k + 2) % 3] - t[k];
        const double angle = std::atan2(a.cross(b).norm(), a.dot(b));
        n.vertex.row(mesh_.faces(f, k)) += angle * nf.transpose();
      }
    }
  } else {
    n.primitive.resize(mesh_.num_edges(), 2);
    for (int e = 0; e < mesh_.num_edges(); ++e) {
      const Vec2 d = at<2>(V, mesh_.edges(e, 1)) - at<2>(V, mesh_.edges(e, 0));
      const Vec2 ne = Vec2(d.y(), -d.x()).normalized();  // right of a counter-clockwise boundary
      n.primitive.row(e) = ne.transpose();
      n.vertex.row(mesh_.edges(e, 0)) += ne.transpose();
      n.vertex.row(mesh_.edges(e, 1)) += ne.transpose();
    }
  }
  return n;
}

std::vector<PenaltyContactPoint> PenaltySurfaces::find(const VertexRows& V, double delta, BroadPhaseMethod method) const {
  const int dim = mesh_.dim;
  double reach = 0.0;
  for (std::size_t b = 0; b < surface_.size(); ++b)
    if (surface_[b]) reach = std::max(reach, radius_[b]);
  if (!(reach > 0.0)) return {};
  const Candidates c = point_candidates(mesh_, V, reach, method);
  const auto& pairs = dim == 3 ? c.vertex_face : c.vertex_edge;
  const std::vector<int>& primitive_body = dim == 3 ? mesh_.face_body : mesh_.edge_body;
  const Normals normals = pseudo_normals(V);
  std::vector<std::size_t> starts;  // pairs are sorted by vertex: one group per vertex
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (i == 0 || pairs[i][0] != pairs[i - 1][0]) starts.push_back(i);
  starts.push_back(pairs.size());
  std::vector<std::vector<PenaltyContactPoint>> found(starts.size() - 1);
  parallel_for(found.size(), [&](std::size_t g) {
    const int v = pairs[starts[g]][0];
    const int p = mesh_.vertices[static_cast<std::size_t>(v)];
    const int own_body = mesh_.vertex_body[static_cast<std::size_t>(v)];
    const Eigen::VectorXd own_normal = normals.vertex.row(p).transpose().normalized();
    struct Closest {
      int body, primitive;
      double s;
    };
    std::vector<Closest> closest;  // per body
    for (std::size_t i = starts[g]; i < starts[g + 1]; ++i) {
      const int prim = pairs[i][1];
      const int body = primitive_body[static_cast<std::size_t>(prim)];
      if (!is_surface(body)) continue;
      if (body == own_body && !(own_normal.dot(normals.primitive.row(prim).transpose()) < -0.5 &&
                                initial_plane_distance(p, prim) > delta))
        continue;
      const double s =
          dim == 3 ? point_triangle_distance_squared(at<3>(V, p), at<3>(V, mesh_.faces(prim, 0)),
                                                     at<3>(V, mesh_.faces(prim, 1)), at<3>(V, mesh_.faces(prim, 2)))
                   : point_edge_distance_squared(at<2>(V, p), at<2>(V, mesh_.edges(prim, 0)),
                                                 at<2>(V, mesh_.edges(prim, 1)));
      auto it = std::find_if(closest.begin(), closest.end(), [&](const Closest& k) { return k.body == body; });
      if (it == closest.end()) closest.push_back({body, prim, s});
      else if (s < it->s) *it = {body, prim, s};
    }
    for (const Closest& k : closest) {
      const double r = radius(k.body);
      if (!(k.s < r * r)) continue;
      PenaltyContactPoint cp;
      auto set_vertex = [&](int q) {
        cp.stencil = ContactStencil::point_point(p, q);
        cp.side = (V.row(p) - V.row(q)).dot(normals.vertex.row(q)) >= 0.0 ? 1.0 : -1.0;
      };
      if (dim == 3) {
        const int t[3] = {mesh_.faces(k.primitive, 0), mesh_.faces(k.primitive, 1), mesh_.faces(k.primitive, 2)};
        using T = PointTriangleDistanceType;
        const T type = point_triangle_distance_type(at<3>(V, p), at<3>(V, t[0]), at<3>(V, t[1]), at<3>(V, t[2]));
        const int side = type == T::P_E0 ? 0 : type == T::P_E1 ? 1 : type == T::P_E2 ? 2 : -1;
        if (type == T::P_T) {
          cp.stencil = ContactStencil::point_triangle(p, t[0], t[1], t[2]);
        } else if (side >= 0) {
          cp.stencil = ContactStencil::point_edge(p, t[side], t[(side + 1) % 3]);
          const Vec3 e0 = at<3>(V, cp.stencil.ids[1]), e = at<3>(V, cp.stencil.ids[2]) - e0, w = at<3>(V, p) - e0;
          const Vec3 from_line = w - (w.dot(e) / e.squaredNorm()) * e;
          cp.side = from_line.dot(normals.edge.row(face_edges_(k.primitive, side)).transpose()) >= 0.0 ? 1.0 : -1.0;
        } else {
          set_vertex(t[type == T::P_T0 ? 0 : type == T::P_T1 ? 1 : 2]);
        }
      } else {
        const int e0 = mesh_.edges(k.primitive, 0), e1 = mesh_.edges(k.primitive, 1);
        const PointEdgeDistanceType type = point_edge_distance_type(at<2>(V, p), at<2>(V, e0), at<2>(V, e1));
        if (type == PointEdgeDistanceType::P_E) {
          cp.stencil = ContactStencil::point_edge(p, e0, e1);
        } else {
          set_vertex(type == PointEdgeDistanceType::P_E0 ? e0 : e1);
        }
      }
      if (dim == 3) {
        Vec3 x[4];
        for (int a = 0; a < cp.stencil.num_vertices; ++a) x[a] = at<3>(V, cp.stencil.ids[a]);
        cp.d = penalty_signed_distance<double, 3>(cp, x, {});
      } else {
        Vec2 x[4];
        for (int a = 0; a < cp.stencil.num_vertices; ++a) x[a] = at<2>(V, cp.stencil.ids[a]);
        cp.d = penalty_signed_distance<double, 2>(cp, x, {});
      }
      if (cp.d < delta) found[g].push_back(cp);
    }
  });
  std::vector<PenaltyContactPoint> all;
  for (auto& f : found) all.insert(all.end(), f.begin(), f.end());
  return all;
}

namespace {

// Every collision vertex with DOFs against every analytic obstacle: points with d < delta.
template <int D>
void obstacle_points(const CollisionMesh& mesh, const VertexRows& V, const std::vector<AnalyticObstacle>& obstacles,
                         double delta, std::vector<PenaltyContactPoint>& points) {
  for (std::size_t k = 0; k < obstacles.size(); ++k)
    for (int v : mesh.vertices) {
      if (mesh.is_static_vertex(v)) continue;
      const AnalyticObstacle& o = obstacles[k];
      const Eigen::Matrix<double, D, 1> p = V.row(v).transpose();
      const Eigen::Matrix<double, D, 1> pose =
          o.pose_vertex >= 0 ? Eigen::Matrix<double, D, 1>(V.row(o.pose_vertex).transpose()) : p;
      const double d = analytic_signed_distance<double, D>(o, relative_to_rest_pose<double, D>(o, p, pose));
      if (!(d < delta)) continue;
      PenaltyContactPoint c;
      c.stencil = ContactStencil::point_obstacle(v, static_cast<int>(k));
      if (o.pose_vertex >= 0) {  // the contact couples the vertex and the pose
        c.stencil.num_vertices = 2;
        c.stencil.ids[1] = o.pose_vertex;
      }
      c.d = d;
      points.push_back(c);
    }
}

}  // namespace

void add_obstacle_contact_points(const CollisionMesh& mesh, const VertexRows& V,
                                 const std::vector<AnalyticObstacle>& obstacles, double delta,
                                 std::vector<PenaltyContactPoint>& points) {
  if (mesh.dim == 3) obstacle_points<3>(mesh, V, obstacles, delta, points);
  else obstacle_points<2>(mesh, V, obstacles, delta, points);
}

}  // namespace softsim
