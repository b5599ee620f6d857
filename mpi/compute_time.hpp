// SPDX-License-Identifier: Apache-2.0
// How long a rank computes between MPI calls, in simulated cycles: the host CPU time its
// code used (this thread's, so other load on the host moves it little) times a scale.
// `--compute-scale auto` derives the scale from the machine's processor speed (its clock
// and sustained instructions per cycle) and the host's, measured here: the scale is the
// host's instructions per second over the processor's, so a loop of real work costs the
// cycles the simulated processor would take for the same instructions (an estimate:
// docs/mpi.md#compute-time).
#pragma once

namespace collnet::mpi {

// Seconds of CPU time the calling host thread has used.
double thread_cpu_seconds();
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
