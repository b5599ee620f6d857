// The collectives library's entry point: build a simulated machine from a configuration
// and run a function on every task. Each task boots its node (probes the adapter and
// programs the world class route), all tasks then start together, and the function gets
// the task's world communicator.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "communicator.hpp"
#include "systemc/machine.hpp"

namespace collnet::driver {

class Task {
 public:
  Task(sim::Machine::Task& t, Communicator& world) : t_(t), world_(world) {}
  // The world rank: node * tasks per node + task.
  unsigned rank() const { return world_.rank(); }
  unsigned size() const { return world_.size(); }
  unsigned node() const { return t_.rank; }
  unsigned task_on_node() const { return t_.task; }
  Communicator& world() { return world_; }
  // Cycles since the machine started.
  uint64_t cycle() const { return t_.cpu.cycle(); }
  sim::Processor& cpu() { return t_.cpu; }

 private:
  sim::Machine::Task& t_;
  Communicator& world_;
};

// How a run ended. `error` is empty when every task returned normally.
struct RunReport {
  bool ok = false;
  std::string error;             // first failure, or the watchdog's list of ranks
  uint64_t cycles = 0;           // cycles simulated in all
  uint64_t start_cycle = 0;      // the cycle at which every task's function started
  double wall_seconds = 0;
};

class Machine {
 public:
  explicit Machine(const sim::MachineConfig& config);
  RunReport run(const std::function<void(Task&)>& fn);

  sim::Machine& sim() { return sim_; }

 private:
  sim::Machine sim_;
  std::vector<std::unique_ptr<NodeTasks>> node_tasks_;  // one per node
};

}  // namespace collnet::driver
