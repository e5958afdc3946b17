#pragma once
// What a triangle surface must be before it can bound a solid (tetrahedralize.hpp): no
// zero-area faces, every edge shared by exactly two faces (closed and manifold), consistently
// oriented, and not crossing itself.
#include <string>

#include "softsim/mesh/mesh.hpp"

namespace softsim {

struct SurfaceCheckReport {
  int num_components = 0;     // connected pieces (through shared edges)
  int faces_reoriented = 0;   // faces turned to agree with their neighbours (see below)
  double enclosed_volume = 0; // signed, by the divergence theorem, after reorientation
};

// Checks, in this order, and throws InputError naming `source` and the first offending element
// (with how many there are) at the first that fails: a 3D triangle mesh; zero-area faces
// (area <= 1e-12 x bbox diagonal^2, or a repeated vertex); non-manifold edges (three or more
// faces); boundary edges (one face: the surface is open); orientation; self-intersections (pairs
// of faces that meet other than along their shared vertices or edge).
//
// Orientation is repaired in place when the repair is unambiguous: in each connected piece, the
// faces that disagree with the piece's majority are turned (a one-sided piece, or one split half
// and half, is an error). The pieces keep their own orientation relative to each other: a cavity
// facing inwards is right, so which way a piece faces as a whole is never changed.
SurfaceCheckReport check_closed_surface(Mesh& surface, const std::string& source);

}  // namespace softsim
