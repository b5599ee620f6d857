// SPDX-License-Identifier: Apache-2.0
// PartitionPlan: which blocks a machine is cut into, what it costs in cut wires, and the
// counts it refuses.
#include <gtest/gtest.h>

#include <set>

#include "firmware/torus_layout.hpp"
#include "systemc/partition_plan.hpp"
#include "systemc/tree_wiring.hpp"

namespace collnet::sim {
namespace {

MachineConfig machine(const std::string& shape) {
  MachineConfig m;
  m.shape = Shape::parse(shape);
  return m;
}

// Every node is in exactly one partition, the partitions' node lists agree with owner, and
// a partition is a box of the torus (its nodes' coordinates span a product of ranges).
void expect_consistent(const MachineConfig& m, const PartitionPlan& p) {
  const fw::TorusLayout torus(m.shape.dims());
  std::set<unsigned> seen;
  for (unsigned q = 0; q < p.partitions(); ++q) {
    ASSERT_FALSE(p.nodes[q].empty()) << "partition " << q << " is empty";
    std::array<std::set<unsigned>, 3> spans;
    for (unsigned r : p.nodes[q]) {
      EXPECT_EQ(p.owner.at(r), q);
      EXPECT_TRUE(seen.insert(r).second) << "node " << r << " twice";
      for (unsigned d = 0; d < 3; ++d) spans[d].insert(torus.coord(r)[d]);
    }
    EXPECT_EQ(p.nodes[q].size(), spans[0].size() * spans[1].size() * spans[2].size()) << "partition " << q;
  }
  EXPECT_EQ(seen.size(), m.shape.nodes());
}

TEST(PartitionPlan, OnePartitionCutsNothing) {
  const MachineConfig m = machine("4x4x4");
  const PartitionPlan p = PartitionPlan::cut(m, 1);
  expect_consistent(m, p);
  EXPECT_EQ(p.cut_wires, 0u);
  EXPECT_EQ(p.lookahead, 0u);
  EXPECT_EQ(p.describe(), "1 partition");
}

TEST(PartitionPlan, CutsTheLongestDimensionAndCountsTheWiresAcross) {
  const MachineConfig m = machine("8x4x4");
  const PartitionPlan p = PartitionPlan::cut(m, 2);
  expect_consistent(m, p);
  EXPECT_EQ(p.slabs, (std::array<unsigned, 3>{2, 1, 1}));
  EXPECT_EQ(p.nodes[0].size(), 64u);
  // Count the crossing wires independently: torus links across the two x planes (and the
  // wrap-around), both ways, and the tree's links with their barrier wires, both ways.
  const fw::TorusLayout torus(m.shape.dims());
  unsigned torus_cut = 0, tree_cut = 0;
  for (unsigned r = 0; r < 128; ++r)
    for (unsigned d = 0; d < 6; ++d) torus_cut += p.owner[r] != p.owner[torus.neighbour(r, d)];
  for (const TreeEdge& e : TreeWiring(128).edges()) tree_cut += p.owner[e.parent] != p.owner[e.child];
  EXPECT_EQ(torus_cut, 2u * 2 * 16);  // 2 cut planes x 16 links x 2 directions
  EXPECT_EQ(p.cut_wires, torus_cut + 4 * tree_cut);
  EXPECT_EQ(p.lookahead, 4u);
  EXPECT_NE(p.describe().find("x cut in 2"), std::string::npos) << p.describe();
}

TEST(PartitionPlan, CutsADimensionUnevenlyAndTwoDimensions) {
  const MachineConfig m = machine("4x4x4");
  const PartitionPlan three = PartitionPlan::cut(m, 3);
  expect_consistent(m, three);
  unsigned cut = 0, largest = 0;
  for (unsigned d = 0; d < 3; ++d) cut += three.slabs[d] > 1;
  for (const auto& b : three.nodes) largest = std::max<unsigned>(largest, static_cast<unsigned>(b.size()));
  EXPECT_EQ(cut, 1u);
  EXPECT_EQ(largest, 32u);  // slabs of 2, 1 and 1 planes
  const PartitionPlan twelve = PartitionPlan::cut(m, 12);
  expect_consistent(m, twelve);
  cut = 0;
  for (unsigned d = 0; d < 3; ++d) cut += twelve.slabs[d] > 1;
  EXPECT_GE(cut, 2u);
}

TEST(PartitionPlan, LookaheadIsTheShortestCutWire) {
  MachineConfig m = machine("4x4x4");
  m.tree_latency = 38;
  m.barrier_latency = 32;
  m.torus_latency = {60, 60, 60};
  EXPECT_EQ(PartitionPlan::cut(m, 2).lookahead, 32u);
}

TEST(PartitionPlan, RefusesCountsNoSlabsMake) {
  const MachineConfig m = machine("4x4x4");
  auto message = [&](unsigned parts) {
    try {
      PartitionPlan::cut(m, parts);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(0), "--partitions must be at least 1");
  EXPECT_NE(message(65).find("has only 64 nodes"), std::string::npos) << message(65);
  EXPECT_NE(message(7).find("cannot be cut into 7 blocks"), std::string::npos) << message(7);
  EXPECT_NE(message(7).find("at most 4, 4 and 4 slabs"), std::string::npos) << message(7);
  EXPECT_EQ(PartitionPlan::cut(m, 64).partitions(), 64u);
}

}  // namespace
}  // namespace collnet::sim
