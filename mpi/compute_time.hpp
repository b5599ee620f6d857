// SPDX-License-Identifier: Apache-2.0
// How long a rank computes between MPI calls, in simulated cycles: the host time its code
// used times a scale. A stretch of the program is measured by two clocks, this thread's CPU
// time (other load on the host moves it little) and the monotonic wall clock, and counts
// the lesser: on a virtual machine the thread's CPU clock is brought up to date late,
// after the simulator ran for a while, and the catch-up (microseconds, at times
// milliseconds) lands in whatever stretch of the program reads it next, where the wall
// clock does not move; a stretch in which the host ran another thread moves the wall
// clock and not the thread's.
// `--compute-scale auto` derives the scale from the machine's processor speed (its clock
// and sustained instructions per cycle) and the host's, measured here: the scale is the
// host's instructions per second over the processor's, so a loop of real work costs the
// cycles the simulated processor would take for the same instructions (an estimate:
// docs/mpi.md#compute-time).
#pragma once

namespace collnet::mpi {

// Seconds of CPU time the calling host thread has used.
double thread_cpu_seconds();

// A point in the host's time as the program's stretches are measured: the thread's CPU
// time and the monotonic wall clock.
struct HostTime {
  double cpu = 0, wall = 0;
};
// Read where a stretch of the program starts (the CPU clock first, the wall clock last)
// and where it ends (the wall clock first): the wall clock's interval spans neither CPU
// clock read, a system call.
HostTime stretch_start();
HostTime stretch_end();
// The stretch that starts where `end` ended one (MPI_Wtime's, a call's entry): `end`'s CPU
// clock read serves both, and the wall clock is read again after it.
HostTime next_stretch(const HostTime& end);
// The seconds the program computed from `from` to `to`: the lesser of the thread's CPU
// time between them (less one CPU clock read, thread_cpu_read_seconds) and the wall time.
double stretch_seconds(const HostTime& from, const HostTime& to);
// What one thread_cpu_seconds() costs itself, measured once (the least of many back-to-back
// reads): each interval a rank's compute time is charged from spans one read, which is
// the simulator's time, not the program's (a system call: microseconds on some hosts).
double thread_cpu_read_seconds();

// The host's speed: simple integer instructions per second of CPU time, measured once
// (a few tens of milliseconds) on a kernel of independent multiply-add chains.
double host_instructions_per_second();

// The scale `auto` means for a processor of `clock_mhz` running `instructions_per_cycle`.
double auto_compute_scale(double clock_mhz, double instructions_per_cycle);

}  // namespace collnet::mpi
