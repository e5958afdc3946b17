#include "softsim/peer_scenes/ipc_scene.hpp"

#include "softsim/core/errors.hpp"

namespace softsim {

nlohmann::json ipc_scene_to_softsim(const std::filesystem::path& file, std::vector<std::string>&) {
  throw InputError(file.string() + ": IPC scenes are not read yet");
}

}  // namespace softsim
