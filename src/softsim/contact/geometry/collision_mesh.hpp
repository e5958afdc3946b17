#pragma once
// The collision primitives of a scene (Li & Jiang 2025, §24.1, IPC in 3D: contact pairs are point-triangle
// and edge-edge; in 2D point-edge): every body's surface vertices, edges and faces with global
// vertex ids (local id + Body::first_vertex), plus static obstacle triangle meshes whose
// vertices have no DOFs and are numbered after the model's vertices.
//   tets: boundary faces and their edges; 2D triangles: boundary edges; shells: all triangles
//   and edges; edge meshes (rods): their edges; vertices used by no cell: isolated points.
// 2D: vertices and edges only (faces has 0 rows).
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

class Model;

struct CollisionMesh {
  int dim = 3;
  int num_dof_vertices = 0;  // vertices [0, n) are the model's (they have DOFs)
  MatX obstacle_vertices;    // static vertices; global id = num_dof_vertices + row
  int num_bodies = 0;        // model bodies; obstacle k has body id num_bodies + k
  int num_obstacles = 0;

  std::vector<int> vertices;  // collision vertices (global ids), ascending
  MatXi edges;                // e x 2 global ids
  MatXi faces;                // f x 3 global ids (3D only)
  std::vector<int> vertex_body, edge_body, face_body;  // body id per primitive
  // Per model vertex: it belongs to a kinematic body (Body::kinematic); empty when none does.
  std::vector<char> kinematic_vertex;
  // Per model vertex: the model body it belongs to when that body never touches itself, -1
  // otherwise; empty when no body is marked. An affine body (Body::affine) cannot, being
  // one-to-one; a body whose scene sets `self_contact: false` is not let to
  // (mark_without_self_contact).
  std::vector<int> self_contact_free_body_of_vertex;

  int num_vertices() const { return static_cast<int>(vertices.size()); }
  int num_edges() const { return static_cast<int>(edges.rows()); }
  int num_faces() const { return static_cast<int>(faces.rows()); }
  // Rows of the position matrix the broad phase needs: model vertices then obstacle vertices.
  int num_total_vertices() const {
    return num_dof_vertices + static_cast<int>(obstacle_vertices.rows());
  }
  bool is_static_vertex(int global_id) const { return global_id >= num_dof_vertices; }
  // Static, or of a body whose whole motion is prescribed: nothing the solve decides.
  bool is_kinematic_vertex(int global_id) const {
    return is_static_vertex(global_id) ||
           (!kinematic_vertex.empty() && kinematic_vertex[static_cast<std::size_t>(global_id)] != 0);
  }

  // Appends the collision vertices that are model DOFs (not obstacle vertices): the vertices
  // a contact term on this mesh reads and writes (Energy::vertex_support).
  void append_dof_vertices(std::vector<int>& out) const {
    for (int v : vertices)
      if (!is_static_vertex(v)) out.push_back(v);
  }

  // Positions of every vertex (n_total x dim): the DOF vector x (vertex-major, size
  // num_dof_vertices * dim) followed by the obstacle vertices.
  VertexRows positions(const VecX& x) const;
  // The same into `out`, whose storage is reused (every evaluation of contact forms them).
  void positions(const VecX& x, VertexRows& out) const;

  // Pairs never reported by the broad phase: a point with a face or edge it belongs to, edges
  // sharing a vertex, pairs of two kinematic primitives (static obstacles and bodies whose
  // motion is all prescribed: nothing to decide), and pairs within one body that never touches
  // itself (self_contact_free_body_of_vertex). These are properties of whole bodies, so one
  // vertex of a primitive tells. Arguments
  // are primitive indices (vertex index into `vertices`, edge/face row).
  bool excluded_vertex_face(int v, int f) const {
    const int ids[3] = {faces(f, 0), faces(f, 1), faces(f, 2)};
    return excluded_point_simplex(vertices[v], ids, 3);
  }
  bool excluded_vertex_edge(int v, int e) const {
    const int ids[2] = {edges(e, 0), edges(e, 1)};
    return excluded_point_simplex(vertices[v], ids, 2);
  }
  bool excluded_edge_edge(int a, int b) const {
    const int ea[2] = {edges(a, 0), edges(a, 1)}, eb[2] = {edges(b, 0), edges(b, 1)};
    return excluded_edge_pair(ea, eb);
  }
  // The same rules on global vertex ids: point g against a simplex of k vertices, two edges.
  bool excluded_point_simplex(int g, const int* ids, int k) const {
    for (int i = 0; i < k; ++i)
      if (g == ids[i]) return true;
    return (is_kinematic_vertex(g) && is_kinematic_vertex(ids[0])) || same_self_contact_free_body(g, ids[0]);
  }
  bool excluded_edge_pair(const int* a, const int* b) const {
    if (a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1]) return true;
    return (is_kinematic_vertex(a[0]) && is_kinematic_vertex(b[0])) || same_self_contact_free_body(a[0], b[0]);
  }
  bool same_self_contact_free_body(int g, int h) const {
    if (self_contact_free_body_of_vertex.empty() || is_static_vertex(g) || is_static_vertex(h)) return false;
    const int body = self_contact_free_body_of_vertex[static_cast<std::size_t>(g)];
    return body >= 0 && body == self_contact_free_body_of_vertex[static_cast<std::size_t>(h)];
  }
  // No pair can ever be reported: every collision vertex belongs to one body that never touches
  // itself.
  bool only_one_self_contact_free_body() const;
};

// Every body of the model (Body::surface, extracted from Body::mesh when empty).
CollisionMesh build_collision_mesh(const Model& model);

// Marks the vertices of the model's kinematic bodies (Body::kinematic) in kinematic_vertex and
// its affine bodies (Body::affine) as bodies that never touch themselves.
void mark_kinematic_and_self_contact_free_bodies(CollisionMesh& mesh, const Model& model);

// Marks model body `body` (its vertices [first_vertex, first_vertex + num_vertices)) as a body
// that never touches itself: the broad phase reports no pair within it.
void mark_without_self_contact(CollisionMesh& mesh, int body, int first_vertex, int num_vertices);

// Explicit primitives over `num_vertices` DOF vertices, all of body 0 (tests, frame files).
// The collision vertices are those of the edges and faces plus `points`. When `edges` is empty
// and faces are given (3D), the edges are the faces' unique undirected edges.
CollisionMesh build_collision_mesh(int dim, int num_vertices, const MatXi& edges,
                                   const MatXi& faces, const std::vector<int>& points = {});

// Appends a static obstacle: 3D triangles (m x 3; its unique edges are added) or 2D edges
// (m x 2), with local ids into V (rows = vertices, dim columns). Every obstacle vertex is a
// collision vertex. Returns the obstacle's body id.
int add_obstacle(CollisionMesh& mesh, const MatX& V, const MatXi& cells);

}  // namespace softsim
