#pragma once
// Any scene file softsim runs: its own JSON, the original IPC code's `.txt` scenes (Li et al.
// 2020) and PolyFEM's JSON scenes, each read into a softsim scene (docs/peer-scenes.md says what
// maps exactly, what approximately and what is refused). `softsim run`, `check` and `convert`
// read scenes through this.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "softsim/core/enum_names.hpp"

namespace softsim {

enum class SceneFormat { softsim, ipc, polyfem };
template <>
struct EnumNames<SceneFormat> {
  static constexpr std::pair<SceneFormat, const char*> table[] = {
      {SceneFormat::softsim, "softsim"}, {SceneFormat::ipc, "IPC"}, {SceneFormat::polyfem, "PolyFEM"}};
};

struct SceneSource {
  nlohmann::json json;  // a softsim scene; its mesh paths relative to the source file's folder
  SceneFormat format = SceneFormat::softsim;
  std::vector<std::string> notes;  // what the conversion ignored or approximated, one line each
};

// Reads `file` and, for an IPC or PolyFEM scene, converts it. IPC: a `.txt` file, or any file
// whose first command is `shapes`; PolyFEM: JSON with a `geometry` or `meshes` key (or a
// `common` include) and no softsim `bodies`. Throws InputError naming the file and the line or
// key of anything it cannot take.
SceneSource read_scene_source(const std::filesystem::path& file);

// The scene's mesh paths (bodies[i].mesh, obstacles[k].mesh, reduction files) rewritten from
// relative to `from` (a folder) to relative to `to`, for a converted scene written elsewhere.
nlohmann::json rebase_scene_paths(nlohmann::json scene, const std::filesystem::path& from,
                                  const std::filesystem::path& to);

}  // namespace softsim
