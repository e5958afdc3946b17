#include "softsim/io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fcntl.h>
#include <unistd.h>

#include <fstream>

#include "softsim/core/errors.hpp"

namespace softsim {

namespace {

// fsync of an existing file or folder; false on failure.
bool sync_path(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write,
                           bool synced) {
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
  if (synced && !sync_path(tmp)) {
    std::filesystem::remove(tmp, ec);
    throw RunError(fmt::format("{}: flushing the file to disk failed ({}).", tmp.string(), std::strerror(errno)));
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignore;
    std::filesystem::remove(tmp, ignore);
    throw RunError(fmt::format("{}: cannot rename the finished file into place ({}).", path.string(), ec.message()));
  }
  if (synced) {
    const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    sync_path(folder);  // best effort: some file systems refuse fsync on a folder
  }
}

}  // namespace softsim
