#pragma once
// PolyFEM's JSON scenes (the format since 2022: geometry, materials, time, contact,
// boundary_conditions, initial_conditions, solver, output) read into a softsim scene.
// docs/peer-scenes.md lists what maps exactly, approximately, and what is refused.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace softsim {

// A PolyFEM scene: an object with `geometry` (or the pre-2022 `meshes`, refused with advice) or
// a `common` include, and without softsim's `bodies`.
bool is_polyfem_scene(const nlohmann::json& json);

// The equivalent softsim scene; mesh paths relative to `file`'s folder. `notes` receives one line
// for each key that was ignored (output, solver internals) or approximated. Throws InputError
// naming the file and every key softsim cannot take.
nlohmann::json polyfem_scene_to_softsim(const nlohmann::json& json, const std::filesystem::path& file,
                                        std::vector<std::string>& notes);

}  // namespace softsim
