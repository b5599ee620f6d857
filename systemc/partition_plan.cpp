// SPDX-License-Identifier: Apache-2.0
#include "systemc/partition_plan.hpp"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "firmware/torus_layout.hpp"
#include "systemc/tree_wiring.hpp"

namespace collnet::sim {

unsigned PartitionPlan::partition_of(const std::array<unsigned, 3>& coord, const std::array<unsigned, 3>& dims) const {
  unsigned p = 0;
  for (unsigned d = 3; d-- > 0;) p = p * slabs[d] + coord[d] * slabs[d] / dims[d];  // uneven slabs differ by one
  return p;
}

std::string PartitionPlan::describe() const {
  std::ostringstream s;
  s << partitions() << (partitions() == 1 ? " partition" : " partitions");
  if (partitions() > 1) {
    s << " (";
    const char* axis = "xyz";
    bool first = true;
    for (unsigned d = 0; d < 3; ++d)
      if (slabs[d] > 1) s << (first ? "" : ", ") << axis[d] << " cut in " << slabs[d], first = false;
    s << "): ";
    for (size_t p = 0; p < nodes.size(); ++p) s << (p ? " + " : "") << nodes[p].size();
    s << " nodes, " << cut_wires << " wires cut, lookahead " << lookahead << " cycles";
  }
  return s.str();
}

namespace {
// Every wire of the machine as (from node, to node, latency), both directions.
struct Wire {
  unsigned from, to, latency;
};
std::vector<Wire> wires(const MachineConfig& m) {
  std::vector<Wire> w;
  for (const TreeEdge& e : TreeWiring(m.shape.nodes()).edges()) {
    w.push_back({e.parent, e.child, m.tree_latency});
    w.push_back({e.child, e.parent, m.tree_latency});
    w.push_back({e.parent, e.child, m.barrier_latency});
    w.push_back({e.child, e.parent, m.barrier_latency});
  }
  const fw::TorusLayout torus(m.shape.dims());
  for (unsigned r = 0; r < m.shape.nodes(); ++r)
    for (unsigned d = 0; d < 6; ++d)
      if (torus.has_link(d)) w.push_back({r, torus.neighbour(r, d), m.torus_latency[d / 2]});
  return w;
}
}  // namespace

PartitionPlan PartitionPlan::cut(const MachineConfig& machine, unsigned parts) {
  const std::array<unsigned, 3> dims = machine.shape.dims();
  const unsigned n = machine.shape.nodes();
  if (parts == 0) throw std::invalid_argument("--partitions must be at least 1");
  if (parts > n)
    throw std::invalid_argument("--partitions " + std::to_string(parts) + ": the " + machine.shape.str() +
                                " machine has only " + std::to_string(n) + " nodes (a node is never split)");
  const fw::TorusLayout torus(dims);
  const std::vector<Wire> all = wires(machine);
  PartitionPlan best;
  // Cost: wires cut, then the largest block (balance), then cutting the longer dimensions.
  std::tuple<unsigned, size_t, int> best_cost{std::numeric_limits<unsigned>::max(), 0, 0};
  for (unsigned px = 1; px <= std::min(parts, dims[0]); ++px) {
    for (unsigned py = 1; py <= std::min(parts / px, dims[1]); ++py) {
      if (parts % (px * py) != 0) continue;
      const unsigned pz = parts / (px * py);
      if (pz > dims[2]) continue;
      PartitionPlan plan;
      plan.slabs = {px, py, pz};
      plan.nodes.resize(parts);
      plan.owner.resize(n);
      for (unsigned r = 0; r < n; ++r) {
        const fw::Coord c = torus.coord(r);
        plan.owner[r] = plan.partition_of(c, dims);
        plan.nodes[plan.owner[r]].push_back(r);
      }
      unsigned lookahead = std::numeric_limits<unsigned>::max();
      for (const Wire& w : all)
        if (plan.owner[w.from] != plan.owner[w.to]) {
          ++plan.cut_wires;
          lookahead = std::min(lookahead, w.latency);
        }
      plan.lookahead = plan.cut_wires ? lookahead : 0;
      size_t largest = 0;
      for (const auto& b : plan.nodes) largest = std::max(largest, b.size());
      // Longer dimensions cut first: the sum of each cut dimension's size, negated (smaller wins).
      int longest = 0;
      for (unsigned d = 0; d < 3; ++d) longest -= plan.slabs[d] > 1 ? static_cast<int>(dims[d]) : 0;
      const std::tuple<unsigned, size_t, int> cost{plan.cut_wires, largest, longest};
      if (cost < best_cost) {
        best_cost = cost;
        best = std::move(plan);
      }
    }
  }
  if (best.nodes.empty())
    throw std::invalid_argument("--partitions " + std::to_string(parts) + ": the " + machine.shape.str() +
                                " machine cannot be cut into " + std::to_string(parts) +
                                " blocks (x, y and z into at most " + std::to_string(dims[0]) + ", " +
                                std::to_string(dims[1]) + " and " + std::to_string(dims[2]) +
                                " slabs, whose product must be the partition count)");
  if (best.cut_wires && best.lookahead == 0)
    throw std::invalid_argument("--partitions " + std::to_string(parts) +
                                ": a wire with latency 0 crosses the cut; no quantum can cover it");
  return best;
}

}  // namespace collnet::sim
