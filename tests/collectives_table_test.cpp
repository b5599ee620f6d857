// SPDX-License-Identifier: Apache-2.0
// The reference model's table of collectives (reference/collectives.hpp): how long each
// member's buffers are, and how the vector forms' counts pack.
#include <gtest/gtest.h>

#include "reference/collectives.hpp"
#include "reference/counts.hpp"

namespace collnet::reference {
namespace {

Lengths lengths_of(const std::string& name, size_t count, const Counts& counts, unsigned root, size_t members,
                   size_t k) {
  const Collective* c = find_collective(name);
  EXPECT_NE(c, nullptr) << name;
  return member_lengths(*c, count, counts, root, members, k);
}

TEST(CollectivesTable, WholeBufferCollectivesHoldCountElementsAndTheGathersCountPerMember) {
  const Counts none;
  EXPECT_EQ(lengths_of("allreduce", 5, none, 0, 4, 2).send, 5u);
  EXPECT_EQ(lengths_of("allreduce", 5, none, 0, 4, 2).recv, 5u);
  EXPECT_EQ(lengths_of("gather", 5, none, 1, 4, 2).send, 5u);
  EXPECT_EQ(lengths_of("gather", 5, none, 1, 4, 2).recv, 20u) << "every member's block, whether root or not";
  EXPECT_EQ(lengths_of("allgather", 5, none, 0, 4, 3).recv, 20u);
}

TEST(CollectivesTable, PersonalisedFormsHoldABlockPerMember) {
  const Counts none;
  EXPECT_EQ(lengths_of("alltoall", 3, none, 0, 4, 1).send, 12u);
  EXPECT_EQ(lengths_of("alltoall", 3, none, 0, 4, 1).recv, 12u);
  EXPECT_EQ(lengths_of("scatter", 3, none, 2, 4, 2).send, 12u) << "the root sends a block to every member";
  EXPECT_EQ(lengths_of("scatter", 3, none, 2, 4, 1).send, 0u);
  EXPECT_EQ(lengths_of("scatter", 3, none, 2, 4, 1).recv, 3u);
  EXPECT_EQ(lengths_of("reduce_scatter_block", 3, none, 0, 4, 0).send, 12u);
  EXPECT_EQ(lengths_of("reduce_scatter_block", 3, none, 0, 4, 0).recv, 3u);
}

TEST(CollectivesTable, VectorFormsTakeTheirLengthsFromTheCounts) {
  Counts c;
  c.member = {3, 0, 2};
  c.pair = {{1, 0, 2}, {0, 0, 4}, {5, 1, 1}};
  EXPECT_EQ(total(c.member), 5u);
  EXPECT_EQ(packed(c.member), (std::vector<size_t>{0, 3, 3}));
  EXPECT_EQ(sent_to(c, 2), (std::vector<size_t>{2, 4, 1}));
  EXPECT_EQ(lengths_of("alltoallv", 0, c, 0, 3, 2).send, 7u) << "what member 2 sends every member";
  EXPECT_EQ(lengths_of("alltoallv", 0, c, 0, 3, 2).recv, 7u) << "what every member sends member 2";
  EXPECT_EQ(lengths_of("gatherv", 0, c, 1, 3, 1).recv, 5u) << "the root receives every member's count";
  EXPECT_EQ(lengths_of("gatherv", 0, c, 1, 3, 0).recv, 0u);
  EXPECT_EQ(lengths_of("scatterv", 0, c, 1, 3, 0).recv, 3u);
  EXPECT_EQ(lengths_of("reduce_scatter", 0, c, 0, 3, 2).send, 5u);
  EXPECT_EQ(lengths_of("reduce_scatter", 0, c, 0, 3, 2).recv, 2u);
}

TEST(CollectivesTable, OnlyTheVectorFormsTakeCountsAndOnlyBarrierMovesNoData) {
  for (const Collective& c : collectives()) {
    const std::string name = c.name;
    EXPECT_EQ(c.takes_counts, name.back() == 'v' || name == "reduce_scatter") << name;
    EXPECT_EQ(c.moves_data, name != "barrier") << name;
    EXPECT_EQ(static_cast<bool>(c.expect), c.moves_data) << name << ": a reference exactly for what moves data";
    EXPECT_TRUE(!c.takes_counts || c.lengths) << name << ": counts decide the buffers' lengths";
  }
  EXPECT_EQ(seeded_counts_for(*find_collective("allreduce"), 1, 4, 8).member.size(), 0u)
      << "no counts drawn for a collective that takes none";
  EXPECT_EQ(seeded_counts_for(*find_collective("gatherv"), 1, 4, 8).member.size(), 4u);
}

}  // namespace
}  // namespace collnet::reference
