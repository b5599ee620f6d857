// SPDX-License-Identifier: Apache-2.0
// What the tasks of one node share: the node's memory. With several tasks per node every
// collective first meets on the node (a local barrier on an atomic counter padded to a power of two),
// the node's leader combines the tasks' contributions and drives the adapter, and the
// others pick the result up from memory. One Slot per communicator (its context id and
// first member: the groups of one split share a context id, see context_ids.hpp).
//
// Communicator management: the node's class-route entries in use (class_routes.hpp) and
// each task's context ids.
//
// Point-to-point: the node's engine (matching, protocols and the lock a task holds while it
// uses the node's torus FIFOs, which the tasks share).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "driver/class_routes.hpp"
#include "driver/context_ids.hpp"
#include "driver/dma_queue.hpp"
#include "driver/pending_collective.hpp"
#include "firmware/task_context.hpp"
#include "driver/p2p_engine.hpp"
#include "driver/tuning.hpp"

namespace collnet::driver {

class NodeTasks {
 public:
  struct Slot {
    uint64_t counter = 0;     // the local barrier's atomic counter
    uint64_t generation = 0;  // the leader bumps it to release the others
    std::vector<const std::vector<uint64_t>*> messages;  // each local task's contribution
    std::vector<std::pair<size_t, size_t>> owned;         // the words each one owns
    std::vector<uint64_t> result;
    std::exception_ptr failure;  // what stopped the leader, for the others to report
  };

  Slot& slot(uint64_t key) { return slots_[key]; }

  // The node's class-route entries, once the releases other nodes have sent (kSwTagRelease)
  // are applied: each such entry is cleared by `task`, which must be one of this node's.
  // The first call reads how many user classes the adapter has (one register read).
  ClassRouteTable& class_routes(fw::TaskContext& task);
  ContextIds& contexts(unsigned task) { return contexts_[task]; }

  NodeTasks() { p2p.share_dma_queue(&dma_queue_held); }
  NodeTasks(const NodeTasks&) = delete;
  NodeTasks& operator=(const NodeTasks&) = delete;

  P2pEngine p2p;
  P2pConfig p2p_config;  // the job's (Job's constructor sets it)
  // A task of the node is queueing a descriptor on the node's DMA engine: the queue's room
  // and the write are two accesses, so the node's tasks queue one at a time.
  bool dma_queue_held = false;
  DmaRing dma_ring;  // the engine's injection ring (its writers take dma_queue_held)
  // The collectives each task of the node has started and not finished, in the order
  // started (Communicator::start_alltoall on the engines, start_barrier).
  std::vector<std::shared_ptr<PendingCollective>>& pending(unsigned task) { return pending_[task]; }
  const Tuning* tuning = &Tuning::shipped();  // what auto picks from (the job's)

 private:
  std::map<uint64_t, Slot> slots_;
  ClassRouteTable routes_;
  std::map<unsigned, ContextIds> contexts_;  // per task of the node (references stay valid)
  std::map<unsigned, std::vector<std::shared_ptr<PendingCollective>>> pending_;
};

// The local barrier's target: the counter is padded to the next power of two >= n.
inline uint64_t local_barrier_target(unsigned n) {
  uint64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace collnet::driver
