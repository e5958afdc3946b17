#include "softsim/io/parse_buffer.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "softsim/core/errors.hpp"

namespace softsim::io_detail {

ParseBuffer ParseBuffer::from_file(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(fmt::format("{}: the mesh file does not exist.", path.string()));
  if (std::filesystem::is_directory(path, ec))
    throw InputError(fmt::format("{}: expected a mesh file, found a directory.", path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: the mesh file cannot be opened.", path.string()));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("{}: the mesh file cannot be read.", path.string()));
  return ParseBuffer(ss.str(), name);
}

void ParseBuffer::skip_space() {
  while (pos_ < data_.size()) {
    const char c = data_[pos_];
    if (c == '\n') ++line_;
    else if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') break;
    ++pos_;
  }
}

std::string_view ParseBuffer::token() {
  skip_space();
  token_line_ = line_;
  const size_t start = pos_;
  while (pos_ < data_.size()) {
    const char c = data_[pos_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') break;
    ++pos_;
  }
  return std::string_view(data_).substr(start, pos_ - start);
}

std::string_view ParseBuffer::require_token(std::string_view what) {
  const std::string_view t = token();
  if (t.empty()) fail_line(fmt::format("unexpected end of file, expected {}", what));
  return t;
}

std::string_view ParseBuffer::line_text() {
  skip_space();
  token_line_ = line_;
  const size_t start = pos_;
  while (pos_ < data_.size() && data_[pos_] != '\n') ++pos_;
  size_t end = pos_;
  while (end > start && (data_[end - 1] == '\r' || data_[end - 1] == ' ' || data_[end - 1] == '\t')) --end;
  return std::string_view(data_).substr(start, end - start);
}

long long ParseBuffer::read_int(std::string_view what) {
  const std::string_view t = require_token(what);
  long long value = 0;
  const char* first = t.data();
  if (!t.empty() && t[0] == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, t.data() + t.size(), value);
  if (ec != std::errc() || ptr != t.data() + t.size())
    fail_line(fmt::format("expected an integer for {}, got '{}'", what, t.substr(0, 40)));
  return value;
}

double ParseBuffer::read_double(std::string_view what) {
  const std::string_view t = require_token(what);
  double value = 0;
  const char* first = t.data();
  if (!t.empty() && t[0] == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, t.data() + t.size(), value);
  if (ec == std::errc::result_out_of_range)
    fail_line(fmt::format("{} is out of the range of a double: '{}'", what, t.substr(0, 40)));
  if (ec != std::errc() || ptr != t.data() + t.size())
    fail_line(fmt::format("expected a number for {}, got '{}'", what, t.substr(0, 40)));
  if (!std::isfinite(value)) fail_line(fmt::format("{} is not finite ('{}')", what, t.substr(0, 40)));
  return value;
}

size_t ParseBuffer::read_count(std::string_view what, size_t min_bytes_per_item) {
  const long long n = read_int(what);
  if (n < 0) fail_line(fmt::format("{} is negative ({})", what, n));
  if (min_bytes_per_item > 0 && static_cast<unsigned long long>(n) > remaining() / min_bytes_per_item)
    fail_line(fmt::format("{} is {}, more than the {} bytes left in the file can hold", what, n, remaining()));
  return static_cast<size_t>(n);
}

void ParseBuffer::skip_line_end() {
  while (pos_ < data_.size() && (data_[pos_] == ' ' || data_[pos_] == '\t' || data_[pos_] == '\r')) ++pos_;
  if (pos_ < data_.size() && data_[pos_] == '\n') {
    ++pos_;
    ++line_;
  }
}

void ParseBuffer::fail_line(const std::string& message) const {
  throw InputError(fmt::format("{}:{}: {}.", name_, token_line_, message));
}

size_t ParseBuffer::read_binary_count(std::string_view what, int bytes, size_t min_bytes_per_item) {
  unsigned long long n = 0;
  if (bytes == 8) n = read_binary<std::uint64_t>(what);
  else n = read_binary<std::uint32_t>(what);
  if (min_bytes_per_item > 0 && n > remaining() / min_bytes_per_item) {
    pos_ -= bytes;
    fail_byte(fmt::format("{} is {}, more than the {} bytes left in the file can hold", what, n, remaining()));
  }
  return static_cast<size_t>(n);
}

void ParseBuffer::skip_bytes(size_t n, std::string_view what) {
  if (remaining() < n) fail_byte("unexpected end of file while reading " + std::string(what));
  pos_ += n;
}

void ParseBuffer::fail_byte(const std::string& message) const {
  if (section_.empty()) throw InputError(fmt::format("{}: byte {}: {}.", name_, pos_, message));
  throw InputError(fmt::format("{}: byte {} (section {}): {}.", name_, pos_, section_, message));
}

void ParseBuffer::fail(const std::string& message) const {
  throw InputError(fmt::format("{}: {}.", name_, message));
}

}  // namespace softsim::io_detail
