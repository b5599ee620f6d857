// SPDX-License-Identifier: Apache-2.0
// The nodes that are down from boot, as the personality tells every node: down on every
// network (their torus links, tree links and barrier wires carry nothing), running no task.
// The live nodes keep their node numbers; the world communicator holds the tasks of the
// live nodes in node order, so its rank w runs on live_node(w / tasks per node).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "firmware/tree_layout.hpp"

namespace collnet::fw {

class DownNodes {
 public:
  DownNodes() = default;
  // `nodes` down of a machine of `machine_nodes`, in any order; throws
  // std::invalid_argument naming one outside the machine or listed twice.
  DownNodes(std::vector<unsigned> nodes, unsigned machine_nodes) : down_(std::move(nodes)), nodes_(machine_nodes) {
    std::sort(down_.begin(), down_.end());
    for (size_t i = 0; i < down_.size(); ++i) {
      if (down_[i] >= nodes_)
        throw std::invalid_argument("down node " + std::to_string(down_[i]) + " is not on a machine of " +
                                    std::to_string(nodes_) + " nodes");
      if (i > 0 && down_[i] == down_[i - 1])
        throw std::invalid_argument("down node " + std::to_string(down_[i]) + " is listed twice");
    }
  }

  bool empty() const { return down_.empty(); }
  const std::vector<unsigned>& list() const { return down_; }  // sorted
  unsigned machine_nodes() const { return nodes_; }
  unsigned live_count() const { return nodes_ - static_cast<unsigned>(down_.size()); }
  bool contains(unsigned node) const { return std::binary_search(down_.begin(), down_.end(), node); }

  // The live node of index i (0 <= i < live_count()), counting live nodes in node order.
  unsigned live_node(unsigned i) const {
    unsigned node = i;
    for (unsigned d : down_)
      if (d <= node) ++node;
    return node;
  }
  // The index of live node `node` among the live nodes.
  unsigned live_index(unsigned node) const {
    return node - static_cast<unsigned>(std::lower_bound(down_.begin(), down_.end(), node) - down_.begin());
  }

  // The world rank of task `task` (node * tasks_per_node + task on its node, a live node's)
  // and the task of world rank `w`: the world holds the live nodes' tasks in node order.
  unsigned world_of_task(unsigned task, unsigned tasks_per_node) const {
    return live_index(task / tasks_per_node) * tasks_per_node + task % tasks_per_node;
  }
  unsigned task_of_world(unsigned w, unsigned tasks_per_node) const {
    return live_node(w / tasks_per_node) * tasks_per_node + w % tasks_per_node;
  }

  // Whether the machine tree still joins every live node: the root is live and no live node
  // hangs below a down one (a down node's children are cut off from the rest of the tree).
  bool tree_joins_live_nodes() const {
    if (down_.empty()) return true;
    if (contains(0)) return live_count() == 0;
    const TreeLayout tree(nodes_);
    for (unsigned d : down_)
      for (unsigned link = 1; link <= 2; ++link)
        if (tree.has_child(d, link) && !contains(TreeLayout::child(d, link))) return false;
    return true;
  }

 private:
  std::vector<unsigned> down_;
  unsigned nodes_ = 0;
};

}  // namespace collnet::fw
