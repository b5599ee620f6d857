#include "tree_wiring.hpp"

namespace collnet::sim {

std::vector<TreeEdge> TreeWiring::edges() const {
  std::vector<TreeEdge> out;
  for (unsigned child = 1; child < nodes_; ++child) {
    const unsigned parent = (child - 1) / 2;
    out.push_back({parent, child == 2 * parent + 1 ? 1u : 2u, child, kUpLink});
  }
  return out;
}

void TreeWiring::describe(unsigned rank, fw::Personality& p) const {
  p.tree_up_link = rank == 0 ? -1 : static_cast<int>(kUpLink);
  p.tree_down_links = 0;
  if (2 * rank + 1 < nodes_) p.tree_down_links |= 1u << 1;
  if (2 * rank + 2 < nodes_) p.tree_down_links |= 1u << 2;
}

unsigned TreeWiring::depth() const {
  unsigned d = 0;
  for (unsigned r = nodes_ - 1; r > 0; r = (r - 1) / 2) ++d;
  return d;
}

}  // namespace collnet::sim
