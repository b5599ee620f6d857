// SPDX-License-Identifier: Apache-2.0
// How a machine is cut into blocks of the torus, one per process (--partitions P): each
// dimension into slabs (px x py x pz = P, each at most the dimension's size, uneven when
// the size does not divide), chosen to cut the fewest wires — torus links, tree links and
// the barrier wires beside them — and, among equals, the longest dimensions first. A
// node, with its processors and tasks, is always whole in one partition; the wires that
// cross a cut are carried between processes once per quantum, and the shortest latency of
// any of them is how many cycles a quantum may have (the lookahead).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "systemc/machine_config.hpp"

namespace collnet::sim {

struct PartitionPlan {
  std::array<unsigned, 3> slabs{1, 1, 1};  // blocks along x, y and z
  std::vector<unsigned> owner;              // each node's partition
  std::vector<std::vector<unsigned>> nodes;  // each partition's nodes, ascending
  unsigned cut_wires = 0;                   // wires from one partition to another
  unsigned lookahead = 0;                   // the shortest latency among them (0: none is cut)

  unsigned partitions() const { return static_cast<unsigned>(nodes.size()); }
  // The partition of node `rank`'s slab coordinates (x fastest).
  unsigned partition_of(const std::array<unsigned, 3>& coord, const std::array<unsigned, 3>& dims) const;
  // "2 partitions (x cut in 2): 32 + 32 nodes, 128 wires cut, lookahead 4 cycles".
  std::string describe() const;

  // The plan for `parts` partitions of `machine`. Throws std::invalid_argument naming the
  // limit when there is none: parts 0, more parts than nodes, or a count no slabs make
  // (7 of 4x4x4: every dimension holds at most 4 slabs).
  static PartitionPlan cut(const MachineConfig& machine, unsigned parts);
};

}  // namespace collnet::sim
