// SPDX-License-Identifier: Apache-2.0
// A communicator's collectives started and left running (Communicator::post_background):
// the work not yet begun, and the fiber that runs it. Each communicator has its own: a
// copy (Communicator::dup() starts from one) begins with an empty queue and no fiber, or
// the collectives started on a duplicate would join its parent's queue and run on
// another communicator's fiber, beside (not after) those started before them there.
#pragma once

#include <deque>
#include <functional>
#include <memory>

#include "firmware/processor.hpp"

namespace collnet::driver {

struct BackgroundQueue {
  // Shared with the fiber (which may still unwind after its communicator is gone, when a
  // run ends with it waiting).
  std::shared_ptr<std::deque<std::function<void()>>> queue = std::make_shared<std::deque<std::function<void()>>>();
  std::shared_ptr<fw::Fiber> fiber;  // null or ended when none

  BackgroundQueue() = default;
  BackgroundQueue(const BackgroundQueue&) : BackgroundQueue() {}
  BackgroundQueue& operator=(const BackgroundQueue&) { return *this = BackgroundQueue(); }
  BackgroundQueue(BackgroundQueue&&) = default;
  BackgroundQueue& operator=(BackgroundQueue&&) = default;
  ~BackgroundQueue() = default;
};

}  // namespace collnet::driver
