// SPDX-License-Identifier: Apache-2.0
// The regular neighbourhoods (driver/neighbourhoods.hpp) as a property: on random
// member sets of many shapes, every neighbourhood is a gap-free rectangle of members in one
// plane, and every member is in exactly one; and the named irregular sets
// (reference/member_sets.hpp) cut as docs/neighbourhoods.md says.
#include <cstdio>
#include <random>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "driver/neighbourhoods.hpp"
#include "reference/member_sets.hpp"

namespace collnet {
namespace {

// What is wrong with `nb` as a partition of `members` into gap-free planes, or "".
std::string check(const fw::Coord& dims, const std::vector<unsigned>& members, const driver::Neighbourhoods& nb) {
  const fw::TorusLayout t(dims);
  std::vector<int> seen(t.nodes(), -1);
  for (unsigned k = 0; k < nb.list.size(); ++k) {
    const driver::Neighbourhood& h = nb.list[k];
    if (h.first == h.second || h.first > 2 || h.second > 2) return "neighbourhood " + std::to_string(k) + ": dimensions";
    if (h.len_first > dims[h.first] || h.len_second > dims[h.second]) return "neighbourhood " + std::to_string(k) + ": too long";
    std::set<unsigned> rect;
    for (unsigned j = 0; j < h.len_second; ++j)
      for (unsigned i = 0; i < h.len_first; ++i) rect.insert(h.at(t, i, j));
    if (rect.size() != size_t{h.len_first} * h.len_second) return "neighbourhood " + std::to_string(k) + ": overlaps itself";
    if (std::vector<unsigned>(rect.begin(), rect.end()) != h.nodes)
      return "neighbourhood " + std::to_string(k) + ": its nodes are not its rectangle";
    const unsigned third = 3 - h.first - h.second;
    for (unsigned n : h.nodes) {
      if (!std::binary_search(members.begin(), members.end(), n))
        return "neighbourhood " + std::to_string(k) + " has a gap at node " + std::to_string(n);
      if (t.coord(n)[third] != h.corner[third]) return "neighbourhood " + std::to_string(k) + " leaves its plane";
      if (seen[n] >= 0) return "node " + std::to_string(n) + " in neighbourhoods " + std::to_string(seen[n]) + " and " + std::to_string(k);
      seen[n] = static_cast<int>(k);
      if (nb.of_node[n] != static_cast<int>(k)) return "of_node of node " + std::to_string(n);
    }
  }
  for (unsigned m : members)
    if (seen[m] < 0) return "member " + std::to_string(m) + " in no neighbourhood";
  for (unsigned n = 0; n < t.nodes(); ++n)
    if (seen[n] < 0 && nb.of_node[n] != -1) return "non-member " + std::to_string(n) + " has a neighbourhood";
  return "";
}

TEST(Neighbourhoods, RandomSetsArePartitionedIntoGapFreePlanes) {
  const uint64_t seed = 20261123;
  std::printf("[ seed     ] %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  const std::vector<fw::Coord> shapes = {{1, 1, 1}, {2, 1, 1}, {3, 3, 1}, {4, 4, 4}, {8, 8, 8}, {5, 3, 2}, {1, 7, 4}, {16, 4, 2}};
  for (int trial = 0; trial < 400; ++trial) {
    const fw::Coord dims = shapes[trial % shapes.size()];
    const unsigned nodes = dims[0] * dims[1] * dims[2];
    std::bernoulli_distribution take(0.05 + 0.9 * (trial % 10) / 9.0);
    std::vector<unsigned> members;
    for (unsigned n = 0; n < nodes; ++n)
      if (take(rng)) members.push_back(n);
    if (members.empty()) members.push_back(static_cast<unsigned>(rng() % nodes));
    const driver::Neighbourhoods nb = driver::find_neighbourhoods(dims, members);
    ASSERT_EQ(check(dims, members, nb), "") << "trial " << trial;
    // Every orientation is a partition too, and the chosen one has the fewest.
    for (unsigned a = 0; a < 3; ++a)
      for (unsigned b = 0; b < 3; ++b) {
        if (a == b) continue;
        const driver::Neighbourhoods o = driver::find_neighbourhoods(dims, members, a, b);
        ASSERT_EQ(check(dims, members, o), "") << "trial " << trial << " orientation " << a << b;
        EXPECT_LE(nb.list.size(), o.list.size());
      }
  }
}

TEST(Neighbourhoods, TheNamedSetsCutAsDocumented) {
  const fw::Coord dims{8, 8, 8};
  auto count = [&](const char* name) {
    const std::vector<unsigned> m = reference::member_nodes(name, dims, 1);
    const driver::Neighbourhoods nb = driver::find_neighbourhoods(dims, m);
    EXPECT_EQ(check(dims, m, nb), "") << name;
    return nb.list.size();
  };
  EXPECT_EQ(count("0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"), 1u) << "two whole rows of x: one plane";
  EXPECT_EQ(count("l-shape"), 2u);
  EXPECT_EQ(count("two-boxes"), 4u) << "two planes of 2x2 per box";
  EXPECT_EQ(count("checkerboard"), 256u) << "no two members are neighbours";
  EXPECT_EQ(count("plane-holes"), 10u) << "the row y = 0, three columns between the holes, six pieces beside them";
  // A whole machine: one plane per value of the third dimension.
  std::vector<unsigned> all(512);
  for (unsigned n = 0; n < 512; ++n) all[n] = n;
  EXPECT_EQ(driver::find_neighbourhoods(dims, all).list.size(), 8u);
}

TEST(Neighbourhoods, LocalRootsAreTheRootInItsOwnAndACornerElsewhere) {
  const fw::Coord dims{8, 8, 8};
  const fw::TorusLayout t(dims);
  const std::vector<unsigned> m = reference::member_nodes("l-shape", dims, 1);
  const driver::Neighbourhoods nb = driver::find_neighbourhoods(dims, m);
  const unsigned root = 9;  // (1, 1, 0): in the first neighbourhood, not its corner
  ASSERT_EQ(nb.of_node[root], 0);
  EXPECT_EQ(nb.local_root(0, root, t), root);
  EXPECT_EQ(nb.local_root(1, root, t), t.rank(nb.list[1].corner));
}

TEST(MemberSets, BadSpecificationsAreNamed) {
  const fw::Coord dims{4, 4, 4};
  auto error = [&](const std::string& spec) {
    try {
      reference::member_nodes(spec, dims, 1);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("random:0"), "'random:0': the percentage must be above 0 and at most 100");
  EXPECT_EQ(error("random:x"), "'random:x': 'x' is not a percentage");
  EXPECT_EQ(error("1,99"), "node 99 is not on a machine of 64 nodes");
  EXPECT_EQ(error("no-such-set"),
            "'no-such-set' is neither a list of nodes, a readable file nor one of: a list, a file, random:P, "
            "plane-holes, checkerboard, l-shape, two-boxes");
  EXPECT_EQ(reference::member_nodes("random:1", dims, 3).size() >= 2, true) << "at least two members";
}

}  // namespace
}  // namespace collnet
