// SPDX-License-Identifier: Apache-2.0
// Encodings the firmware owns (header, class route), the machine shape parser and the
// tree wiring the machine and firmware agree on.
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "driver/error.hpp"
#include "driver/op.hpp"
#include "firmware/down_nodes.hpp"
#include "firmware/packet.hpp"
#include "firmware/torus_routes.hpp"
#include "systemc/shape.hpp"
#include "systemc/tree_wiring.hpp"

namespace collnet {
namespace {

using fw::AluOp;
using fw::ClassRoute;
using fw::Header;

TEST(Header, PutsEveryFieldWhereThePackageSays) {
  Header h;
  h.cls = 0xA;
  h.p2p = true;
  h.irq = false;
  h.op = AluOp::Add;
  h.size_words = 4;
  h.tag = 0x1234;
  const uint32_t w = h.encode();
  EXPECT_EQ(w >> 28, 0xAu);
  EXPECT_EQ((w >> 27) & 1, 1u);
  EXPECT_EQ((w >> 26) & 1, 0u);
  EXPECT_EQ((w >> 23) & 7, 6u);
  EXPECT_EQ((w >> 16) & 0x7f, 3u);
  EXPECT_EQ((w >> 2) & 0x3fff, 0x1234u);
  EXPECT_EQ(w & 3, 0u);
}

TEST(Header, RoundTripsThroughItsEncoding) {
  for (unsigned cls = 0; cls < 16; ++cls)
    for (unsigned op = 0; op < 7; ++op)
      for (unsigned size : {1u, 4u, 128u}) {
        Header h;
        h.cls = cls;
        h.op = static_cast<AluOp>(op);
        h.size_words = size;
        h.tag = (cls * 977 + op) & 0x3fff;
        h.irq = op & 1;
        EXPECT_EQ(Header::decode(h.encode()), h) << h.describe();
      }
}

TEST(Header, RefusesFieldsThatDoNotFit) {
  Header h;
  h.cls = 16;
  EXPECT_THROW(h.encode(), std::invalid_argument);
  h.cls = 0;
  h.tag = 1u << 14;
  EXPECT_THROW(h.encode(), std::invalid_argument);
  h.tag = 0;
  h.size_words = 0;
  EXPECT_THROW(h.encode(), std::invalid_argument);
  h.size_words = 129;
  EXPECT_THROW(h.encode(), std::invalid_argument);
}

TEST(ClassRoute, RoundTripsAndDescribesItself) {
  ClassRoute r;
  r.up_link = 0;
  r.down_mask = 0b110;
  r.local_source = true;
  r.local_destination = false;
  const ClassRoute back = ClassRoute::decode(r.encode());
  EXPECT_EQ(back.up_link, 0u);
  EXPECT_EQ(back.down_mask, 0b110u);
  EXPECT_TRUE(back.local_source);
  EXPECT_FALSE(back.local_destination);
  EXPECT_EQ(r.describe(), "{up 0, down 1 2, contributes}");
  r.up_link = 5;
  EXPECT_THROW(r.encode(), std::invalid_argument);
}

TEST(Shape, ParsesXyz) {
  const sim::Shape s = sim::Shape::parse("5x3x1");
  EXPECT_EQ(s.x, 5u);
  EXPECT_EQ(s.y, 3u);
  EXPECT_EQ(s.z, 1u);
  EXPECT_EQ(s.nodes(), 15u);
  EXPECT_EQ(s.str(), "5x3x1");
}

TEST(Shape, RejectsMalformedShapesNamingThem) {
  for (const char* bad : {"", "4x4", "4x4x4x4", "0x1x1", "1x0x1", "ax1x1", "4x4x", "-1x1x1", "65x1x1", "4 x4x4"}) {
    try {
      sim::Shape::parse(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << "message does not quote the input: " << e.what();
    }
  }
}

TEST(TreeWiring, ChildrenOfIAre2iPlus1And2iPlus2) {
  const sim::TreeWiring w(7);
  const auto edges = w.edges();
  ASSERT_EQ(edges.size(), 6u);
  for (const auto& e : edges) {
    EXPECT_EQ(e.parent, (e.child - 1) / 2);
    EXPECT_EQ(e.parent_link, e.child % 2 == 1 ? 1u : 2u);
    EXPECT_EQ(e.child_link, 0u);
  }
  EXPECT_EQ(w.depth(), 2u);
  EXPECT_EQ(sim::TreeWiring(1).depth(), 0u);
  EXPECT_EQ(sim::TreeWiring(64).depth(), 6u);
}

TEST(TreeWiring, PersonalityMatchesTheEdges) {
  const unsigned n = 12;
  const sim::TreeWiring w(n);
  for (unsigned r = 0; r < n; ++r) {
    fw::Personality p;
    w.describe(r, p);
    EXPECT_EQ(p.tree_up_link, r == 0 ? -1 : 0);
    unsigned down = 0;
    for (const auto& e : w.edges())
      if (e.parent == r) down |= 1u << e.parent_link;
    EXPECT_EQ(p.tree_down_links, down) << "rank " << r;
  }
}

// A node down from boot: the personality leaves out the links to it, and a child of it has
// no up link.
TEST(TreeWiring, PersonalityLeavesOutTheLinksToADownNode) {
  const fw::DownNodes down({5}, 12);
  const sim::TreeWiring w(12);
  fw::Personality p;
  w.describe(2, p, &down);  // children 5 (down) and 6
  EXPECT_EQ(p.tree_up_link, 0);
  EXPECT_EQ(p.tree_down_links, 1u << 2);
  w.describe(11, p, &down);  // below node 5
  EXPECT_EQ(p.tree_up_link, -1);
  w.describe(5, p, &down);
  EXPECT_EQ(p.tree_up_link, -1);
  EXPECT_EQ(p.tree_down_links, 0u);
}

// The world's numbering of the live nodes' tasks, and when the machine tree still joins them.
TEST(DownNodes, NumberTheLiveNodesAndTellWhetherTheTreeJoinsThem) {
  const fw::DownNodes down({21, 3}, 64);
  EXPECT_EQ(down.list(), (std::vector<unsigned>{3, 21}));
  EXPECT_EQ(down.live_count(), 62u);
  unsigned i = 0;
  for (unsigned node = 0; node < 64; ++node) {
    if (down.contains(node)) continue;
    EXPECT_EQ(down.live_node(i), node);
    EXPECT_EQ(down.live_index(node), i);
    ++i;
  }
  EXPECT_EQ(down.task_of_world(39, 2), 41u);  // 2 per node: live node 19 is node 20 (3 is down), its task 1
  EXPECT_EQ(down.world_of_task(down.task_of_world(77, 4), 4), 77u);
  EXPECT_FALSE(down.tree_joins_live_nodes());             // 3's children 7 and 8 hang below it
  EXPECT_TRUE(fw::DownNodes({30, 31}, 32).tree_joins_live_nodes());  // leaves
  EXPECT_TRUE(fw::DownNodes({15, 31, 32}, 33).tree_joins_live_nodes());  // a whole subtree
  EXPECT_FALSE(fw::DownNodes({0}, 8).tree_joins_live_nodes());
  EXPECT_THROW(fw::DownNodes({64}, 64), std::invalid_argument);
  EXPECT_THROW(fw::DownNodes({2, 2}, 64), std::invalid_argument);
}

TEST(Ops, ParseTheirNamesAndRejectOthers) {
  for (driver::Op op : driver::all_ops()) EXPECT_EQ(driver::parse_op(driver::to_string(op)), op);
  try {
    driver::parse_op("bogus");
    ADD_FAILURE() << "accepted bogus";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bogus"), std::string::npos);
  }
}

}  // namespace
}  // namespace collnet

// Software routes around what is down (firmware/torus_routes.hpp), on a ring of 4 in x.
TEST(TorusRoutes, AvoidADownLinkByTheOtherWayRound) {
  const collnet::fw::TorusLayout L({4, 1, 1});
  collnet::fw::TorusFaults f{std::vector<bool>(4, false), std::vector<unsigned>(4, 0)};
  f.links_down[0] |= 1u;  // 0 -> 1 in x+ is down (both ends mark it)
  f.links_down[1] |= 2u;
  const auto routes = collnet::fw::routes_around(L, f);
  EXPECT_TRUE(routes[0][1].deterministic);
  EXPECT_EQ(routes[0][1].via, -1);
  EXPECT_EQ(routes[0][1].hints, 2u) << "x-: 0 -> 3 -> 2 -> 1";
  EXPECT_EQ(routes[1][0].hints, 1u) << "x+: 1 -> 2 -> 3 -> 0";
  EXPECT_EQ(routes[0][2].via, -1);
}

TEST(TorusRoutes, GoThroughAnotherNodeWhenNoDimensionOrderRouteIsClear) {
  const collnet::fw::TorusLayout L({3, 3, 1});
  collnet::fw::TorusFaults f{std::vector<bool>(9, false), std::vector<unsigned>(9, 0)};
  // Node 1 is down: no route passes it, and a pair none of whose dimension-order routes
  // avoids it goes through another node whose first leg is direct.
  f.node_down[1] = true;
  const auto routes = collnet::fw::routes_around(L, f);
  for (unsigned s = 0; s < 9; ++s)
    for (unsigned t = 0; t < 9; ++t) {
      if (s == t || s == 1 || t == 1) continue;
      const auto& r = routes[s][t];
      EXPECT_NE(r.via, 1) << s << " -> " << t;
      if (r.via >= 0) EXPECT_LT(routes[s][r.via].via, 0) << "a detour's first leg is direct";
    }
}

TEST(TorusRoutes, RefuseFaultsOfAnotherMachine) {
  const collnet::fw::TorusLayout L({2, 2, 1});
  const collnet::fw::TorusFaults f{std::vector<bool>(3, false), std::vector<unsigned>(3, 0)};
  EXPECT_THROW(collnet::fw::routes_around(L, f), std::invalid_argument);
}
