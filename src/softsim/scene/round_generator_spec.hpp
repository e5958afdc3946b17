#pragma once
// Scene keys of the round generators (bodies[i].generator with type "sphere", "hollow_sphere",
// "bowl"; mesh/round_generators.hpp): radius, inner_radius, resolution (an integer), layers.
#include "softsim/mesh/mesh.hpp"
#include "softsim/scene/json_reader.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

bool is_round_generator(const std::string& type);
// Reads the keys of a round generator whose type is already in gen.type.
void read_round_generator(const JsonReader& g, GeneratorSpec& gen);
Mesh generate_round(const GeneratorSpec& gen);

}  // namespace softsim
