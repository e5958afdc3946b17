#include "softsim/peer_scenes/scene_source.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "softsim/core/errors.hpp"
#include "softsim/peer_scenes/ipc_scene.hpp"
#include "softsim/peer_scenes/polyfem_scene.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim {

namespace {

std::string lower_extension(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// An IPC scene by content: its first word (after blank lines and comments) is an IPC command.
bool looks_like_ipc(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first[0] == '#') continue;
    return first == "shapes" || first == "energy" || first == "time" || first == "script" || first == "size";
  }
  return false;
}

}  // namespace

SceneSource read_scene_source(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file))
    throw InputError(fmt::format("{}: cannot open the scene file (no such file)", file.string()));
  SceneSource source;
  if (lower_extension(file) == ".txt" || (lower_extension(file) != ".json" && looks_like_ipc(file))) {
    source.format = SceneFormat::ipc;
    source.json = ipc_scene_to_softsim(file, source.notes);
    return source;
  }
  nlohmann::json json = read_scene_json(file);
  if (is_polyfem_scene(json)) {
    source.format = SceneFormat::polyfem;
    source.json = polyfem_scene_to_softsim(json, file, source.notes);
    return source;
  }
  source.json = std::move(json);
  return source;
}

nlohmann::json rebase_scene_paths(nlohmann::json scene, const std::filesystem::path& from,
                                  const std::filesystem::path& to) {
  const auto rebase = [&](nlohmann::json& value) {
    if (!value.is_string()) return;
    const std::filesystem::path p = value.get<std::string>();
    if (p.is_absolute()) return;
    const std::filesystem::path target = std::filesystem::weakly_canonical(std::filesystem::absolute(from / p));
    const std::filesystem::path base = std::filesystem::weakly_canonical(std::filesystem::absolute(to));
    value = target.lexically_relative(base).generic_string();
  };
  for (const char* list : {"bodies", "obstacles"}) {
    auto it = scene.find(list);
    if (it == scene.end() || !it->is_array()) continue;
    for (nlohmann::json& item : *it) {
      if (!item.is_object()) continue;
      if (auto m = item.find("mesh"); m != item.end()) rebase(*m);
      if (auto r = item.find("reduction"); r != item.end() && r->is_object())
        if (auto f = r->find("file"); f != r->end()) rebase(*f);
    }
  }
  return scene;
}

}  // namespace softsim
