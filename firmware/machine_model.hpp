// SPDX-License-Identifier: Apache-2.0
// A machine that runs software: one task per processor, each given its TaskContext. The
// simulated machine (sim::Machine) implements it; the driver (driver::Job) runs on it
// and needs nothing else of the model, so it could run on another model, or on a test's
// fake.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <utility>
#include <vector>

#include "firmware/task_context.hpp"

namespace collnet::fw {

class MachineModel {
 public:
  using TaskFn = std::function<void(TaskContext&)>;

  // How a run ended. Tasks are named by their world number, node * tasks_per_node + task.
  struct Result {
    bool finished = false;                                          // every task returned in time
    uint64_t cycles = 0;                                            // cycles the run took
    std::vector<unsigned> unfinished;                               // tasks that had not returned
    std::vector<std::pair<unsigned, std::exception_ptr>> failures;  // tasks that threw
    double wall_seconds = 0;
  };

  virtual ~MachineModel() = default;
  virtual unsigned nodes() const = 0;
  virtual unsigned tasks_per_node() const = 0;
  // Runs `fn` on every task until all return (or the model gives up on them).
  virtual Result run(TaskFn fn) = 0;
  // Called by every task of a run: returns once all have called it, all in the same cycle,
  // at no modelled cost (a measurement convenience).
  virtual void align() = 0;
  // Whether node `node`'s hardware has flagged an error (for reports on a run that hung).
  virtual bool node_error(unsigned node) const = 0;
  // A count the tasks of a run raise once each when their own work is done (a task that
  // goes on serving others until all are: driver::Job's forwarding). done() is the count
  // over the whole machine as the model last agreed it (a simulated machine: at the end
  // of each quantum), so it reads the same in every part of a machine split over processes.
  virtual void mark_done() = 0;
  virtual unsigned done() const = 0;
};

}  // namespace collnet::fw
