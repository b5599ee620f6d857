// SPDX-License-Identifier: Apache-2.0
#include "systemc/tree_wiring.hpp"

#include "firmware/tree_layout.hpp"

namespace collnet::sim {

std::vector<TreeEdge> TreeWiring::edges() const {
  std::vector<TreeEdge> out;
  for (unsigned child = 1; child < nodes_; ++child)
    out.push_back({fw::TreeLayout::parent(child), fw::TreeLayout::link_to(child), child, fw::TreeLayout::kUpLink});
  return out;
}

void TreeWiring::describe(unsigned rank, fw::Personality& p, const fw::DownNodes* down) const {
  const fw::TreeLayout tree(nodes_);
  const auto live = [down](unsigned node) { return down == nullptr || !down->contains(node); };
  const bool me = live(rank);
  p.tree_up_link = rank == 0 || !me || !live(fw::TreeLayout::parent(rank)) ? -1 : static_cast<int>(fw::TreeLayout::kUpLink);
  p.tree_down_links = 0;
  for (unsigned link = 1; link <= 2; ++link)
    if (me && tree.has_child(rank, link) && live(fw::TreeLayout::child(rank, link))) p.tree_down_links |= 1u << link;
}

unsigned TreeWiring::depth() const { return fw::TreeLayout(nodes_).depth(); }

}  // namespace collnet::sim
