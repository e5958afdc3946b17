#pragma once
// Writing output files so that a killed run never leaves a half-written file under the final
// name: the content goes to "<path>.tmp", which is renamed over <path> once complete.
#include <filesystem>
#include <functional>
#include <ostream>

namespace softsim {

// Calls write(stream) on "<path>.tmp", flushes, then renames it to `path`. Throws RunError
// naming the path if the file cannot be created, written or renamed (the .tmp is removed).
// An exception thrown by `write` also removes the .tmp and propagates unchanged.
// synced: the content reaches the disk before the rename, and the rename before the return
// (fsync of the file and its folder), so that after a power loss the file is the old one or the
// new one, whole (checkpoints); outputs that are rewritten often skip it.
void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write,
                           bool synced = false);

}  // namespace softsim
