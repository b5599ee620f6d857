// SPDX-License-Identifier: Apache-2.0
#include "driver/started_barrier.hpp"

#include "driver/p2p_envelope.hpp"

namespace collnet::driver {

StartedBarrier::StartedBarrier(Communicator& comm) : comm_(comm) { step(); }

void StartedBarrier::step() {
  // Posting a round moves packets (isend's progress), which runs the engine's pollers, this
  // barrier's among them: that step must not post the round again under this one.
  if (stepping_) return;
  stepping_ = true;
  struct Clear {
    bool& flag;
    ~Clear() { flag = false; }
  } clear{stepping_};
  const unsigned n = comm_.size(), me = comm_.rank();
  while (!done_) {
    if (!posted_) {
      if (distance_ >= n) {
        done_ = true;
        return;
      }
      send_ = comm_.isend(&token_, 0, Datatype::U8, (me + distance_) % n, p2p::kStartedBarrierTag);
      recv_ = comm_.irecv(&token_, 0, Datatype::U8, (me + n - distance_) % n, p2p::kStartedBarrierTag);
      posted_ = true;
    }
    // Done requests are finished here (test takes a done one without moving packets).
    if (!recv_.null()) {
      if (!recv_.done()) return;
      comm_.test(recv_);
    }
    if (!send_.null()) {
      if (!send_.done()) return;
      comm_.test(send_);
    }
    posted_ = false;
    distance_ *= 2;
  }
}

bool StartedBarrier::test() {
  if (!done_) comm_.progress();  // runs step() too, as the engine's poller
  step();
  return done_;
}

void StartedBarrier::finish() {
  for (step(); !done_; step()) {
    if (!recv_.null() && !recv_.done())
      comm_.wait(recv_);
    else if (!send_.null() && !send_.done())
      comm_.wait(send_);
  }
}

}  // namespace collnet::driver
