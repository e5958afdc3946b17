#pragma once
// Round tetrahedral meshes centred at the origin, built on the equiangular cubed sphere (each
// face of the cube [-1, 1]^3 mapped to the sphere by u -> tan(pi u / 4), then normalised), so
// the surface cells are nearly uniform and there is no pole. Every tet is positively oriented,
// the meshes are conforming and their boundary surfaces are closed.
#include "softsim/mesh/mesh.hpp"

namespace softsim {

// Solid ball: a cube core (generate_box, half-size 0.4 R, resolution cells per axis, 5 tets per
// cell) wrapped in max(1, round(0.35 resolution)) layers of prisms standing on the core's
// boundary triangles, each boundary point p blended linearly from the cube to its cubed-sphere
// image; every prism is split into 3 tets as below. 5 n^3 + 36 n^2 layers tets.
Mesh generate_sphere(double radius, int resolution);

// Spherical shell inner_radius <= |x| <= outer_radius: the cubed-sphere surface (resolution
// cells along each cube-face edge, 12 resolution^2 triangles, each quad split along its shorter
// diagonal) extruded radially into `layers` equal layers. Every prism is split into 3 tets by
// the global vertex order (each quad's diagonal runs from its smallest vertex id), which makes
// neighbouring prisms agree: 36 resolution^2 layers tets.
Mesh generate_hollow_sphere(double inner_radius, double outer_radius, int resolution, int layers);

// The half y <= 0 of that shell: a hemispherical bowl open towards +y, its rim in the plane
// y = 0 (resolution must be even, so that the equator is a row of the grid).
Mesh generate_bowl(double inner_radius, double outer_radius, int resolution, int layers);

}  // namespace softsim
