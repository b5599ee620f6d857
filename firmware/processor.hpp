// SPDX-License-Identifier: Apache-2.0
// What code running on a node sees of its processor: the node's register bus, and time.
// Firmware and the driver charge simulated time through it (a memory access, a stretch of
// computation) and read the cycle count; the simulated machine's processor (sim::Cpu)
// implements it, and so can any other machine model, or a test's fake.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

#include "firmware/register_bus.hpp"

namespace collnet::fw {

class Processor : public RegisterBus {
 public:
  // Cycles (clock edges) since the machine started.
  virtual uint64_t cycle() const = 0;
  // Lets `cycles` clock edges pass without touching the bus: the task computes.
  virtual void idle(uint64_t cycles) = 0;
  // One access to node memory shared by the node's tasks (an atomic update or a poll).
  virtual void memory_access() = 0;
  // The node's torus reception FIFOs hold packets: a level the processor sees without a
  // bus access, as an interrupt line (the real machine interrupted on FIFO levels).
  // Software waiting for something else checks it to serve point-to-point traffic.
  virtual bool torus_pending() const = 0;
  // Runs `work` (on the calling thread) just before the processor is next used by it — a
  // bus access, an idle stretch, a memory access — in place of any work set before and not
  // yet run; empty `work` drops it. The MPI layer charges a program's computation this way
  // when a call first uses the machine, so a call that only reads the rank's own state
  // does not stop for it. A processor that cannot defer runs it at once.
  virtual void before_next_use(std::function<void()> work) {
    if (work) work();
  }
};

}  // namespace collnet::fw
