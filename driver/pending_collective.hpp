// SPDX-License-Identifier: Apache-2.0
// A collective started and not yet finished: the torus DMA engines move its data while the
// task goes on (Communicator::start_alltoall: alltoall's blocks as direct puts, docs/dma.md).
// Nothing of the task's is needed meanwhile: the engines' counters say when it is done, and
// finishing it waits for them, checks the engine's errors and copies what it received
// through an aligned copy into place. A started barrier (started_barrier.hpp) is one too.
// A task's next alltoall finishes what it started on the engines first (their counters are
// the task's); the rest ends when waited for, or when the task's work ends
// (NodeTasks::pending).
#pragma once

namespace collnet::driver {

class PendingCollective {
 public:
  virtual ~PendingCollective() = default;
  // One poll (a register read): whether the engines are done with it. Finishes it if so.
  virtual bool test() = 0;
  // Waits for it (polling) and finishes it; again, does nothing.
  virtual void finish() = 0;
  virtual bool finished() const = 0;
  // Whether it holds the task's DMA engine counters (the next alltoall must wait for it).
  virtual bool on_engines() const { return false; }
};

}  // namespace collnet::driver
