// SPDX-License-Identifier: Apache-2.0
// The host's speed and CPU time (compute_time.hpp).
#include "mpi/compute_time.hpp"

#include <time.h>

#include <algorithm>
#include <cstdint>

namespace collnet::mpi {

namespace {

double seconds_of(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double wall_seconds() { return seconds_of(CLOCK_MONOTONIC); }

}  // namespace

double thread_cpu_seconds() { return seconds_of(CLOCK_THREAD_CPUTIME_ID); }

HostTime stretch_start() {
  HostTime t;
  t.cpu = thread_cpu_seconds();
  t.wall = wall_seconds();
  return t;
}

HostTime stretch_end() {
  HostTime t;
  t.wall = wall_seconds();
  t.cpu = thread_cpu_seconds();
  return t;
}

HostTime next_stretch(const HostTime& end) {
  HostTime t;
  t.cpu = end.cpu;
  t.wall = wall_seconds();
  return t;
}

double stretch_seconds(const HostTime& from, const HostTime& to) {
  const double cpu = to.cpu - from.cpu - thread_cpu_read_seconds();
  return std::max(0.0, std::min(cpu, to.wall - from.wall));
}

double thread_cpu_read_seconds() {
  static const double measured = [] {
    double best = 1e30;
    for (int i = 0; i < 200; ++i) {
      const double t0 = thread_cpu_seconds(), t1 = thread_cpu_seconds();
      if (t1 > t0) best = std::min(best, t1 - t0);
    }
    return best < 1e30 ? best : 0.0;
  }();
  return measured;
}

namespace {

// Four independent multiply-add chains: per iteration four multiplies, four adds, the
// counter's add and the branch, 10 instructions that a superscalar host overlaps.
uint64_t kernel(uint64_t iterations, uint64_t seed) {
  uint64_t a = seed, b = seed + 1, c = seed + 2, d = seed + 3;
  for (uint64_t i = 0; i < iterations; ++i) {
    a = a * 6364136223846793005ull + 1442695040888963407ull;
    b = b * 2862933555777941757ull + 3037000493ull;
    c = c * 3202034522624059733ull + 1ull;
    d = d * 1181783497276652981ull + 7ull;
  }
  return a ^ b ^ c ^ d;
}

}  // namespace

double host_instructions_per_second() {
  static const double measured = [] {
    constexpr uint64_t kIterations = 4'000'000;
    constexpr double kInstructions = 10.0 * kIterations;
    volatile uint64_t sink = 0;
    double best = 1e30;
    for (int run = 0; run < 5; ++run) {  // the fastest of five: the least disturbed
      const double t0 = thread_cpu_seconds();
      sink = sink + kernel(kIterations, static_cast<uint64_t>(run) + sink);
      best = std::min(best, thread_cpu_seconds() - t0);
    }
    return kInstructions / std::max(best, 1e-6);
  }();
  return measured;
}

double auto_compute_scale(double clock_mhz, double instructions_per_cycle) {
  return host_instructions_per_second() / (clock_mhz * 1e6 * instructions_per_cycle);
}

}  // namespace collnet::mpi
