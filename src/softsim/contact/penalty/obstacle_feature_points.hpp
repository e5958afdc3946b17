#pragma once
// Penalty contact points between a sphere obstacle's centre and the bodies' faces (3D), boundary
// edges (2D) and edges of no face (3D rods and springs), so that faces do not pass through the
// sphere between their vertices: the gap is the distance from the centre to the face or edge
// less the radius (contact/geometry/obstacle_features.hpp), negative when the face has entered
// the sphere. A box's corners and edges have no such gap (the distance between a corner and a
// face grows again once the corner is through): under penalty contact boxes stay vertex-based.
#include <vector>

#include "softsim/contact/geometry/collision_mesh.hpp"
#include "softsim/contact/geometry/obstacle_features.hpp"
#include "softsim/contact/penalty/contact_point.hpp"

namespace softsim {

// The obstacles' feature points (spheres' centres), rows appended after the collision mesh's
// positions: obstacle k's first is first_row[k] (none for other shapes); a moving obstacle's are
// moved with its pose vertex. edge_in_face: per collision-mesh edge, whether it is a face's side.
struct ObstacleFeatureRows {
  std::vector<ObstacleFeatures> features;  // per obstacle
  std::vector<int> first_row;
  int total = 0;
  std::vector<char> edge_in_face;
};
ObstacleFeatureRows obstacle_feature_rows(const CollisionMesh& mesh, const std::vector<AnalyticObstacle>& obstacles);
// V (rows: the collision mesh's positions) with the feature rows appended, at the poses in V.
void append_feature_rows(const ObstacleFeatureRows& rows, const std::vector<AnalyticObstacle>& obstacles,
                         VertexRows& V);

// The feature points with gap d < delta at V (with the feature rows), appended to `points`.
void add_obstacle_feature_points(const CollisionMesh& mesh, const VertexRows& V,
                                 const std::vector<AnalyticObstacle>& obstacles, const ObstacleFeatureRows& rows,
                                 double delta, std::vector<PenaltyContactPoint>& points);

}  // namespace softsim
