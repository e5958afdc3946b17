#pragma once
// Helpers shared by the mesh tests: face multiplicities of a tet mesh and a check that a call
// throws InputError whose message contains given substrings.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "softsim/core/errors.hpp"
#include "softsim/mesh/mesh.hpp"

namespace softsim::test {

// Sorted vertex triple of every tet face -> number of tets using it.
inline std::map<std::array<int, 3>, int> face_multiplicity(const Eigen::MatrixXi& tets) {
  std::map<std::array<int, 3>, int> count;
  for (Eigen::Index t = 0; t < tets.rows(); ++t)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> f{};
      int q = 0;
      for (int a = 0; a < 4; ++a)
        if (a != skip) f[q++] = tets(t, a);
      std::sort(f.begin(), f.end());
      ++count[f];
    }
  return count;
}

template <class F>
std::string input_error_message(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected InputError, got another exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected InputError, nothing was thrown";
  return {};
}

#define SOFTSIM_EXPECT_INPUT_ERROR(statement, ...)                                                  \
  do {                                                                                             \
    const std::string softsim_msg_ = ::softsim::test::input_error_message([&] { statement; });      \
    for (const std::string& softsim_part_ : std::vector<std::string>{__VA_ARGS__})                 \
      EXPECT_NE(softsim_msg_.find(softsim_part_), std::string::npos)                               \
          << "message '" << softsim_msg_ << "' lacks '" << softsim_part_ << "'";                   \
  } while (0)

}  // namespace softsim::test
