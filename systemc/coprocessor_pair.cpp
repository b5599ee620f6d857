// SPDX-License-Identifier: Apache-2.0
#include "systemc/coprocessor_pair.hpp"

#include <stdexcept>
#include <utility>

namespace collnet::sim {

CoprocessorPair::CoprocessorPair(const std::string& name, Node& node, Cpu& app, unsigned bus_task,
                                 unsigned access_cycles, size_t stack_bytes)
    : node_(node), app_(app) {
  // It never finishes: it serves until the run ends and cancels it (Machine::unwind).
  co_ = std::make_unique<Cpu>(name.c_str(), node, bus_task, access_cycles, [this] { serve(); }, [] {}, stack_bytes);
}

uint64_t CoprocessorPair::post(Work work) {
  if (!work) throw std::invalid_argument("CoprocessorPair::post: no work");
  here().memory_access();  // the store that queues it in node memory
  queue_.push_back(std::move(work));
  posted_event_.notify(sc_core::SC_ZERO_TIME);
  return ++posted_;
}

void CoprocessorPair::wait_for(uint64_t ticket) {
  if (on_coprocessor()) return;
  // A flag in node memory the coprocessor sets: one access a poll, a poll every few cycles.
  while (finished_ < ticket) {
    app_.memory_access();
    if (finished_ < ticket) app_.idle(kWaitPollCycles);
  }
}

void CoprocessorPair::serve() {
  for (;;) {
    if (!queue_.empty()) {
      Work work = std::move(queue_.front());
      queue_.pop_front();
      co_->memory_access();  // takes the piece from the queue in node memory
      work();
      ++finished_;
      continue;
    }
    if (background_ && background_()) continue;
    // Nothing to do: asleep until work is posted, the task kicks it, or the torus FIFOs'
    // levels change (packets arrived, or room to inject), as an interrupt would wake it.
    co_->sleep(posted_event_, node_.torus_status_event());
  }
}

}  // namespace collnet::sim
