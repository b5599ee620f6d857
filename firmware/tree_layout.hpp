// SPDX-License-Identifier: Apache-2.0
// The layout of the machine's tree, as the personality tells firmware: heap order over the
// node count. Rank 0 is the root; rank i reaches its parent (i-1)/2 on link 0 and its
// children 2i+1 and 2i+2 on links 1 and 2. The machine wires its links from this, and
// firmware computes class routes from it, so both always agree.
#pragma once

#include <vector>

namespace collnet::fw {

class TreeLayout {
 public:
  static constexpr unsigned kUpLink = 0;

  explicit TreeLayout(unsigned nodes) : nodes_(nodes) {}

  unsigned nodes() const { return nodes_; }
  static unsigned parent(unsigned rank) { return (rank - 1) / 2; }
  // The child of `rank` on link 1 or 2 (it exists if it is below nodes()).
  static unsigned child(unsigned rank, unsigned link) { return 2 * rank + link; }
  bool has_child(unsigned rank, unsigned link) const { return child(rank, link) < nodes_; }
  // The link of `parent(rank)` that leads to `rank`.
  static unsigned link_to(unsigned rank) { return rank % 2 == 1 ? 1 : 2; }
  // True if `node` is `root` or below it.
  static bool in_subtree(unsigned node, unsigned root) {
    while (node > root) node = parent(node);
    return node == root;
  }
  // The lowest common ancestor of a non-empty set of ranks.
  static unsigned common_ancestor(const std::vector<unsigned>& ranks);
  // Links between the root and the deepest node.
  unsigned depth() const;

 private:
  unsigned nodes_;
};

inline unsigned TreeLayout::common_ancestor(const std::vector<unsigned>& ranks) {
  unsigned a = ranks.front();
  for (unsigned r : ranks) {
    unsigned b = r;
    while (a != b) {
      if (a > b) a = parent(a);
      else b = parent(b);
    }
  }
  return a;
}

inline unsigned TreeLayout::depth() const {
  unsigned d = 0;
  for (unsigned r = nodes_ - 1; r > 0; r = parent(r)) ++d;
  return d;
}

}  // namespace collnet::fw
