#pragma once
// Shared by the fuzz targets: the one accepted failure (InputError) and a per-process scratch
// file for the readers that only take a path.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "softsim/core/errors.hpp"

namespace softsim::fuzz {

// A scratch directory of this process (libFuzzer's -fork/-jobs workers run side by side), removed
// at exit. The path is never destroyed, so the exit handler can still use it.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path* const dir = [] {
    auto* d = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                        ("softsim_fuzz_" + std::to_string(::getpid())));
    std::filesystem::create_directories(*d);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_dir(), ec);
    });
    return d;
  }();
  return *dir;
}

// Writes `bytes` to scratch_dir()/name (replacing it) and returns the path.
inline std::filesystem::path write_scratch(const std::string& name, std::string_view bytes) {
  const std::filesystem::path path = scratch_dir() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
  return path;
}

// Runs `read`; InputError is the documented answer to bad input, anything else escapes and is
// reported by libFuzzer as a crash.
template <class Read>
void expect_input_error_only(Read&& read) {
  try {
    read();
  } catch (const InputError&) {
  }
}

// A broken promise of a reader (a result that violates its documented contract) is a finding.
[[noreturn]] inline void contract_violated(const char* what) {
  std::fprintf(stderr, "fuzz: contract violated: %s\n", what);
  std::abort();
}

}  // namespace softsim::fuzz
