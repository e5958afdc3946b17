#pragma once
// Scene keys of the volume-change penalty (bodies[i].volume_penalty, seed 003 sec. 3.4) and the
// energy terms they become. kappa_v is read in 1/atm and the ideal gas's pressure in atm, as the
// paper gives them; the terms work in SI (1 atm = 101325 Pa, energies in J).
//
// Which volume: "enclosed" is the volume inside each closed piece of the body's boundary that
// faces outwards (a solid's outer surface, cavities included; a closed shell's triangles);
// "cavity" is the volume of each hole inside a solid (the inward-facing pieces, e.g. the gas
// of a hollow ball); "tets" is the volume of the body's tets, or of those whose centroid lies in
// "box". Every selected piece is its own sealed chamber: a term with its own rest volume.
#include <string>
#include <vector>

#include "softsim/model/model.hpp"
#include "softsim/scene/json_reader.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

// r: the body's "volume_penalty" value, an object or an array of objects.
std::vector<VolumePenaltySpec> read_volume_penalties(const JsonReader& r, int dim, const std::string& body_kind);

// Adds the body's volume penalty terms (call after the body's vertices and elasticity). Throws
// InputError when a region does not exist (no cavity, an open shell, a box without tets).
void add_volume_penalties(Model& model, const Body& body, const BodySpec& spec, const std::string& file);

}  // namespace softsim
