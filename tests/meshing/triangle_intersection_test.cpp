#include "softsim/meshing/triangle_intersection.hpp"

#include <gtest/gtest.h>

namespace softsim {
namespace {

const Triangle3 kBase{Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 2, 0)};

TEST(TriangleIntersection, CrossingTouchingAndApart) {
  // Pierces the base's interior.
  EXPECT_TRUE(triangles_intersect(kBase, {Vec3(0.5, 0.5, -1), Vec3(0.5, 0.5, 1), Vec3(3, 3, 0.5)}));
  // Passes beside it (beyond the hypotenuse).
  EXPECT_FALSE(triangles_intersect(kBase, {Vec3(1.5, 1.5, -1), Vec3(1.5, 1.5, 1), Vec3(3, 3, 0.5)}));
  // Touches with a vertex on the base's edge (closed sets meet).
  EXPECT_TRUE(triangles_intersect(kBase, {Vec3(1, 0, 0), Vec3(1, -1, 1), Vec3(2, -1, 1)}));
  // Parallel, above.
  EXPECT_FALSE(triangles_intersect(kBase, {Vec3(0, 0, 1), Vec3(2, 0, 1), Vec3(0, 2, 1)}));
}

TEST(TriangleIntersection, CoplanarOverlapContainmentAndSeparation) {
  EXPECT_TRUE(triangles_intersect(kBase, {Vec3(1, 1, 0), Vec3(3, 1, 0), Vec3(1, 3, 0)}));            // overlap
  EXPECT_TRUE(triangles_intersect(kBase, {Vec3(0.2, 0.2, 0), Vec3(0.5, 0.2, 0), Vec3(0.2, 0.5, 0)}));  // inside
  EXPECT_TRUE(triangles_intersect({Vec3(0.2, 0.2, 0), Vec3(0.5, 0.2, 0), Vec3(0.2, 0.5, 0)}, kBase));  // contains
  EXPECT_FALSE(triangles_intersect(kBase, {Vec3(2, 2, 0), Vec3(3, 2, 0), Vec3(2, 3, 0)}));            // apart
}

TEST(TriangleIntersection, TrianglesSharingAVertex) {
  // A fan around the origin: neighbours that only share the vertex do not overlap.
  EXPECT_FALSE(triangles_sharing_a_vertex_overlap(kBase, {Vec3(0, 0, 0), Vec3(-2, 0, 0), Vec3(0, -2, 0)}));
  // Bent up out of the plane: apart too.
  EXPECT_FALSE(triangles_sharing_a_vertex_overlap(kBase, {Vec3(0, 0, 0), Vec3(-1, 0, 1), Vec3(0, -1, 1)}));
  // Folded through the base: its far edge crosses the base.
  EXPECT_TRUE(triangles_sharing_a_vertex_overlap(kBase, {Vec3(0, 0, 0), Vec3(1, 0.5, 1), Vec3(0.5, 1, -1)}));
  // Coplanar and overlapping beyond the shared vertex.
  EXPECT_TRUE(triangles_sharing_a_vertex_overlap(kBase, {Vec3(0, 0, 0), Vec3(1, 0.2, 0), Vec3(0.2, 1, 0)}));
  // Coplanar on the other side.
  EXPECT_FALSE(triangles_sharing_a_vertex_overlap(kBase, {Vec3(0, 0, 0), Vec3(-1, -0.2, 0), Vec3(-0.2, -1, 0)}));
}

TEST(TriangleIntersection, SegmentAgainstTriangle) {
  EXPECT_TRUE(segment_meets_triangle(Vec3(0.5, 0.5, -1), Vec3(0.5, 0.5, 1), kBase));
  EXPECT_TRUE(segment_meets_triangle(Vec3(0.5, 0.5, 0), Vec3(0.5, 0.5, 1), kBase));  // ends on it
  EXPECT_FALSE(segment_meets_triangle(Vec3(0.5, 0.5, 0.1), Vec3(0.5, 0.5, 1), kBase));
  EXPECT_FALSE(segment_meets_triangle(Vec3(3, 3, -1), Vec3(3, 3, 1), kBase));
  EXPECT_TRUE(segment_meets_triangle(Vec3(-1, 1, 0), Vec3(1, 0.5, 0), kBase));  // coplanar, entering
}

}  // namespace
}  // namespace softsim
