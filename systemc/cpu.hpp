// SPDX-License-Identifier: Apache-2.0
// A simulated processor (one task) on a node: an SC_THREAD that runs firmware and driver
// code. Each register access is presented to the node's bus and takes effect at the next
// clock edge; the processor then stalls for the configured access cost in cycles, so code
// pays simulated time for everything it does on the hardware. A vector access (32 bytes,
// like a 256-bit SIMD load or store) is one bus access and costs what a 64-bit one costs.
#pragma once

#include <systemc>

#include <cstdint>
#include <exception>
#include <functional>

#include "firmware/processor.hpp"
#include "systemc/node.hpp"

namespace collnet::sim {

// Thrown inside a task whose run has ended while it still waited (see Cpu::cancel):
// its stack unwinds, so what it holds is released. Not a std::exception, so code that
// handles errors by type passes it on.
struct TaskCancelled {};

class Cpu : public sc_core::sc_module, public fw::Processor {
 public:
  SC_HAS_PROCESS(Cpu);
  // access_cycles >= 1: cycles one register access occupies the processor. `body` is the
  // task's code; `on_finish` runs after it returns or throws. `stack_bytes`: the task's
  // stack (0: SystemC's default).
  // `task`: its number on the node (the bus's arbitration order, Node::request_bus).
  Cpu(sc_core::sc_module_name name, Node& node, unsigned task, unsigned access_cycles, std::function<void()> body,
      std::function<void()> on_finish, size_t stack_bytes = 0);

  uint64_t read(uint32_t addr, bool privileged = false) override;
  void write(uint32_t addr, uint64_t data, bool privileged = false) override;
  void write_vector(uint32_t addr, const Vector& v, bool privileged = false) override;
  Vector read_vector(uint32_t addr, bool privileged = false) override;

  // Lets `n` clock edges pass without touching the bus.
  void idle(uint64_t n) override;
  uint64_t idle_until(uint64_t n, const std::function<bool()>& interrupted) override;
  void before_next_use(std::function<void()> work) override { before_use_ = std::move(work); }
  // Fibers: each a SystemC thread of its own (with the task's stack size) that waits for
  // the task to hand it the processor; the task waits while it runs.
  std::shared_ptr<fw::Fiber> start_fiber(std::function<void()> body) override;
  fw::Fiber* current_fiber() const override;
  void yield_fiber() override;
  void set_resume_hook(std::function<void()> hook) override { resume_hook_ = std::move(hook); }
  void set_wait_hook(std::function<void()> hook) override { wait_hook_ = std::move(hook); }
  // Sleeps until `a` or `b` is notified (or the run ends), then to the next clock edge.
  void sleep(const sc_core::sc_event& a, const sc_core::sc_event& b);
  // One access to node memory shared by the node's tasks (an atomic update or a poll):
  // costs what a register access costs, without the bus.
  void memory_access() override { idle(access_cycles_); }
  // Cycles (clock edges) since the machine started.
  uint64_t cycle() const override { return node_.cycle(); }
  // From the node's RegTrStatus wires.
  bool torus_pending() const override;
  bool dma_event() const override;
  bool torus_inject_room() const override;
  uint64_t accesses() const { return accesses_; }

  bool finished() const { return finished_; }
  // The run is over and this task has not returned: from now on every wait throws
  // TaskCancelled, so when the task next resumes (Node::wake_processors) its stack unwinds.
  // It stays unfinished and reports no failure.
  void cancel() { cancelled_ = true; }
  std::exception_ptr failure() const { return failure_; }
  // Whether the calling code runs on this processor's thread.
  bool runs_here() const { return sc_core::sc_get_current_process_handle() == self_; }

 private:
  void run();
  void access(const fw::BusRequest& req);
  // Waits for the next clock edge; throws TaskCancelled once cancelled.
  void wait_edge();
  // The time from now to half a cycle before the n-th edge from now (edges fall on whole
  // nanoseconds): idle's timed waits, which then wait for that edge.
  static sc_core::sc_time before_edge(uint64_t n);
  class Fiber;
  // Waits for `e` (or the run's end: TaskCancelled) on the calling thread.
  void wait_for(const sc_core::sc_event& e);
  // Runs the work before_next_use set, if any (cleared first: it may use the processor).
  void settle() {
    if (!before_use_) return;
    std::function<void()> work = std::move(before_use_);
    before_use_ = nullptr;
    work();
  }

  Node& node_;
  unsigned task_;
  const sc_core::sc_event* edge_;  // the node's edge, for this processor (Node::edge_event)
  unsigned access_cycles_;
  std::function<void()> body_;
  std::function<void()> on_finish_;
  std::function<void()> before_use_;  // before_next_use
  std::function<void()> resume_hook_;  // set_resume_hook: after every wait
  std::function<void()> wait_hook_;    // set_wait_hook: before every wait
  // Before every wait: a cancelled task stops (TaskCancelled), and the wait hook runs.
  void before_wait();
  size_t stack_bytes_;
  Fiber* running_ = nullptr;  // the fiber that has the processor
  uint64_t accesses_ = 0;
  bool finished_ = false;
  bool cancelled_ = false;
  std::exception_ptr failure_;
  sc_core::sc_process_handle self_;  // this processor's thread (set when it starts)
};

}  // namespace collnet::sim
