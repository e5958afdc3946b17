#pragma once
// The original IPC code's `.txt` scenes (Li et al. 2020; ipc-sim/IPC) read into a softsim scene:
// one command per line, `shapes input N` followed by N shape lines. docs/peer-scenes.md lists
// what maps exactly, approximately, and what is refused.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace softsim {

// The equivalent softsim scene; mesh paths relative to `file`'s folder (IPC's own paths are
// relative to the IPC code's root: they are looked up from the scene's folder upwards). `notes`
// receives one line per ignored (viewer-only) or approximated command. Throws InputError naming
// the file and line of a command softsim does not take.
nlohmann::json ipc_scene_to_softsim(const std::filesystem::path& file, std::vector<std::string>& notes);

}  // namespace softsim
