#pragma once
// Reads a vertex selection ({"box": [[min], [max]]} or {"ids": [...]}) from a scene object
// (parse_scene.cpp); shared with the readers of keys that select by box.
#include "softsim/scene/json_reader.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

SelectionSpec read_selection(const JsonReader& r, int dim);

}  // namespace softsim
