// libFuzzer target: TetGen .node + .ele through read_mesh (TetGen is read from files only). The
// input is the .node text, a NUL byte, then the .ele text (no NUL: an empty .ele file).
#include <string_view>

#include "mesh_contract.hpp"
#include "softsim/io/read_mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace softsim::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t split = input.find('\0');
  const std::string_view node = input.substr(0, split);
  const std::string_view ele = split == std::string_view::npos ? std::string_view() : input.substr(split + 1);
  write_scratch("fuzz.node", node);
  const std::filesystem::path ele_path = write_scratch("fuzz.ele", ele);
  bool readable = false;
  expect_input_error_only([&] {
    check_mesh_contract(softsim::read_mesh(ele_path, 3), 3);
    readable = true;
  });
  if (readable) expect_input_error_only([&] { check_mesh_contract(softsim::read_mesh(ele_path, 2), 2); });
  return 0;
}
