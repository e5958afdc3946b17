#include "softsim/io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>

#include "softsim/core/errors.hpp"

namespace softsim {

void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  std::error_code ec;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw RunError(fmt::format("{}: cannot create the file ({}).", tmp.string(), std::strerror(errno)));
    try {
      write(out);
    } catch (...) {
      out.close();
      std::filesystem::remove(tmp, ec);
      throw;
    }
    out.flush();
    if (!out) {
      out.close();
      std::filesystem::remove(tmp, ec);
      throw RunError(fmt::format("{}: writing the file failed (disk full or I/O error).", tmp.string()));
    }
    out.close();
    if (out.fail()) {
      std::filesystem::remove(tmp, ec);
      throw RunError(fmt::format("{}: closing the file failed.", tmp.string()));
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignore;
    std::filesystem::remove(tmp, ignore);
    throw RunError(fmt::format("{}: cannot rename the finished file into place ({}).", path.string(), ec.message()));
  }
}

}  // namespace softsim
