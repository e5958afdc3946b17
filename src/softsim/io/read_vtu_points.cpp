// Reads back the positions of a frame softsim wrote (vtu.hpp), e.g. snapshots for a POD basis.
#include <fmt/format.h>

#include <string>

#include "softsim/io/parse_buffer.hpp"
#include "softsim/io/vtu.hpp"

namespace softsim {

Eigen::MatrixXd read_vtu_points(const std::filesystem::path& path) {
  io_detail::ParseBuffer file = io_detail::ParseBuffer::from_file(path);
  const std::string count_key = "NumberOfPoints=\"";
  long long n = -1;
  for (std::string_view token = file.token();; token = file.token()) {
    if (token.empty()) file.fail_line("no <Points> section: not a .vtu unstructured grid");
    if (token.substr(0, count_key.size()) == count_key) {
      try {
        n = std::stoll(std::string(token.substr(count_key.size())));
      } catch (const std::exception&) {
        file.fail_line("a bad NumberOfPoints");
      }
      if (n < 0) file.fail_line("a bad NumberOfPoints");
    }
    if (token == "<Points>") break;
  }
  if (n < 0) file.fail_line("<Points> before any NumberOfPoints");
  bool ascii = false;
  for (;;) {
    const std::string_view token = file.require_token("the Points' <DataArray ...>");
    if (token.find("format=\"ascii\"") != std::string_view::npos) ascii = true;
    if (token.find("NumberOfComponents=") != std::string_view::npos && token.find("\"3\"") == std::string_view::npos)
      file.fail_line("expected 3 components per point");
    if (!token.empty() && token.back() == '>') break;
  }
  if (!ascii) file.fail_line("only ASCII points are read (as softsim writes them)");
  // Each coordinate takes at least two bytes ("0 "): a larger count is a claim the file cannot hold.
  if (static_cast<unsigned long long>(n) > file.remaining() / 6)
    file.fail_line(fmt::format("NumberOfPoints {} is more than the rest of the file can hold", n));
  Eigen::MatrixXd points(n, 3);
  for (long long i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) points(i, c) = file.read_double("a point coordinate");
  return points;
}

}  // namespace softsim
