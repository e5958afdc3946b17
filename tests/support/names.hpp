#pragma once
// The value of an enumeration named as in scene files (core/enum_names.hpp), for tests that
// loop over names; fails the test on an unknown name.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "softsim/core/enum_names.hpp"

namespace softsim::test {

template <class E>
E named(const std::string& name) {
  const auto value = value_named<E>(name);
  if (!value) throw std::invalid_argument("no value is named \"" + name + "\"");
  return *value;
}

}  // namespace softsim::test
