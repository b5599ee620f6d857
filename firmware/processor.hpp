// SPDX-License-Identifier: Apache-2.0
// What code running on a node sees of its processor: the node's register bus, and time.
// Firmware and the driver charge simulated time through it (a memory access, a stretch of
// computation) and read the cycle count; the simulated machine's processor (sim::Cpu)
// implements it, and so can any other machine model, or a test's fake.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

#include "firmware/register_bus.hpp"

namespace collnet::fw {

// A second line of execution on a task's processor, for work the task started and left
// running (a non-blocking collective): it runs only while the task hands it the processor
// (resume: from the task's own thread, at a point where the task waits anyway), until it
// gives the processor back (Processor::yield_fiber) or its work ends. The two never run at
// once, so the processor's time is spent by one of them at a time, and handing over takes
// no simulated time.
class Fiber {
 public:
  virtual ~Fiber() = default;
  // Runs the fiber until it yields or ends; does nothing once it has ended.
  virtual void resume() = 0;
  virtual bool ended() const = 0;
  // How deep the fiber is in the point-to-point engine's progress() calls: it yields when
  // the outermost one ends (P2pEngine::progress), never from inside one.
  unsigned progress_depth = 0;
};

class Processor : public RegisterBus {
 public:
  // Cycles (clock edges) since the machine started.
  virtual uint64_t cycle() const = 0;
  // Lets `cycles` clock edges pass without touching the bus: the task computes.
  virtual void idle(uint64_t cycles) = 0;
  // The same for the software's own work (copying a message, folding data), noted
  // (worked_until()), so that a long copy is told from a wait (MPI's deadlock report).
  void work(uint64_t cycles) {
    worked_until_ = cycle() + cycles;
    idle(cycles);
  }
  // The cycle the last work() ends at: it worked after cycle c if this exceeds c.
  uint64_t worked_until() const { return worked_until_; }
  // The same, cut short by an interrupt: at the first clock edge and whenever the node's
  // lines change after it (torus_pending(), dma_event(), torus_inject_room()) the
  // processor asks `interrupted` and, if it holds, stops at that edge. Returns the cycles
  // it idled (at least one, all of them unless interrupted). A processor without lines
  // idles them all.
  virtual uint64_t idle_until(uint64_t cycles, const std::function<bool()>& interrupted) {
    (void)interrupted;
    idle(cycles);
    return cycles;
  }
  // One access to node memory shared by the node's tasks (an atomic update or a poll).
  virtual void memory_access() = 0;
  // The node's torus reception FIFOs hold packets: a level the processor sees without a
  // bus access, as an interrupt line (the real machine interrupted on FIFO levels).
  // Software waiting for something else checks it to serve point-to-point traffic.
  virtual bool torus_pending() const = 0;
  // The torus DMA engine's event line (the conditions RegDmEventEn enables: a counter
  // counted down to zero, the memory FIFO holding a packet), seen the same way; false on a
  // node without the engine.
  virtual bool dma_event() const { return false; }
  // Some injection FIFO has room for the longest packet, seen the same way.
  virtual bool torus_inject_room() const { return true; }
  // Runs `work` (on the calling thread) just before the processor is next used by it — a
  // bus access, an idle stretch, a memory access — in place of any work set before and not
  // yet run; empty `work` drops it. The MPI layer charges a program's computation this way
  // when a call first uses the machine, so a call that only reads the rank's own state
  // does not stop for it. A processor that cannot defer runs it at once.
  virtual void before_next_use(std::function<void()> work) {
    if (work) work();
  }
  // A fiber (above) that runs `body` once first resumed; null if this processor cannot run
  // fibers (the caller then runs the work itself, at once). `body` must catch what it
  // throws.
  virtual std::shared_ptr<Fiber> start_fiber(std::function<void()> body) {
    (void)body;
    return nullptr;
  }
  // The fiber whose code is running, or null when the task's own code runs.
  virtual Fiber* current_fiber() const { return nullptr; }
  // From a fiber: gives the processor back to the task, and returns when next resumed.
  virtual void yield_fiber() {}
  // Runs `hook` whenever code on this processor (the task's own, a fiber, a coprocessor's
  // work) resumes after waiting, before it goes on: other tasks' code ran meanwhile. The
  // MPI layer makes the rank the processor runs the current one, so that the program's
  // code the library calls back (a user op, an error handler) finds its own rank.
  virtual void set_resume_hook(std::function<void()> hook) { (void)hook; }
  // Runs `hook` whenever the task's own code on this processor is about to wait (other
  // tasks' code will run meanwhile); it may throw to stop the task instead.
  virtual void set_wait_hook(std::function<void()> hook) { (void)hook; }

 private:
  uint64_t worked_until_ = 0;  // work()
};

}  // namespace collnet::fw
