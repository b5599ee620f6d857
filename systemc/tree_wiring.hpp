// SPDX-License-Identifier: Apache-2.0
// How the machine wires its tree: by fw::TreeLayout (heap order: rank 0 at the root, the
// children of rank i are 2i+1 on i's link 1 and 2i+2 on link 2, the parent on link 0).
#pragma once

#include <vector>

#include "firmware/personality.hpp"

namespace collnet::sim {

struct TreeEdge {
  unsigned parent, parent_link;  // parent side
  unsigned child, child_link;    // child side
};

class TreeWiring {
 public:
  explicit TreeWiring(unsigned nodes) : nodes_(nodes) {}

  std::vector<TreeEdge> edges() const;
  // Fills the tree part of a node's personality: the links to live neighbours (a down
  // node's links lead nowhere; `down` may be null).
  void describe(unsigned rank, fw::Personality& p, const fw::DownNodes* down = nullptr) const;
  // Number of links between the root and the deepest node.
  unsigned depth() const;

 private:
  unsigned nodes_;
};

}  // namespace collnet::sim
