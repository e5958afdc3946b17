#pragma once
// Progress display: a redrawn bar on a terminal (step, simulated time, steps/s, time left), or
// one plain line every few seconds when stderr is not a terminal.
#include <chrono>
#include <string>

namespace softsim {

class Progress {
 public:
  Progress(int total_steps, double dt, bool quiet);
  void update(int step, double t);
  void warn(const std::string& message);
  void finish();

 private:
  int total_;
  double dt_;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point start_, last_;
  bool drawn_ = false;
};

}  // namespace softsim
