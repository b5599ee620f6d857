// SPDX-License-Identifier: Apache-2.0
// A node's second processor in coprocessor mode (Blue Gene/L's): the message layer runs
// there while the task's own processor runs the application. The task posts work (a
// non-blocking collective, say); the coprocessor runs posted work one piece at a time in
// the order posted, and between pieces its background work (moving the task's
// point-to-point packets). Code that runs there pays its time there: the task's Processor
// (TaskContext::cpu) stands for whichever of the two processors runs the code calling it.
#pragma once

#include <cstdint>
#include <functional>

namespace collnet::fw {

class Coprocessor {
 public:
  using Work = std::function<void()>;
  virtual ~Coprocessor() = default;

  // Queues `work` behind what is posted already and returns its ticket (1, 2, ...). Work
  // must catch what it throws: an exception that leaves it fails the coprocessor, which
  // then runs nothing more.
  virtual uint64_t post(Work work) = 0;
  // Tickets finished: every ticket up to this one has run.
  virtual uint64_t finished() const = 0;
  uint64_t posted() const { return posted_; }
  // Whether the code calling it runs on the coprocessor.
  virtual bool on_coprocessor() const = 0;
  // Work to do while nothing is posted: called until it returns false (nothing to do), then
  // again once the coprocessor wakes (work posted, a kick, the torus FIFOs' levels
  // changed). Null: none.
  virtual void set_background(std::function<bool()> fn) = 0;
  // Wakes a sleeping coprocessor to look at its background work again (the task queued
  // something for it, as a store to a doorbell); costs nothing.
  virtual void kick() = 0;
  // On the task's processor: waits until the coprocessor has finished ticket `ticket`
  // (every posted piece: posted()), polling a word of node memory (a memory access a
  // poll). On the coprocessor: returns at once (its own work runs in order).
  virtual void wait_for(uint64_t ticket) = 0;
  void drain() { wait_for(posted_); }

 protected:
  uint64_t posted_ = 0;
};

}  // namespace collnet::fw
