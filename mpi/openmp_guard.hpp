// SPDX-License-Identifier: Apache-2.0
// OpenMP inside the ranks. An OpenMP runtime keeps its state (the team a thread is in) per
// host thread, and every rank runs on the simulator's one host thread: a rank's code inside
// a parallel region may call MPI (MPI_THREAD_FUNNELED), but it may not wait there, since the
// other ranks' code would run in its team's state (and the run would hang, every thread
// waiting in the runtime). The guard finds the program's OpenMP runtime and says when the
// calling thread is inside a parallel region of more than one thread.
#pragma once

#include <optional>

namespace collnet::mpi {

class OpenMpGuard {
 public:
  // The guard for the OpenMP runtime the process has loaded (a program built with
  // -fopenmp brings libgomp or libomp), or none.
  static std::optional<OpenMpGuard> find();
  // The number of threads of the parallel region the calling thread is in, when more than
  // one; 0 outside such a region.
  int team() const;

 private:
  int (*in_parallel_)() = nullptr;
  int (*num_threads_)() = nullptr;
};

}  // namespace collnet::mpi
