// SPDX-License-Identifier: Apache-2.0
// Who belongs to a communicator and where they run: this task's rank among its ranks, each
// rank's world rank and node, this task's place among the ranks of its node, the class
// route its tree collectives use and the context id that tells it apart.
#pragma once

#include <memory>
#include <vector>

#include "driver/class_routes.hpp"
#include "firmware/down_nodes.hpp"

namespace collnet::driver {

// The world communicator's class route, and its barrier-network channels kWorldChannel and
// kWorldChannel + 1 (alternately).
inline constexpr unsigned kWorldClass = 0;
inline constexpr unsigned kWorldChannel = 0;
inline constexpr unsigned kWorldChannels = 2;

struct Membership {
  unsigned rank = 0, size = 1;
  unsigned cls = kNoClass;  // the class route, or kNoClass (its collectives run on the torus)
  unsigned context = 0;
  unsigned tasks_per_node = 1;
  // Task ids (node * tasks_per_node + task: the machine's numbering of its processors) in
  // rank order; members[rank] is this rank. Empty for the world and its duplicates, whose
  // ranks are the world's: a table of every rank in every task would take ranks² memory,
  // 17 GB on a 64x32x32 machine.
  std::vector<unsigned> members;
  // The nodes down from boot (null: none). The world then holds the tasks of the live nodes
  // in node order, and its rank w is not task w (fw::DownNodes::live_node).
  std::shared_ptr<const fw::DownNodes> down;
  unsigned local_index = 0;  // among this communicator's ranks on this node
  unsigned local_count = 1;

  // The world rank of task `t` (a task of a live node), and the task of world rank `w`.
  unsigned world_of_task(unsigned t) const { return down ? down->world_of_task(t, tasks_per_node) : t; }
  unsigned task_of_world(unsigned w) const { return down ? down->task_of_world(w, tasks_per_node) : w; }
  // The task id of rank `r` (std::out_of_range if there is none).
  unsigned task_id(unsigned r) const {
    if (members.empty() && r < size) return task_of_world(r);
    return members.at(r);
  }
  // The rank in the world communicator of rank `r` (std::out_of_range if there is none).
  unsigned world_rank(unsigned r) const {
    if (members.empty() && r < size) return r;
    return world_of_task(members.at(r));
  }
  unsigned node_of(unsigned r) const { return task_id(r) / tasks_per_node; }
  bool has_class_route() const { return cls != kNoClass; }
  // The world itself (not a duplicate): the barrier network is its barrier when it has the
  // machine tree's class route.
  bool is_world() const { return context == 0; }
  // Every rank of the world, in world order (the world and its duplicates).
  bool spans_world() const { return members.empty(); }
  // Every task of every node of the machine: the world with no node down.
  bool spans_machine() const { return members.empty() && !down; }
  // The task that drives the node's adapter for the node's ranks.
  bool is_leader() const { return local_index == 0; }
  // Every rank, starting at `root`: root, root+1, ..., root-1.
  std::vector<unsigned> rotated(unsigned root) const {
    std::vector<unsigned> g(size);
    for (unsigned i = 0; i < size; ++i) g[i] = (root + i) % size;
    return g;
  }
};

}  // namespace collnet::driver
