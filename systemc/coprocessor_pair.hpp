// SPDX-License-Identifier: Apache-2.0
// Coprocessor mode on the simulated machine (fw::Coprocessor): a node's task processor
// and a second processor beside it on the node's bus, which runs the work the task posts.
// As the task's fw::Processor it forwards each access to the processor whose thread calls,
// so code pays its time on the processor that runs it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "firmware/coprocessor.hpp"
#include "firmware/processor.hpp"
#include "systemc/cpu.hpp"

namespace collnet::sim {

class CoprocessorPair final : public fw::Processor, public fw::Coprocessor {
 public:
  // The task's processor, waiting for posted work, polls its flag this often.
  static constexpr uint64_t kWaitPollCycles = 8;

  // `app`: the task's processor on `node`. The coprocessor is bus master `bus_task` there
  // (after the node's task processors), named `name`, with `app`'s access cost.
  CoprocessorPair(const std::string& name, Node& node, Cpu& app, unsigned bus_task, unsigned access_cycles,
                  size_t stack_bytes);

  // fw::Processor, on the calling thread's processor.
  uint64_t read(uint32_t addr, bool privileged = false) override { return here().read(addr, privileged); }
  void write(uint32_t addr, uint64_t data, bool privileged = false) override { here().write(addr, data, privileged); }
  void write_vector(uint32_t addr, const Vector& v, bool privileged = false) override {
    here().write_vector(addr, v, privileged);
  }
  Vector read_vector(uint32_t addr, bool privileged = false) override { return here().read_vector(addr, privileged); }
  uint64_t cycle() const override { return app_.cycle(); }
  void idle(uint64_t cycles) override { here().idle(cycles); }
  void memory_access() override { here().memory_access(); }
  bool torus_pending() const override { return app_.torus_pending(); }
  void before_next_use(std::function<void()> work) override { here().before_next_use(std::move(work)); }
  void set_resume_hook(std::function<void()> hook) override {
    app_.set_resume_hook(hook);
    co_->set_resume_hook(std::move(hook));
  }
  // The task's own code runs on the application processor.
  void set_wait_hook(std::function<void()> hook) override { app_.set_wait_hook(std::move(hook)); }

  // fw::Coprocessor.
  uint64_t post(Work work) override;
  uint64_t finished() const override { return finished_; }
  bool on_coprocessor() const override { return co_->runs_here(); }
  void set_background(std::function<bool()> fn) override { background_ = std::move(fn); }
  void wait_for(uint64_t ticket) override;
  void kick() override { posted_event_.notify(sc_core::SC_ZERO_TIME); }

  Cpu& coprocessor() { return *co_; }

 private:
  Cpu& here() const { return co_->runs_here() ? *co_ : app_; }
  void serve();  // the coprocessor's program: posted work, else background work, else sleep

  Node& node_;
  Cpu& app_;
  std::unique_ptr<Cpu> co_;
  std::deque<Work> queue_;
  uint64_t finished_ = 0;
  std::function<bool()> background_;
  sc_core::sc_event posted_event_;  // post() and kick()
};

}  // namespace collnet::sim
