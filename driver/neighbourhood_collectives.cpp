// SPDX-License-Identifier: Apache-2.0
// Seed 002's rooted collectives on an irregular communicator (docs/neighbourhoods.md):
// bcast, reduce, gather and scatter in two phases, within every regular neighbourhood (a
// gap-free plane of the members' nodes, driver/neighbourhoods.hpp) and among the
// neighbourhoods' local roots.
#include <algorithm>
#include <map>

#include "driver/communicator.hpp"

namespace collnet::driver {

const Neighbourhoods& Communicator::neighbourhoods() {
  if (!neighbourhoods_) {
    std::vector<unsigned> nodes;
    for (unsigned r = 0; r < size_; ++r) nodes.push_back(node_of(r));
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    neighbourhoods_ = std::make_shared<const Neighbourhoods>(find_neighbourhoods(task_.personality.shape, nodes));
  }
  return *neighbourhoods_;
}

Communicator::Phases Communicator::phases(unsigned root) {
  const Neighbourhoods& nb = neighbourhoods();
  const fw::TorusLayout t(task_.personality.shape);
  const unsigned root_node = node_of(root);
  std::map<unsigned, std::vector<unsigned>> on_node;  // ranks in increasing order
  for (unsigned r = 0; r < size_; ++r) on_node[node_of(r)].push_back(r);
  Phases ph;
  for (unsigned k : nb.order(root_node)) {
    const unsigned lr = nb.local_root(k, root_node, t);
    const unsigned acting = lr == root_node ? root : on_node.at(lr).front();
    std::vector<unsigned> g{acting};
    for (unsigned node : nb.list[k].nodes)
      for (unsigned r : on_node.at(node))
        if (r != acting) g.push_back(r);
    ph.roots.push_back(acting);
    if (nb.of_node[task_.node] == static_cast<int>(k)) {
      ph.local = g;
      ph.mine = &nb.list[k];
      ph.local_root_node = lr;
    }
    ph.groups.push_back(std::move(g));
  }
  return ph;
}

// ------------------------------------------------------------------ the collectives

void Communicator::neighbourhood_bcast(void* buf, size_t bytes, unsigned root) {
  const Phases ph = phases(root);
  // Among the local roots first, then from each local root over its plane.
  if (std::find(ph.roots.begin(), ph.roots.end(), rank_) != ph.roots.end()) group_bcast(ph.roots, buf, bytes);
  const fw::TorusLayout t(task_.personality.shape);
  const Neighbourhood& nb = *ph.mine;
  const fw::Coord lc = t.coord(ph.local_root_node), me = t.coord(task_.node);
  const fw::Coord& dims = t.dims();
  const unsigned p1 = (lc[nb.first] + dims[nb.first] - nb.corner[nb.first]) % dims[nb.first];
  const unsigned p2 = (lc[nb.second] + dims[nb.second] - nb.corner[nb.second]) % dims[nb.second];
  // The local root along the run of the first dimension through it, both ways to the ends
  // of the plane; every node of that run along the second dimension, both ways.
  std::vector<Line> lines;
  auto both = [&](unsigned dim, unsigned before, unsigned after) {
    if (after > 0) lines.push_back(Line{dim, static_cast<int>(after)});
    if (before > 0) lines.push_back(Line{dim, -static_cast<int>(before)});
  };
  if (task_.node == ph.local_root_node) both(nb.first, p1, nb.len_first - 1 - p1);
  if (me[nb.second] == lc[nb.second]) both(nb.second, p2, nb.len_second - 1 - p2);
  line_bcast(buf, bytes, ph.local.front(), lines);
}

std::vector<uint64_t> Communicator::neighbourhood_reduce(const Encoding& e, std::vector<uint64_t> msg,
                                                         unsigned root) {
  const Phases ph = phases(root);
  group_reduce(ph.local, e, msg);
  if (std::find(ph.roots.begin(), ph.roots.end(), rank_) != ph.roots.end()) group_reduce(ph.roots, e, msg);
  return msg;
}

void Communicator::neighbourhood_gather(const void* send, void* recv, size_t bytes, unsigned root) {
  const Phases ph = phases(root);
  std::vector<unsigned char> local(rank_ == ph.local.front() ? ph.local.size() * bytes : 0);
  group_gather(ph.local, std::vector<size_t>(ph.local.size(), bytes), send, local.data());
  if (std::find(ph.roots.begin(), ph.roots.end(), rank_) == ph.roots.end()) return;
  std::vector<size_t> sizes;
  for (const auto& g : ph.groups) sizes.push_back(g.size() * bytes);
  std::vector<unsigned char> all(rank_ == root ? size_t{size_} * bytes : 0);
  group_gather(ph.roots, sizes, local.data(), all.data());
  if (rank_ != root) return;
  // Neighbourhood by neighbourhood, each in its group's order: back to rank order.
  unsigned char* out = static_cast<unsigned char*>(recv);
  size_t at = 0;
  for (const auto& g : ph.groups)
    for (unsigned r : g) {
      copy_local(out + size_t{r} * bytes, all.data() + at, bytes);
      at += bytes;
    }
}

void Communicator::neighbourhood_scatter(const void* send, void* recv, size_t bytes, unsigned root) {
  const Phases ph = phases(root);
  const bool is_local_root = rank_ == ph.local.front();
  std::vector<unsigned char> local(is_local_root ? ph.local.size() * bytes : 0);
  if (std::find(ph.roots.begin(), ph.roots.end(), rank_) != ph.roots.end()) {
    std::vector<size_t> sizes;
    for (const auto& g : ph.groups) sizes.push_back(g.size() * bytes);
    std::vector<unsigned char> all;
    if (rank_ == root) {  // rank order into neighbourhood order
      all.resize(size_t{size_} * bytes);
      const unsigned char* in = static_cast<const unsigned char*>(send);
      size_t at = 0;
      for (const auto& g : ph.groups)
        for (unsigned r : g) {
          copy_local(all.data() + at, in + size_t{r} * bytes, bytes);
          at += bytes;
        }
    }
    group_scatter(ph.roots, sizes, all.data(), local.data());
  }
  group_scatter(ph.local, std::vector<size_t>(ph.local.size(), bytes), local.data(),
                recv == kInPlace ? nullptr : recv);
}

}  // namespace collnet::driver
