// SPDX-License-Identifier: Apache-2.0
// The machine's clock: 1 ns cycles, rising edges on whole nanoseconds and falling edges
// half way, as an sc_clock's, but only the edges it is released for. Machine::run and
// Machine::advance release each stretch they start the kernel for, so that while the
// kernel is paused between stretches no clock event is pending: what the kernel still has
// to do then (sc_core::sc_time_to_pending_activity) is the processors' and tasks' own. A
// machine with nothing to do until then can leap over the cycles between (Machine::run)
// instead of clocking every node through them.
#pragma once

#include <cstdint>
#include <systemc>

namespace collnet::sim {

class MachineClock : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(MachineClock);
  explicit MachineClock(sc_core::sc_module_name name) : sc_module(name), clk("clk") { SC_THREAD(run); }

  sc_core::sc_signal<bool> clk;

  // The next `edges` rising edges (each with its falling edge) happen, the first at the
  // current time (a whole nanosecond). Called while the kernel is paused, before it starts.
  void release(uint64_t edges) {
    edges_ += edges;
    if (sc_core::sc_get_status() != sc_core::SC_ELABORATION) go_.notify(sc_core::SC_ZERO_TIME);
  }

 private:
  void run() {
    const sc_core::sc_time half(0.5, sc_core::SC_NS);
    for (;;) {
      while (edges_ == 0) wait(go_);
      clk.write(true);
      wait(half);
      clk.write(false);
      if (--edges_ > 0) wait(half);  // the last one leaves nothing pending
    }
  }

  uint64_t edges_ = 0;
  sc_core::sc_event go_;
};

}  // namespace collnet::sim
