// SPDX-License-Identifier: Apache-2.0
// A barrier started and not waited for (MPI_Ibarrier without a coprocessor): a
// dissemination over the communicator's own point-to-point messages, on a tag kept for
// started barriers (p2p::kStartedBarrierTag: no wildcard receive takes one, nor does a
// collective that runs on the communicator meanwhile). In round k each rank
// sends an empty message to rank + 2^k and waits for one from rank - 2^k; after
// ceil(log2 n) rounds every rank has heard, through some chain, from every other. It
// advances whenever the task moves packets (a poller of the point-to-point engine's: in
// any call that waits, as MPI's progress rule asks) and when tested, so the task goes on
// meanwhile: receiving and sending what the others need before they reach the barrier.
// The barrier network would be faster, but it cannot be left half-done while the task
// does other work on the same channels.
#pragma once

#include <cstdint>

#include "driver/communicator.hpp"
#include "driver/pending_collective.hpp"

namespace collnet::driver {

class StartedBarrier : public PendingCollective {
 public:
  explicit StartedBarrier(Communicator& comm);
  // Posts what the rounds done allow and takes what has arrived; never waits.
  void step();
  bool test() override;
  void finish() override;
  bool finished() const override { return done_; }

 private:
  Communicator& comm_;
  unsigned distance_ = 1;  // 2^round
  bool posted_ = false;    // this round's send and receive
  bool done_ = false;
  bool stepping_ = false;  // in step(): a step reached from inside it (its own posting) returns at once
  Request send_, recv_;
  uint8_t token_ = 0;  // the empty messages' buffers
};

}  // namespace collnet::driver
