// SPDX-License-Identifier: Apache-2.0
#include "driver/neighbourhood_collectives.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "driver/neighbourhoods.hpp"
#include "driver/reduction.hpp"
#include "driver/torus_messages.hpp"
#include "firmware/torus_layout.hpp"

namespace collnet::driver::neighbourhood {

using torus::group_bcast;
using torus::group_gather;
using torus::group_reduce;
using torus::group_scatter;
using torus::Line;

namespace {

size_t block_bytes(const CollectiveContext& c) { return c.call.count * native_bytes(c.call.type, false); }

// A rooted collective's two phases: this rank's neighbourhood's ranks (its local root's
// rank first), every local root's rank (the root first), and every neighbourhood's ranks
// in that order.
struct Phases {
  std::vector<unsigned> local, roots;
  std::vector<std::vector<unsigned>> groups;
  const Neighbourhood* mine = nullptr;
  unsigned local_root_node = 0;
  bool is_root(unsigned rank) const { return std::find(roots.begin(), roots.end(), rank) != roots.end(); }
};

// The regular neighbourhoods of the communicator's nodes (found once).
const Neighbourhoods& neighbourhoods(CollectiveContext& c) {
  if (!c.state.neighbourhoods) {
    std::vector<unsigned> nodes;
    for (unsigned r = 0; r < c.size(); ++r) nodes.push_back(c.group.node_of(r));
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    c.state.neighbourhoods =
        std::make_shared<const Neighbourhoods>(find_neighbourhoods(c.task.personality.shape, nodes));
  }
  return *c.state.neighbourhoods;
}

Phases phases(CollectiveContext& c, unsigned root) {
  const Neighbourhoods& nb = neighbourhoods(c);
  const fw::TorusLayout t(c.task.personality.shape);
  const unsigned root_node = c.group.node_of(root);
  std::map<unsigned, std::vector<unsigned>> on_node;  // ranks in increasing order
  for (unsigned r = 0; r < c.size(); ++r) on_node[c.group.node_of(r)].push_back(r);
  Phases ph;
  for (unsigned k : nb.order(root_node)) {
    const unsigned lr = nb.local_root(k, root_node, t);
    const unsigned acting = lr == root_node ? root : on_node.at(lr).front();
    std::vector<unsigned> g{acting};
    for (unsigned node : nb.list[k].nodes)
      for (unsigned r : on_node.at(node))
        if (r != acting) g.push_back(r);
    ph.roots.push_back(acting);
    if (nb.of_node[c.task.node] == static_cast<int>(k)) {
      ph.local = g;
      ph.mine = &nb.list[k];
      ph.local_root_node = lr;
    }
    ph.groups.push_back(std::move(g));
  }
  return ph;
}

}  // namespace

void bcast(CollectiveContext& c) {
  void* buf = c.call.recv;
  const size_t bytes = block_bytes(c);
  const Phases ph = phases(c, c.call.root);
  // Among the local roots first, then from each local root over its plane.
  if (ph.is_root(c.rank())) group_bcast(c, ph.roots, buf, bytes);
  const fw::TorusLayout t(c.task.personality.shape);
  const Neighbourhood& nb = *ph.mine;
  const fw::Coord lc = t.coord(ph.local_root_node), me = t.coord(c.task.node);
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
  if (c.task.node == ph.local_root_node) both(nb.first, p1, nb.len_first - 1 - p1);
  if (me[nb.second] == lc[nb.second]) both(nb.second, p2, nb.len_second - 1 - p2);
  torus::line_bcast(c, buf, bytes, ph.local.front(), lines);
}

namespace {

// The values of reduce: within the neighbourhood to its local root, then among the local
// roots to the root.
std::vector<uint64_t> reduce_message(CollectiveContext& c, const Encoding& e, std::vector<uint64_t> msg) {
  if (c.size() == 1 || msg.empty()) return msg;
  const Phases ph = phases(c, c.call.root);
  group_reduce(c, ph.local, e, msg);
  if (ph.is_root(c.rank())) group_reduce(c, ph.roots, e, msg);
  return msg;
}

}  // namespace

void reduce(CollectiveContext& c) { reduce_native(c, at_root(c), torus::on_torus(reduce_message)); }

void gather(CollectiveContext& c) {
  const unsigned root = c.call.root;
  const size_t bytes = block_bytes(c);
  const Phases ph = phases(c, root);
  std::vector<unsigned char> local(c.rank() == ph.local.front() ? ph.local.size() * bytes : 0);
  group_gather(c, ph.local, std::vector<size_t>(ph.local.size(), bytes), c.call.send, local.data());
  if (!ph.is_root(c.rank())) return;
  std::vector<size_t> sizes;
  for (const auto& g : ph.groups) sizes.push_back(g.size() * bytes);
  std::vector<unsigned char> all(c.rank() == root ? size_t{c.size()} * bytes : 0);
  group_gather(c, ph.roots, sizes, local.data(), all.data());
  if (c.rank() != root) return;
  // Neighbourhood by neighbourhood, each in its group's order: back to rank order.
  unsigned char* out = static_cast<unsigned char*>(c.call.recv);
  size_t at = 0;
  for (const auto& g : ph.groups)
    for (unsigned r : g) {
      c.copy_local(out + size_t{r} * bytes, all.data() + at, bytes);
      at += bytes;
    }
}

void scatter(CollectiveContext& c) {
  const unsigned root = c.call.root;
  const size_t bytes = block_bytes(c);
  const Phases ph = phases(c, root);
  const bool is_local_root = c.rank() == ph.local.front();
  std::vector<unsigned char> local(is_local_root ? ph.local.size() * bytes : 0);
  if (ph.is_root(c.rank())) {
    std::vector<size_t> sizes;
    for (const auto& g : ph.groups) sizes.push_back(g.size() * bytes);
    std::vector<unsigned char> all;
    if (c.rank() == root) {  // rank order into neighbourhood order
      all.resize(size_t{c.size()} * bytes);
      const unsigned char* in = static_cast<const unsigned char*>(c.call.send);
      size_t at = 0;
      for (const auto& g : ph.groups)
        for (unsigned r : g) {
          c.copy_local(all.data() + at, in + size_t{r} * bytes, bytes);
          at += bytes;
        }
    }
    group_scatter(c, ph.roots, sizes, all.data(), local.data());
  }
  group_scatter(c, ph.local, std::vector<size_t>(ph.local.size(), bytes), local.data(),
                c.call.recv == kInPlace ? nullptr : c.call.recv);
}

}  // namespace collnet::driver::neighbourhood
