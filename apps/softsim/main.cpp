// softsim: the command-line tool. Subcommands: run, check, info (see --help).
// Exit codes: 0 success, 1 a failure during a run, 2 bad input or usage, 130 interrupted.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <tbb/global_control.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "softsim/core/errors.hpp"

int main(int argc, char** argv) {
  CLI::App app{"softsim: simulation of deformable solids"};
  app.set_version_flag("--version", std::string("softsim ") + SOFTSIM_VERSION);
  app.require_subcommand(1);
  softsim::cli::Commands commands;
  commands.add_all(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    return commands.execute();
  } catch (const softsim::InputError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  } catch (const softsim::RunError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
}
