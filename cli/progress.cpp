// SPDX-License-Identifier: Apache-2.0
#include "cli/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace collnet::cli {

namespace {

constexpr double kRedrawSeconds = 0.1;
constexpr unsigned kBarWidth = 20;

// 1234567 -> "1,234,567".
std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// 215300.0 -> "215k", 3.1e6 -> "3.1M".
std::string rate_text(double r) {
  char buf[32];
  if (r >= 1e6) std::snprintf(buf, sizeof buf, "%.3gM", r / 1e6);
  else if (r >= 1e3) std::snprintf(buf, sizeof buf, "%.3gk", r / 1e3);
  else std::snprintf(buf, sizeof buf, "%.3g", r);
  return buf;
}

// 75.4 -> "1:15", 3725 -> "1:02:05".
std::string duration_text(double seconds) {
  const uint64_t s = static_cast<uint64_t>(std::max(0.0, seconds) + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60), static_cast<unsigned long long>(s % 60));
  else
    std::snprintf(buf, sizeof buf, "%llu:%02llu", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  return buf;
}

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

Progress Progress::on_stderr(std::string what) {
  const char* setting = std::getenv("COLLNET_PROGRESS");
  const std::string s = setting ? setting : "";
  const char* ci = std::getenv("CI");
  const bool shown = s != "0" && !(ci && *ci) && isatty(STDERR_FILENO) == 1;
  return Progress(std::cerr, shown, std::move(what), s == "1" ? 0.0 : 2.0, steady_seconds);
}

Progress::Progress(std::ostream& out, bool shown, std::string what, double delay, Clock clock)
    : out_(&out), shown_(shown), what_(std::move(what)), delay_(delay), clock_(std::move(clock)) {}

void Progress::update(uint64_t done) {
  if (!shown_) return;
  const double now = clock_();
  if (!started_) {
    started_ = true;
    start_ = now;
    first_ = done;
  }
  const double elapsed = now - start_;
  if (elapsed < delay_ || (drawn_ && now - last_draw_ < kRedrawSeconds)) return;
  const double rate = elapsed > 0 ? static_cast<double>(done - std::min(done, first_)) / elapsed : 0;
  *out_ << '\r' << line(what_, unit_, done, total_, elapsed, rate, phase_) << "\x1b[K" << std::flush;
  drawn_ = true;
  last_draw_ = now;
}

void Progress::finish() {
  if (!drawn_) return;
  *out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

std::string Progress::line(const std::string& what, const std::string& unit, uint64_t done, uint64_t total,
                           double elapsed, double rate, const std::string& phase) {
  std::string s = what.substr(0, 14);
  if (total > 0) {
    const double share = std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
    const unsigned filled = static_cast<unsigned>(share * kBarWidth);
    char pct[8];
    std::snprintf(pct, sizeof pct, "%3u%%", static_cast<unsigned>(share * 100));
    s += " [" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "] " + pct;
    s += "  " + grouped(done) + "/" + grouped(total) + " " + unit;
  } else {
    s += "  " + grouped(done) + " " + unit;
  }
  if (rate > 0) s += "  " + rate_text(rate) + "/s";
  if (!phase.empty()) s += "  " + phase;
  else if (total > 0 && done < total && rate > 0)
    s += "  " + duration_text(static_cast<double>(total - done) / rate) + " left";
  else
    s += "  " + duration_text(elapsed);
  return s.substr(0, 79);
}

}  // namespace collnet::cli
