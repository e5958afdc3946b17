// softsim view and softsim plot: the browser viewer and the plots are Python programs
// (python/softsim/view.py: standard library, with three.js and dygraphs from Debian in the page;
// python/softsim/plot.py: matplotlib), run in place of this process so that their output, exit
// code and Ctrl-C are the command's own.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.hpp"
#include "softsim/core/errors.hpp"

namespace softsim::cli {

namespace {

// The tools' folder: SOFTSIM_TOOLS_DIR when set, the installed one next to this executable
// (<prefix>/share/softsim/tools), else the source tree's.
std::filesystem::path tools_dir() {
  if (const char* dir = std::getenv("SOFTSIM_TOOLS_DIR"); dir && *dir) return dir;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "softsim" / "tools";
    if (std::filesystem::exists(installed / "view.py", ec)) return installed;
  }
  return SOFTSIM_TOOLS_SOURCE_DIR;
}

}  // namespace

int python_tool_command(const std::string& tool, const std::vector<std::string>& args) {
  const std::filesystem::path script = tools_dir() / (tool + ".py");
  if (!std::filesystem::exists(script))
    throw RunError(fmt::format("softsim {}: its program {} is missing (set SOFTSIM_TOOLS_DIR to the folder of "
                               "view.py and plot.py)", tool, script.string()));
  const std::string python = SOFTSIM_TOOLS_PYTHON;
  std::vector<std::string> argv_strings{python, script.string()};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execv(python.c_str(), argv.data());
  throw RunError(fmt::format("softsim {}: cannot run {} ({}); it needs Python 3 (scripts/install-deps.sh)", tool, python,
                             std::strerror(errno)));
}

}  // namespace softsim::cli
