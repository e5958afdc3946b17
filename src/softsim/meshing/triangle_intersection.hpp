#pragma once
// Do two triangles in 3D intersect (closed sets, touching included)? For the input checks of
// meshing (surface_checks.hpp), in double precision with orientation signs computed directly, so
// a pair that touches within round-off may go either way; TetGen's exact predicates refuse what
// slips through. The test: two closed triangles intersect iff an edge of one meets the other
// (coplanar pairs included, where a triangle inside the other has its edges inside it).
#include "softsim/core/types.hpp"

namespace softsim {

struct Triangle3 {
  Vec3 a, b, c;
};

// Does the closed segment pq meet the closed triangle t?
bool segment_meets_triangle(const Vec3& p, const Vec3& q, const Triangle3& t);

// Do the closed triangles meet?
bool triangles_intersect(const Triangle3& s, const Triangle3& t);

// Two triangles sharing exactly the vertex s.a == t.a: do they meet anywhere else? (The edges
// opposite the shared vertex are tested against the other triangle; for coplanar pairs, also
// the edges from the shared vertex, which meet the other triangle beyond the vertex only if
// the two triangles overlap.)
bool triangles_sharing_a_vertex_overlap(const Triangle3& s, const Triangle3& t);

}  // namespace softsim
