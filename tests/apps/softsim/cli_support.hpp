#pragma once
// Helpers for the end-to-end tests of the softsim tool: run the built binary as a child
// process (no link-time dependency on apps/), capture its streams and decode its exit status.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/temp_dir.hpp"

namespace softsim_cli_test {

namespace fs = std::filesystem;

inline fs::path tool() { return fs::path(SOFTSIM_BINARY_DIR) / "softsim"; }
inline fs::path data_dir() { return fs::path(SOFTSIM_TEST_DATA_DIR); }

// Skips the current test, visibly, when the tool has not been built.
#define SOFTSIM_REQUIRE_TOOL()                                                                       \
  do {                                                                                               \
    if (!std::filesystem::exists(::softsim_cli_test::tool()))                                        \
      GTEST_SKIP() << "softsim binary not found at " << ::softsim_cli_test::tool()                  \
                   << "; build it first (cmake --build <dir> --target softsim)";                   \
  } while (0)

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A JSON file the tool wrote; a file that does not parse fails the test, naming it.
inline nlohmann::json read_json(const fs::path& p) {
  const std::string text = read_text(p);
  try {
    return nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    ADD_FAILURE() << p << " is not valid JSON (" << e.what() << "):\n" << text;
    return nlohmann::json::object();
  }
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Result {
  bool exited = false;   // normal exit (not killed by a signal)
  int code = -1;         // exit code when exited
  int signal = 0;        // terminating signal otherwise
  std::string out, err;  // captured stdout / stderr
};

inline std::ostream& operator<<(std::ostream& os, const Result& r) {
  os << (r.exited ? "exit " + std::to_string(r.code) : "killed by signal " + std::to_string(r.signal))
     << "\n--- stdout ---\n" << r.out << "--- stderr ---\n" << r.err;
  return os;
}

using softsim::test::TempDir;

// Starts `softsim ARGS` as a child process (stdout to /dev/null, stderr to `log`), for tests
// that signal or kill it; returns its pid (wait for it with waitpid).
inline pid_t start_tool(const std::vector<std::string>& args, const fs::path& log) {
  const std::string bin = tool().string();
  std::vector<std::string> argv_storage{bin};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (FILE* f = std::freopen(log.c_str(), "w", stderr); !f) ::_exit(127);
    if (FILE* f = std::freopen("/dev/null", "w", stdout); !f) ::_exit(127);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

// What interrupt_when saw of a child softsim.
struct Interruption {
  bool ended_early = false;  // it ended before it was ready to be interrupted
  bool started = false;      // `ready` held within the start limit (SIGINT was sent then, else at the limit)
  bool stopped = false;      // it exited within the stop limit (else it was killed with SIGKILL)
  int status = 0;            // waitpid's status
};

// Waits until `ready()` holds for the running child `pid` (at most start_limit), sends it SIGINT
// and waits for it to end (at most stop_limit, then SIGKILL).
inline Interruption interrupt_when(pid_t pid, const std::function<bool()>& ready, std::chrono::seconds start_limit,
                                   std::chrono::seconds stop_limit) {
  Interruption r;
  const auto deadline = std::chrono::steady_clock::now() + start_limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (ready()) {
      r.started = true;
      break;
    }
    if (::waitpid(pid, &r.status, WNOHANG) == pid) {
      r.ended_early = true;
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGINT);
  const auto stop_deadline = std::chrono::steady_clock::now() + stop_limit;
  while (::waitpid(pid, &r.status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > stop_deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &r.status, 0);
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  r.stopped = true;
  return r;
}

// Runs `softsim ARGS` (args are shell-quoted) with streams captured into files under `scratch`.
inline Result run_tool(const std::vector<std::string>& args, const fs::path& scratch) {
  const fs::path out = scratch / "stdout.txt", err = scratch / "stderr.txt";
  std::string cmd = quote(tool().string());
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " >" + quote(out.string()) + " 2>" + quote(err.string()) + " </dev/null";
  // `exec` so that a signal killing softsim is reported as such, not as the shell's 128+N.
  const int status = std::system(("exec " + cmd).c_str());
  Result r;
  if (status != -1 && WIFEXITED(status)) {
    r.exited = true;
    r.code = WEXITSTATUS(status);
    // A shell reports a child killed by signal N as 128+N; treat those as crashes too.
    if (r.code > 128 && r.code != 130) r.exited = false, r.signal = r.code - 128;
  } else if (status != -1 && WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

}  // namespace softsim_cli_test
