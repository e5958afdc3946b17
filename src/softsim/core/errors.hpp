#pragma once
// Two kinds of failure reach the user: bad input (exit code 2) and a failure during a run
// (exit code 1). Messages are complete sentences that name the file and the key or line.
#include <stdexcept>
#include <string>

namespace softsim {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace softsim
