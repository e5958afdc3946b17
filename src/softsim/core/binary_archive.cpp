#include "softsim/core/binary_archive.hpp"

#include <cstring>
#include <string>

namespace softsim {

void ArchiveWriter::text(std::string_view s) {
  integer(static_cast<std::int64_t>(s.size()));
  raw(s.data(), s.size());
}

void ArchiveWriter::vector(const VecX& v) {
  integer(v.size());
  raw(v.data(), sizeof(double) * v.size());
}

void ArchiveWriter::matrix(const MatX& m) {
  integer(m.rows());
  integer(m.cols());
  raw(m.data(), sizeof(double) * m.size());
}

void ArchiveWriter::reals(const std::vector<double>& v) {
  integer(static_cast<std::int64_t>(v.size()));
  raw(v.data(), sizeof(double) * v.size());
}

void ArchiveReader::raw(void* p, std::size_t n) {
  if (bytes_.size() - pos_ < n) throw ArchiveError("the data ends early (truncated)");
  if (n == 0) return;  // p may be null (an empty vector's data()): memcpy must not see it
  std::memcpy(p, bytes_.data() + pos_, n);
  pos_ += n;
}

void ArchiveReader::expect(std::string_view name) {
  const std::size_t at = pos_;
  std::string found;
  try {
    found = text();
  } catch (const ArchiveError&) {
    pos_ = at;
    throw ArchiveError("the data ends early (truncated) where \"" + std::string(name) + "\" was expected");
  }
  if (found != name) {
    std::string shown = found.substr(0, 40);
    for (char& c : shown)
      if (c < 32 || c > 126) c = '?';
    throw ArchiveError("expected the record \"" + std::string(name) + "\", found \"" + shown + "\"");
  }
}

bool ArchiveReader::flag() { return integer(0, 1, "flag") == 1; }

std::int64_t ArchiveReader::integer() {
  std::int64_t i = 0;
  raw(&i, sizeof i);
  return i;
}

std::int64_t ArchiveReader::integer(std::int64_t lo, std::int64_t hi, std::string_view what) {
  const std::int64_t i = integer();
  if (i < lo || i > hi)
    throw ArchiveError(std::string(what) + " " + std::to_string(i) + " is outside [" + std::to_string(lo) + ", " +
                       std::to_string(hi) + "]");
  return i;
}

double ArchiveReader::real() {
  double x = 0.0;
  raw(&x, sizeof x);
  return x;
}

std::string ArchiveReader::text() {
  const auto n = static_cast<std::size_t>(integer(0, static_cast<std::int64_t>(remaining(1)), "text length"));
  std::string s(n, '\0');
  raw(s.data(), n);
  return s;
}

VecX ArchiveReader::vector() {
  const auto n = integer(0, static_cast<std::int64_t>(remaining(sizeof(double))), "vector length");
  VecX v(n);
  raw(v.data(), sizeof(double) * n);
  return v;
}

MatX ArchiveReader::matrix() {
  const auto rows = integer(0, static_cast<std::int64_t>(remaining(1)), "matrix rows");
  const auto cols = integer(0, static_cast<std::int64_t>(remaining(1)), "matrix columns");
  if (rows > 0 && cols > static_cast<std::int64_t>(remaining(sizeof(double))) / rows)
    throw ArchiveError("a matrix of " + std::to_string(rows) + " x " + std::to_string(cols) +
                       " is larger than the data left (truncated)");
  MatX m(rows, cols);
  raw(m.data(), sizeof(double) * m.size());
  return m;
}

std::vector<double> ArchiveReader::reals() {
  const auto n = integer(0, static_cast<std::int64_t>(remaining(sizeof(double))), "list length");
  std::vector<double> v(n);
  raw(v.data(), sizeof(double) * n);
  return v;
}

}  // namespace softsim
