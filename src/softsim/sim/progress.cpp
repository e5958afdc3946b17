#include "softsim/sim/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace softsim {

Progress::Progress(int total_steps, double dt, bool quiet)
    : total_(total_steps), dt_(dt), quiet_(quiet), tty_(isatty(fileno(stderr)) != 0) {
  start_ = last_ = std::chrono::steady_clock::now();
}

void Progress::update(int step, double t) {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  const double since_last = std::chrono::duration<double>(now - last_).count();
  const bool last_step = step == total_;
  if (tty_ ? (since_last < 0.1 && !last_step) : (since_last < 5.0)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = step / std::max(elapsed, 1e-9);
  const double left = (total_ - step) / std::max(rate, 1e-9);
  if (tty_) {
    const int width = 30;
    const int filled = total_ > 0 ? width * step / total_ : width;
    fmt::print(stderr, "\r[{}{}] step {}/{}  t = {:.4g} s  {:.1f} steps/s  {:.0f} s left ",
               std::string(filled, '#'), std::string(width - filled, '.'), step, total_, t, rate, left);
    drawn_ = true;
  } else {
    fmt::print(stderr, "step {}/{}  t = {:.4g} s  {:.1f} steps/s  {:.0f} s left\n", step, total_, t, rate, left);
  }
  std::fflush(stderr);
}

void Progress::warn(const std::string& message) {
  if (drawn_) fmt::print(stderr, "\n");
  drawn_ = false;
  fmt::print(stderr, "warning: {}\n", message);
}

void Progress::finish() {
  if (drawn_) fmt::print(stderr, "\n");
  drawn_ = false;
}

}  // namespace softsim
