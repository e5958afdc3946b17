#pragma once
// A whole input file in memory with a read position, for the mesh readers: whitespace
// separated tokens with line numbers (ASCII) and bounds-checked little/big-endian values with
// byte offsets (binary). Every failure throws InputError naming the file and the line, or the
// byte offset and section.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>

namespace softsim::io_detail {

class ParseBuffer {
 public:
  ParseBuffer(std::string data, std::string name) : data_(std::move(data)), name_(std::move(name)) {}

  // Reads a file into memory; InputError if it is missing or unreadable.
  static ParseBuffer from_file(const std::filesystem::path& path);

  const std::string& name() const { return name_; }
  size_t size() const { return data_.size(); }
  size_t offset() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  int line() const { return line_; }  // line of the most recent token (1-based)
  bool at_end() { skip_space(); return pos_ >= data_.size(); }

  // ---- text ----
  // Next whitespace-separated token; empty at the end of the file.
  std::string_view token();
  // Next token, failing with "<file>:<line>: unexpected end of file, expected <what>".
  std::string_view require_token(std::string_view what);
  // Rest of the current line after skipping leading blank lines (without '\r' / '\n').
  std::string_view line_text();
  long long read_int(std::string_view what);
  double read_double(std::string_view what);  // rejects non-finite values
  // A count, bounded by the bytes left in the file (each item needs >= min_bytes_per_item).
  size_t read_count(std::string_view what, size_t min_bytes_per_item);
  // Skips exactly one newline (after a header line that precedes binary data).
  void skip_line_end();
  [[noreturn]] void fail_line(const std::string& message) const;

  // ---- binary ----
  void set_swap_bytes(bool swap) { swap_ = swap; }
  void set_section(std::string section) { section_ = std::move(section); }
  template <class T>
  T read_binary(std::string_view what) {
    static_assert(std::is_arithmetic_v<T>);
    if (remaining() < sizeof(T)) fail_byte("unexpected end of file while reading " + std::string(what));
    T value;
    if (swap_) {
      char bytes[sizeof(T)];
      for (size_t i = 0; i < sizeof(T); ++i) bytes[i] = data_[pos_ + sizeof(T) - 1 - i];
      std::memcpy(&value, bytes, sizeof(T));
    } else {
      std::memcpy(&value, data_.data() + pos_, sizeof(T));
    }
    pos_ += sizeof(T);
    return value;
  }
  // Binary count of `bytes` (4 or 8) bytes, bounded by the bytes left in the file.
  size_t read_binary_count(std::string_view what, int bytes, size_t min_bytes_per_item);
  void skip_bytes(size_t n, std::string_view what);
  [[noreturn]] void fail_byte(const std::string& message) const;
  [[noreturn]] void fail(const std::string& message) const;  // "<file>: message"

  const std::string& data() const { return data_; }
  void seek(size_t pos) { pos_ = pos; }
  // Moves forward to `pos`, counting the lines passed.
  void skip_to(size_t pos) {
    for (; pos_ < pos && pos_ < data_.size(); ++pos_)
      if (data_[pos_] == '\n') ++line_;
  }

 private:
  void skip_space();
  std::string data_;
  std::string name_;
  std::string section_;
  size_t pos_ = 0;
  int line_ = 1;         // line at pos_
  int token_line_ = 1;   // line of the most recent token
  bool swap_ = false;

 public:
  int token_line() const { return token_line_; }
};

}  // namespace softsim::io_detail
