#include "softsim/contact/penalty/obstacle_feature_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "softsim/contact/distance/point_edge.hpp"
#include "softsim/contact/distance/point_triangle.hpp"

namespace softsim {

ObstacleFeatureRows obstacle_feature_rows(const CollisionMesh& mesh, const std::vector<AnalyticObstacle>& obstacles) {
  ObstacleFeatureRows rows;
  int next = mesh.num_total_vertices();
  const int first_row = next;
  for (const AnalyticObstacle& o : obstacles) {
    // A sphere's centre has a signed gap to a face or edge, the distance less the radius, as long
    // as the face has not passed the centre. A box's corners and edges have none that stays
    // meaningful once they are through a face (the distance grows again), so boxes stay
    // vertex-based under penalty contact: no rows.
    rows.features.push_back(o.shape == AnalyticObstacle::Shape::Sphere ? obstacle_features(o, mesh.dim)
                                                                         : ObstacleFeatures{});
    rows.first_row.push_back(next);
    next += static_cast<int>(rows.features.back().points.rows());
  }
  rows.total = next - first_row;
  rows.edge_in_face = edges_of_faces(mesh.faces, mesh.edges);
  return rows;
}

void append_feature_rows(const ObstacleFeatureRows& rows, const std::vector<AnalyticObstacle>& obstacles,
                         VertexRows& V) {
  if (rows.total == 0) return;
  const Eigen::Index base = V.rows();
  V.conservativeResize(base + rows.total, Eigen::NoChange);
  for (std::size_t k = 0; k < obstacles.size(); ++k) {
    const AnalyticObstacle& o = obstacles[k];
    const MatX& points = rows.features[k].points;
    for (Eigen::Index j = 0; j < points.rows(); ++j) {
      const Eigen::Index row = rows.first_row[k] + j;
      V.row(row) = points.row(j);
      if (o.pose_vertex >= 0)
        for (Eigen::Index c = 0; c < V.cols(); ++c) V(row, c) += V(o.pose_vertex, c) - o.point[c];
    }
  }
}

namespace {

template <int D>
using Vec = Eigen::Matrix<double, D, 1>;

template <int D>
Vec<D> row_of(const VertexRows& V, int r) {
  return V.row(r).transpose();
}

template <int D>
void feature_points(const CollisionMesh& mesh, const VertexRows& V, const std::vector<AnalyticObstacle>& obstacles,
                    const ObstacleFeatureRows& rows, double delta, std::vector<PenaltyContactPoint>& points) {
  for (std::size_t k = 0; k < obstacles.size(); ++k) {
    const AnalyticObstacle& o = obstacles[k];
    const ObstacleFeatures& f = rows.features[k];
    if (f.empty()) continue;
    Vec<D> centre;
    for (int c = 0; c < D; ++c) centre[c] = o.point[c];
    if (o.pose_vertex >= 0) centre = row_of<D>(V, o.pose_vertex);
    auto vertex_distance = [&](int v) {
      const Vec<D> p = row_of<D>(V, v);
      return analytic_signed_distance<double, D>(o, relative_to_rest_pose<double, D>(o, p, centre));
    };
    // A body primitive can have a gap below delta only if its nearest vertex, less its extent, is.
    auto may_touch = [&](const int* ids, int n) {
      double nearest = std::numeric_limits<double>::infinity(), extent = 0.0;
      for (int a = 0; a < n; ++a) {
        if (mesh.is_static_vertex(ids[a])) return false;  // static mesh obstacles never meet analytic ones
        nearest = std::min(nearest, vertex_distance(ids[a]));
        for (int b = a + 1; b < n; ++b) extent = std::max(extent, (row_of<D>(V, ids[a]) - row_of<D>(V, ids[b])).norm());
      }
      return nearest - extent < delta;
    };
    auto push = [&](const ContactStencil& stencil, double distance) {
      const double d = distance - f.separation;
      if (!(d < delta)) return;
      PenaltyContactPoint c;
      c.stencil = stencil;
      c.d = d;
      c.feature_of_obstacle = static_cast<int>(k);
      c.separation = f.separation;
      points.push_back(c);
    };
    if constexpr (D == 3) {
      for (Eigen::Index t = 0; t < mesh.faces.rows(); ++t) {
        const int ids[3] = {mesh.faces(t, 0), mesh.faces(t, 1), mesh.faces(t, 2)};
        if (!may_touch(ids, 3)) continue;
        const Vec<3> t0 = row_of<3>(V, ids[0]), t1 = row_of<3>(V, ids[1]), t2 = row_of<3>(V, ids[2]);
        for (Eigen::Index j = 0; j < f.points.rows(); ++j) {
          const int row = rows.first_row[k] + static_cast<int>(j);
          const Vec<3> p = row_of<3>(V, row);
          const double s = point_triangle_distance_squared(p, t0, t1, t2);
          push(ContactStencil::point_triangle(row, ids[0], ids[1], ids[2]), std::sqrt(s));
        }
      }
    }
    // Edges: in 2D every boundary edge, in 3D the edges of no face (rods, springs).
    for (Eigen::Index e = 0; e < mesh.edges.rows(); ++e) {
      const int ids[2] = {mesh.edges(e, 0), mesh.edges(e, 1)};
      if (rows.edge_in_face[static_cast<std::size_t>(e)]) continue;
      if (!may_touch(ids, 2)) continue;
      const Vec<D> e0 = row_of<D>(V, ids[0]), e1 = row_of<D>(V, ids[1]);
      for (Eigen::Index j = 0; j < f.points.rows(); ++j) {
        const int row = rows.first_row[k] + static_cast<int>(j);
        push(ContactStencil::point_edge(row, ids[0], ids[1]), std::sqrt(point_edge_distance_squared(row_of<D>(V, row), e0, e1)));
      }
    }
  }
}

}  // namespace

void add_obstacle_feature_points(const CollisionMesh& mesh, const VertexRows& V,
                                 const std::vector<AnalyticObstacle>& obstacles, const ObstacleFeatureRows& rows,
                                 double delta, std::vector<PenaltyContactPoint>& points) {
  if (rows.total == 0) return;
  if (mesh.dim == 3) feature_points<3>(mesh, V, obstacles, rows, delta, points);
  else feature_points<2>(mesh, V, obstacles, rows, delta, points);
}

}  // namespace softsim
