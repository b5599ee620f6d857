// SPDX-License-Identifier: Apache-2.0
// A progress line on a terminal for runs that take a while: the cycles simulated, the
// rate and, when the run knows its length, a bar and an estimate of the time left. It
// appears only once a run has taken `delay` seconds (2 by default), is redrawn at most ten
// times a second, and is erased when the run ends, so a run's report reads as without it.
// Nothing is written unless standard error is a terminal, and never under CI (the CI
// variable set) or with COLLNET_PROGRESS=0; COLLNET_PROGRESS=1 shows it on a terminal
// straight away (tests, and users who want it at once).
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace collnet::cli {

class Progress {
 public:
  using Clock = std::function<double()>;  // seconds, from any fixed start
  // How often a machine run updates the line (sim::Machine::watch), in cycles.
  static constexpr uint64_t kWatchCycles = 1024;

  // The line for standard error, shown as the environment and the terminal say (above).
  static Progress on_stderr(std::string what);
  // A line on `out`, drawn only if `shown`, after `delay` seconds by `clock`.
  Progress(std::ostream& out, bool shown, std::string what, double delay, Clock clock);
  ~Progress() { finish(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool shown() const { return shown_; }
  // What the run counts (cycles by default: "runs" for a sequence of runs) and how many
  // of them it will take (0: not known, and no bar or time left is shown).
  void set_unit(std::string unit) { unit_ = std::move(unit); }
  void set_total(uint64_t total) { total_ = total; }
  // A word for what the run does now, after the counts ("draining", ...).
  void set_phase(std::string phase) { phase_ = std::move(phase); }
  // `done` units so far: redraws the line if it is due.
  void update(uint64_t done);
  // Erases the line, if one was drawn.
  void finish();

  // The line itself, without the carriage return: `elapsed` seconds since the first
  // update, at `rate` units per second. Fits in 80 columns.
  static std::string line(const std::string& what, const std::string& unit, uint64_t done, uint64_t total,
                          double elapsed, double rate, const std::string& phase);

 private:
  std::ostream* out_;
  bool shown_;
  std::string what_, unit_ = "cycles", phase_;
  double delay_;
  Clock clock_;
  uint64_t total_ = 0;
  bool started_ = false, drawn_ = false;
  double start_ = 0, last_draw_ = 0;
  uint64_t first_ = 0;  // units done at the first update
};

}  // namespace collnet::cli
