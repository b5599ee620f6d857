// How the machine wires its tree: rank 0 at the root, the children of rank i are ranks
// 2i+1 (on i's link 1) and 2i+2 (on i's link 2), and every non-root node reaches its
// parent on its link 0. This is the only place that knows it.
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
  static constexpr unsigned kUpLink = 0;

  explicit TreeWiring(unsigned nodes) : nodes_(nodes) {}

  std::vector<TreeEdge> edges() const;
  // Fills the tree part of a node's personality.
  void describe(unsigned rank, fw::Personality& p) const;
  // Number of links between the root and the deepest node.
  unsigned depth() const;

 private:
  unsigned nodes_;
};

}  // namespace collnet::sim
