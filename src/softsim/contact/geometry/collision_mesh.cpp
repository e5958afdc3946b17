#include "softsim/contact/geometry/collision_mesh.hpp"

#include <algorithm>
#include <stdexcept>

#include "softsim/core/errors.hpp"
#include "softsim/mesh/surface.hpp"
#include "softsim/model/model.hpp"

namespace softsim {
namespace {

void append_rows(MatXi& dst, const MatXi& src, int offset) {
  if (src.rows() == 0) return;
  const Eigen::Index r = dst.rows();
  MatXi out(r + src.rows(), src.cols());
  if (r > 0) out.topRows(r) = dst;
  out.bottomRows(src.rows()) = src.array() + offset;
  dst = std::move(out);
}

// Vertices of [0, n) referenced by no cell: isolated points (codimension-3 pieces).
std::vector<int> unreferenced(int n, const MatXi& cells) {
  std::vector<char> used(static_cast<std::size_t>(n), 0);
  for (Eigen::Index i = 0; i < cells.size(); ++i) used[static_cast<std::size_t>(cells.data()[i])] = 1;
  std::vector<int> out;
  for (int v = 0; v < n; ++v)
    if (!used[static_cast<std::size_t>(v)]) out.push_back(v);
  return out;
}

std::vector<int> sorted_union(const MatXi& a, const MatXi& b, const std::vector<int>& c) {
  std::vector<int> v(a.data(), a.data() + a.size());
  v.insert(v.end(), b.data(), b.data() + b.size());
  v.insert(v.end(), c.begin(), c.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

void append_body(CollisionMesh& cm, int body, int offset, const std::vector<int>& verts,
                 const MatXi& edges, const MatXi& faces) {
  for (int v : verts) {
    cm.vertices.push_back(v + offset);
    cm.vertex_body.push_back(body);
  }
  append_rows(cm.edges, edges, offset);
  cm.edge_body.insert(cm.edge_body.end(), static_cast<std::size_t>(edges.rows()), body);
  if (cm.dim == 3) {
    append_rows(cm.faces, faces, offset);
    cm.face_body.insert(cm.face_body.end(), static_cast<std::size_t>(faces.rows()), body);
  }
}

CollisionMesh empty_mesh(int dim, int num_vertices) {
  CollisionMesh cm;
  cm.dim = dim;
  cm.num_dof_vertices = num_vertices;
  cm.obstacle_vertices.resize(0, dim);
  cm.edges.resize(0, 2);
  cm.faces.resize(0, 3);
  return cm;
}

}  // namespace

VertexRows CollisionMesh::positions(const VecX& x) const {
  VertexRows V;
  positions(x, V);
  return V;
}

void CollisionMesh::positions(const VecX& x, VertexRows& V) const {
  if (x.size() != static_cast<Eigen::Index>(num_dof_vertices) * dim)
    throw std::invalid_argument("CollisionMesh::positions: x has the wrong size");
  V.resize(num_total_vertices(), dim);
  V.topRows(num_dof_vertices) = as_rows(x, dim);
  if (obstacle_vertices.rows() > 0) V.bottomRows(obstacle_vertices.rows()) = obstacle_vertices;
}

CollisionMesh build_collision_mesh(const Model& model) {
  CollisionMesh cm = empty_mesh(model.dim(), model.num_vertices());
  cm.num_bodies = static_cast<int>(model.bodies.size());
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    const Surface surface = (body.surface.vertices.empty() && body.mesh.num_cells() > 0)
                                ? extract_surface(body.mesh)
                                : body.surface;
    // Surface::vertices covers the surface; vertices of no cell are points of their own.
    std::vector<int> verts = surface.vertices;
    const std::vector<int> points = unreferenced(body.mesh.num_vertices(), body.mesh.cells);
    verts.insert(verts.end(), points.begin(), points.end());
    std::sort(verts.begin(), verts.end());
    verts.erase(std::unique(verts.begin(), verts.end()), verts.end());
    append_body(cm, static_cast<int>(b), body.first_vertex, verts, surface.edges,
                cm.dim == 3 ? surface.faces : MatXi(0, 3));
  }
  mark_kinematic_and_self_contact_free_bodies(cm, model);
  return cm;
}

void mark_kinematic_and_self_contact_free_bodies(CollisionMesh& mesh, const Model& model) {
  mesh.kinematic_vertex.clear();
  mesh.self_contact_free_body_of_vertex.clear();
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.kinematic) {
      if (mesh.kinematic_vertex.empty()) mesh.kinematic_vertex.assign(static_cast<std::size_t>(mesh.num_dof_vertices), 0);
      std::fill_n(mesh.kinematic_vertex.begin() + body.first_vertex, body.mesh.num_vertices(), char(1));
    }
    if (body.affine) mark_without_self_contact(mesh, static_cast<int>(b), body.first_vertex, body.mesh.num_vertices());
  }
}

void mark_without_self_contact(CollisionMesh& mesh, int body, int first_vertex, int num_vertices) {
  if (mesh.self_contact_free_body_of_vertex.empty())
    mesh.self_contact_free_body_of_vertex.assign(static_cast<std::size_t>(mesh.num_dof_vertices), -1);
  std::fill_n(mesh.self_contact_free_body_of_vertex.begin() + first_vertex, num_vertices, body);
}

bool CollisionMesh::only_one_self_contact_free_body() const {
  if (vertices.empty() || obstacle_vertices.rows() > 0 || self_contact_free_body_of_vertex.empty()) return false;
  const int body = self_contact_free_body_of_vertex[static_cast<std::size_t>(vertices.front())];
  if (body < 0) return false;
  for (int v : vertices)
    if (self_contact_free_body_of_vertex[static_cast<std::size_t>(v)] != body) return false;
  return true;
}

CollisionMesh build_collision_mesh(int dim, int num_vertices, const MatXi& edges,
                                   const MatXi& faces, const std::vector<int>& points) {
  CollisionMesh cm = empty_mesh(dim, num_vertices);
  cm.num_bodies = 1;
  const MatXi f = dim == 3 ? faces : MatXi(0, 3);
  const MatXi e = (edges.rows() == 0 && f.rows() > 0) ? unique_edges(f) : edges;
  append_body(cm, 0, 0, sorted_union(e, f, points), e.rows() ? e : MatXi(0, 2), f);
  return cm;
}

int add_obstacle(CollisionMesh& cm, const MatX& V, const MatXi& cells) {
  if (V.cols() != cm.dim) throw std::invalid_argument("add_obstacle: wrong vertex dimension");
  const int offset = cm.num_total_vertices();
  const int body = cm.num_bodies + cm.num_obstacles;
  MatX all(offset - cm.num_dof_vertices + V.rows(), cm.dim);
  if (cm.obstacle_vertices.rows() > 0) all.topRows(cm.obstacle_vertices.rows()) = cm.obstacle_vertices;
  all.bottomRows(V.rows()) = V;
  cm.obstacle_vertices = std::move(all);
  std::vector<int> verts(static_cast<std::size_t>(V.rows()));
  for (int i = 0; i < static_cast<int>(V.rows()); ++i) verts[static_cast<std::size_t>(i)] = i;
  if (cm.dim == 3 && cells.cols() == 3)
    append_body(cm, body, offset, verts, unique_edges(cells), cells);
  else
    append_body(cm, body, offset, verts, cells.cols() == 2 ? cells : unique_edges(cells),
                MatXi(0, 3));
  ++cm.num_obstacles;
  return body;
}

}  // namespace softsim
