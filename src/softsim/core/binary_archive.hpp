#pragma once
// A flat binary record of numbers, flags, strings, vectors and matrices, read back exactly
// (doubles bit for bit, host byte order): what a checkpoint holds. Every record can be framed by
// named tags, so a reader that meets data written by other code (a checkpoint of another model,
// another version) stops with the tag it expected instead of reading garbage as numbers.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "softsim/core/types.hpp"

namespace softsim {

// Thrown by ArchiveReader on truncated, mismatched or implausible data; the caller adds the file.
class ArchiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ArchiveWriter {
 public:
  void tag(std::string_view name) { text(name); }
  void flag(bool b) { integer(b ? 1 : 0); }
  void integer(std::int64_t i) { raw(&i, sizeof i); }
  void real(double x) { raw(&x, sizeof x); }
  void text(std::string_view s);
  void vector(const VecX& v);
  void matrix(const MatX& m);
  void reals(const std::vector<double>& v);
  const std::string& bytes() const { return bytes_; }

 private:
  void raw(const void* p, std::size_t n) { bytes_.append(static_cast<const char*>(p), n); }
  std::string bytes_;
};

class ArchiveReader {
 public:
  explicit ArchiveReader(std::string_view bytes) : bytes_(bytes) {}
  // Reads a tag and throws unless it is `name`.
  void expect(std::string_view name);
  bool flag();
  std::int64_t integer();
  // An integer that must lie in [lo, hi] (counts and sizes: a corrupt one must not allocate).
  std::int64_t integer(std::int64_t lo, std::int64_t hi, std::string_view what);
  double real();
  std::string text();
  VecX vector();
  MatX matrix();
  std::vector<double> reals();
  bool at_end() const { return pos_ == bytes_.size(); }

 private:
  void raw(void* p, std::size_t n);
  // Elements of `size` bytes still unread: a count above it is corrupt data.
  std::size_t remaining(std::size_t size) const { return (bytes_.size() - pos_) / size; }
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

}  // namespace softsim
