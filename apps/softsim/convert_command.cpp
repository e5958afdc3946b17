#include <fmt/format.h>

#include <filesystem>

#include "commands.hpp"
#include "softsim/core/errors.hpp"
#include "softsim/io/atomic_file.hpp"
#include "softsim/peer_scenes/scene_source.hpp"
#include "softsim/scene/scene.hpp"

namespace softsim::cli {

// Writes the softsim scene an IPC or PolyFEM scene converts to, with its mesh paths relative to
// the written file, after checking that it loads: what `softsim run IN` would run, to read and edit.
int convert_command(const std::string& in, const std::string& out) {
  const SceneSource source = read_scene_source(in);
  const std::filesystem::path out_path(out);
  std::filesystem::path out_folder = out_path.parent_path();
  if (out_folder.empty()) out_folder = ".";
  if (!std::filesystem::is_directory(out_folder))
    throw InputError(fmt::format("{}: --out: the folder {} does not exist", out, out_folder.string()));
  std::filesystem::path in_folder = std::filesystem::path(in).parent_path();
  if (in_folder.empty()) in_folder = ".";
  const nlohmann::json scene = rebase_scene_paths(source.json, in_folder, out_folder);
  build_model(parse_scene(scene, out_path));  // the written scene loads, or nothing is written
  write_file_atomically(out_path, [&](std::ostream& stream) { stream << scene.dump(2) << '\n'; });
  for (const std::string& note : source.notes) fmt::print("note: {}\n", note);
  fmt::print("{}: wrote the softsim scene of the {} scene {}\n", out, name_of(source.format), in);
  return 0;
}

}  // namespace softsim::cli
