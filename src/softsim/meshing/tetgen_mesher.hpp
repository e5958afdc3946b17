#pragma once
// The call into TetGen (Si 2015), alone in its file because TetGen is AGPL and optional: without
// SOFTSIM_WITH_TETGEN the function throws InputError saying so (tetrahedralize.hpp).
#include <string>

#include "softsim/mesh/mesh.hpp"
#include "softsim/meshing/tetrahedralize.hpp"

namespace softsim::meshing_detail {

inline constexpr bool kHaveTetGen =
#ifdef SOFTSIM_HAVE_TETGEN
    true;
#else
    false;
#endif

// Tets of a checked closed surface (vertices n x 3, faces m x 3), as TetGen numbers them
// (orientation not yet normalised).
Mesh tetgen_tetrahedralize(const Mesh& surface, const TetrahedralizeOptions& options, const std::string& source);

}  // namespace softsim::meshing_detail
