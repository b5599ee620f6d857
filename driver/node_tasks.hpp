// What the tasks of one node share: the node's memory. With several tasks per node every
// collective first meets on the node (a local barrier on an atomic counter padded to a power of two),
// the node's leader combines the tasks' contributions and drives the adapter, and the
// others pick the result up from memory. One Slot per communicator class: communicators
// on the same node never share one.
//
// Point-to-point: the node's engine (matching, protocols and the lock a task holds while it
// uses the node's torus FIFOs, which the tasks share).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <utility>
#include <vector>

#include "p2p_engine.hpp"
#include "tuning.hpp"

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

  Slot& slot(unsigned cls) { return slots_[cls]; }

  P2pEngine p2p;
  P2pConfig p2p_config;  // the job's (Job's constructor sets it)
  const Tuning* tuning = &Tuning::shipped();  // what auto picks from (the job's)

 private:
  std::map<unsigned, Slot> slots_;
};

// The local barrier's target: the counter is padded to the next power of two >= n.
inline uint64_t local_barrier_target(unsigned n) {
  uint64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace collnet::driver
