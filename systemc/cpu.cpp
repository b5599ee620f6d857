// SPDX-License-Identifier: Apache-2.0
#include "systemc/cpu.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <sysc/kernel/sc_dynamic_processes.h>

#include "firmware/torus_firmware.hpp"

namespace collnet::sim {

Cpu::Cpu(sc_core::sc_module_name name, Node& node, unsigned task, unsigned access_cycles, std::function<void()> body,
         std::function<void()> on_finish, size_t stack_bytes)
    : sc_module(name),
      node_(node),
      task_(task),
      edge_(&node.edge_event(task)),
      access_cycles_(access_cycles),
      body_(std::move(body)),
      on_finish_(std::move(on_finish)),
      stack_bytes_(stack_bytes) {
  SC_THREAD(run);
  if (stack_bytes > 0) set_stack_size(stack_bytes);
}

void Cpu::run() {
  self_ = sc_core::sc_get_current_process_handle();
  try {
    body_();
  } catch (...) {
    if (!cancelled_) failure_ = std::current_exception();
  }
  // Cancelled: the run has ended and reported this task unfinished.
  if (cancelled_) return;
  finished_ = true;
  on_finish_();
}

void Cpu::access(const fw::BusRequest& req) {
  // Other tasks of the node are using or waiting for the bus: wait for our turn. The bus
  // is released right after the last cycle of an access, before any further edge, so the
  // caller still reads its own data.
  if (cancelled_) throw TaskCancelled{};
  settle();
  node_.request_bus(task_, req);
  do wait_edge();  // the edge that grants the bus evaluates the access's first cycle
  while (!node_.bus_held_by(task_));
  ++accesses_;
  for (unsigned i = 1; i < access_cycles_; ++i) wait_edge();
  node_.release_bus();
}

bool Cpu::torus_pending() const {
  return fw::TorusStatus::decode(node_.torus_status()).rcv_pending();
}

bool Cpu::dma_event() const { return node_.dma_event(); }

bool Cpu::torus_inject_room() const {
  const fw::TorusStatus st = fw::TorusStatus::decode(node_.torus_status());
  return std::any_of(st.inj_free.begin(), st.inj_free.end(),
                     [](unsigned f) { return f >= fw::regmap::kMaxPacketFlits; });
}

uint64_t Cpu::read(uint32_t addr, bool privileged) {
  access({true, false, privileged, addr, {}});
  return node_.bus_rdata();
}

void Cpu::write(uint32_t addr, uint64_t data, bool privileged) {
  access({true, true, privileged, addr, {data, 0, 0, 0}});
}

void Cpu::write_vector(uint32_t addr, const Vector& v, bool privileged) {
  access({true, true, privileged, addr, v});
}

fw::RegisterBus::Vector Cpu::read_vector(uint32_t addr, bool privileged) {
  access({true, false, privileged, addr, {}});
  return node_.bus_rvector();
}

void Cpu::idle(uint64_t n) {
  settle();
  if (n == 0) return;
  // One timed wait to half a cycle before the n-th edge from now (edges fall on whole
  // nanoseconds), then that edge: the edge n waits for edge_event() reach, without
  // resuming this thread at every edge between.
  if (n > 1) {
    before_wait();
    wait(before_edge(n), node_.wake_event());
    if (cancelled_) throw TaskCancelled{};
  }
  wait_edge();
}

sc_core::sc_time Cpu::before_edge(uint64_t n) {
  const double now_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  const double target_ns = std::floor(now_ns + 1e-6) + static_cast<double>(n) - 0.5;
  return sc_core::sc_time(target_ns - now_ns, sc_core::SC_NS);
}

uint64_t Cpu::idle_until(uint64_t n, const std::function<bool()>& interrupted) {
  settle();
  if (n == 0) return 0;
  const uint64_t start = cycle();
  const sc_core::sc_event& lines = node_.torus_status_event();
  // An interrupt is taken at a clock edge, the first one from now at the earliest: a line
  // that is up already (raised while the processor served the last one) is seen there,
  // and a processor whose interrupt finds nothing to do loses a cycle, not its progress.
  wait_edge();
  while (cycle() - start < n && !interrupted()) {
    // As idle(): a timed wait to half a cycle before the last edge, then that edge; a
    // change of the lines ends the wait early, at the next edge.
    before_wait();
    wait(before_edge(n - (cycle() - start)), lines | node_.wake_event());
    wait_edge();
  }
  return cycle() - start;
}

void Cpu::sleep(const sc_core::sc_event& a, const sc_core::sc_event& b) {
  before_wait();
  settle();
  wait(a | b | node_.wake_event());
  wait_edge();
}

// A fiber and the task hand the processor to each other with a flag and a delta
// notification each way: whoever is handed it checks the flag before waiting, so a
// notification that comes before its wait is not lost.
class Cpu::Fiber final : public fw::Fiber {
 public:
  Fiber(Cpu& cpu, std::function<void()> body) : cpu_(cpu), body_(std::move(body)) {}

  void resume() override {
    if (ended_) return;
    if (cpu_.running_) throw std::logic_error("Cpu: a fiber resumed from inside a fiber");
    wanted_ = true;
    cpu_.running_ = this;
    resumed_.notify(sc_core::SC_ZERO_TIME);
    while (wanted_) {
      try {
        cpu_.wait_for(yielded_);
      } catch (const TaskCancelled&) {
        // The run is over while the fiber runs: it is cancelled too, and unwinds before
        // the task does, whose stack what it holds may point into.
        while (!ended_) sc_core::wait(yielded_);
        throw;
      }
    }
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }
  bool ended() const override { return ended_; }

  // On the fiber's own thread.
  void yield() {
    give_back();
    while (!wanted_) cpu_.wait_for(resumed_);
  }
  void run() {
    try {
      while (!wanted_) cpu_.wait_for(resumed_);
      body_();
    } catch (const TaskCancelled&) {  // the run ended while it waited
    } catch (...) {
      failure_ = std::current_exception();  // the task's resume() throws it
    }
    ended_ = true;
    give_back();
  }

 private:
  void give_back() {
    wanted_ = false;
    cpu_.running_ = nullptr;
    yielded_.notify(sc_core::SC_ZERO_TIME);
  }

  Cpu& cpu_;
  std::function<void()> body_;
  bool wanted_ = false;  // the task has handed it the processor
  bool ended_ = false;
  std::exception_ptr failure_;
  sc_core::sc_event resumed_, yielded_;
};

std::shared_ptr<fw::Fiber> Cpu::start_fiber(std::function<void()> body) {
  auto f = std::make_shared<Fiber>(*this, std::move(body));
  sc_core::sc_spawn_options o;
  if (stack_bytes_ > 0) o.set_stack_size(static_cast<int>(stack_bytes_));
  sc_core::sc_spawn([f] { f->run(); }, nullptr, &o);
  return f;
}

fw::Fiber* Cpu::current_fiber() const { return running_; }

void Cpu::yield_fiber() {
  if (!running_) throw std::logic_error("Cpu: yield_fiber outside a fiber");
  running_->yield();
}

void Cpu::before_wait() {
  if (cancelled_) throw TaskCancelled{};
  if (wait_hook_) wait_hook_();
}

void Cpu::wait_for(const sc_core::sc_event& e) {
  before_wait();
  sc_core::wait(e | node_.wake_event());
  if (cancelled_) throw TaskCancelled{};
  if (resume_hook_) resume_hook_();
}

void Cpu::wait_edge() {
  // Before the wait too: a handler that waits while the task unwinds must not suspend it.
  before_wait();
  node_.edge_wait_begins();
  wait(*edge_);
  node_.edge_wait_ends();
  if (cancelled_) throw TaskCancelled{};
  if (resume_hook_) resume_hook_();
}

}  // namespace collnet::sim
