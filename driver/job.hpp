// SPDX-License-Identifier: Apache-2.0
// The collectives library's entry point: a job, one task per rank, runs a function on every
// task of a machine model (the simulated machine, sim::Machine, or any other
// fw::MachineModel). Each task boots its
// node (probes the adapter and programs the world class route), all tasks then start
// together, and the function gets the task's world communicator. The tasks of a node down
// from boot (fw::DownNodes) run nothing:
//
//   collnet::sim::Machine model(config);  // the simulated machine
//   collnet::driver::Job job(model);       // the driver on it
//   job.run([](collnet::driver::Task& t) { t.world().barrier(); });
#pragma once

#include <array>
#include <atomic>
#include <mutex>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "driver/communicator.hpp"
#include "firmware/machine_model.hpp"
#include "firmware/task_context.hpp"

namespace collnet::driver {

class Task {
 public:
  Task(fw::TaskContext& t, Communicator& world) : t_(t), world_(world) {}
  // The world rank: node * tasks per node + task (with nodes down, counting live nodes only).
  unsigned rank() const { return world_.rank(); }
  unsigned size() const { return world_.size(); }
  unsigned node() const { return t_.node; }
  unsigned task_on_node() const { return t_.task; }
  Communicator& world() { return world_; }
  // The machine's torus shape (X, Y, Z) and its tasks per node.
  std::array<unsigned, 3> torus_shape() const { return t_.personality.shape; }
  unsigned tasks_per_node() const { return t_.tasks; }
  // Cycles since the machine started.
  uint64_t cycle() const { return t_.cpu.cycle(); }
  fw::Processor& cpu() { return t_.cpu; }
  // The node's coprocessor in coprocessor mode (fw::Coprocessor), else null.
  fw::Coprocessor* coprocessor() { return t_.coprocessor; }
  // Whether the node has the torus DMA engine (docs/dma.md).
  bool has_dma() const { return t_.dma_memory != nullptr; }

 private:
  fw::TaskContext& t_;
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

class Job {
 public:
  // The model must outlive this object. `p2p` sets the point-to-point protocols' limits;
  // `tuning`, what the collectives' auto picks from (null: Tuning::shipped()), must outlive
  // it too.
  explicit Job(fw::MachineModel& model, const P2pConfig& p2p = {}, const Tuning* tuning = nullptr);
  RunReport run(const std::function<void(Task&)>& fn);

  fw::MachineModel& model() { return model_; }
  // What node `node`'s tasks share (its point-to-point engine and statistics, ...).
  NodeTasks& node_tasks(unsigned node) { return *node_tasks_.at(node); }

 private:
  fw::MachineModel& model_;
  std::vector<std::unique_ptr<NodeTasks>> node_tasks_;  // one per node
  // With nodes or links down, some pairs' packets are forwarded by an intermediate node's
  // engine, so a task that has finished keeps moving its node's packets until every task
  // has (as MPI_Finalize waits): the model counts them (MachineModel::mark_done).
  std::once_flag forwarding_once_;
  bool forwarding_ = false;
};

}  // namespace collnet::driver
