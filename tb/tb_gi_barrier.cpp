// SPDX-License-Identifier: Apache-2.0
// gi_barrier: a single unit's registers (every register of the generated register table in
// the unit's window: reset values, access kinds, privileged channels), and seven units wired
// as a binary tree (children of i are 2i+1 on link 1 and 2i+2 on link 2, parent on link 0)
// computing AND and OR per channel, barriers with sense reversal, non-participants, and
// privileged channels. Then the unit's checks on its channels' states (routes and bits
// changed only by the writes that may change them, routes always tree routes, sticky
// errors, nothing sent in reset), each seen to fire.
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "Vgi_barrier.h"
#include "Vgi_barrier___024root.h"
#include "firmware/regmap.hpp"
#include "tb/register_table_checks.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

using namespace fw::regmap;

using Unit = ClockedHarness<Vgi_barrier>;

void write(Unit& u, uint32_t addr, uint64_t data, bool priv = false) {
  u->req_i = 1;
  u->we_i = 1;
  u->addr_i = addr;
  u->wdata_i = data;
  u->priv_i = priv;
}
uint64_t read_now(Unit& u, uint32_t addr) {
  u->req_i = 1;
  u->we_i = 0;
  u->addr_i = addr;
  u.tick();
  u->req_i = 0;
  return u->rdata_o;
}

// One unit as a fw::RegisterBus: an access per clock edge. Its registers are 64-bit: a vector
// write writes word 0, a vector read reads zeros above it.
class UnitBus : public fw::RegisterBus {
 public:
  explicit UnitBus(Unit& u) : u_(u) {}
  uint64_t read(uint32_t addr, bool priv = false) override {
    u_->priv_i = priv;
    return read_now(u_, addr);
  }
  void write(uint32_t addr, uint64_t data, bool priv = false) override {
    tb::write(u_, addr, data, priv);
    u_.tick();
    u_->req_i = 0;
  }
  void write_vector(uint32_t addr, const Vector& v, bool priv = false) override { write(addr, v[0], priv); }
  Vector read_vector(uint32_t addr, bool priv = false) override { return {read(addr, priv), 0, 0, 0}; }

 private:
  Unit& u_;
};

uint64_t route(unsigned up, unsigned down, bool part) {
  return (uint64_t{up} << kGiRouteUpLsb) | (uint64_t{down} << kGiRouteDownLsb) | (uint64_t{part} << kGiRoutePartBit);
}

// Seven units as a tree; links are one cycle (a unit's registered output is its
// neighbour's input at the next edge).
class Tree {
 public:
  static constexpr unsigned kNodes = 7;
  Tree() {
    for (unsigned i = 0; i < kNodes; ++i) units_.push_back(std::make_unique<Unit>());
  }
  Unit& operator[](unsigned i) { return *units_[i]; }

  // Programs channel `ch` over the whole tree; `members` says who participates.
  void program(unsigned ch, unsigned members = 0x7f, bool priv = false) {
    for (unsigned i = 0; i < kNodes; ++i) {
      unsigned down = 0;
      if (2 * i + 1 < kNodes) down |= 2;
      if (2 * i + 2 < kNodes) down |= 4;
      write(*units_[i], reg_gi_route_base(ch), route(i == 0 ? 3 : 0, down, (members >> i) & 1), priv);
    }
    step();
    release();
  }
  void set_local(unsigned node, unsigned bits) {
    write(*units_[node], kRegGiLocal, bits);
    step();
    release();
  }
  void release() {
    for (auto& u : units_) u->model().req_i = 0;
  }
  void step() {
    // Inputs from the neighbours' registered outputs, then one edge everywhere.
    std::vector<uint32_t> out(kNodes);
    for (unsigned i = 0; i < kNodes; ++i) out[i] = (*units_[i])->link_out_o;
    for (unsigned i = 0; i < kNodes; ++i) {
      uint32_t in = 0;
      if (i > 0) {
        const unsigned parent = (i - 1) / 2, plink = (i == 2 * parent + 1) ? 1 : 2;
        in |= ((out[parent] >> (8 * plink)) & 0xff) << 0;
      }
      for (unsigned l = 1; l <= 2; ++l) {
        const unsigned child = 2 * i + l;
        if (child < kNodes) in |= (out[child] & 0xff) << (8 * l);
      }
      (*units_[i])->link_in_i = in;
    }
    for (auto& u : units_) u->tick();
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  unsigned result_and(unsigned node, unsigned ch) { return (peek(node) >> (kGiResultAndLsb + ch)) & 1; }
  unsigned result_or(unsigned node, unsigned ch) { return (peek(node) >> (kGiResultOrLsb + ch)) & 1; }

 private:
  uint64_t peek(unsigned node) {
    // A read takes an edge; keep the rest of the tree moving with it.
    write(*units_[node], kRegGiResult, 0);
    (*units_[node])->we_i = 0;
    step();
    release();
    return (*units_[node])->rdata_o;
  }
  std::vector<std::unique_ptr<Unit>> units_;
};

TEST(GiBarrier, AndCompletesOnlyWhenEveryNodeHasArrived) {
  Tree t;
  t.program(0);
  t.run(10);
  EXPECT_EQ(t.result_and(3, 0), 0u);
  for (unsigned i = 0; i < Tree::kNodes; ++i) {
    t.run(20);
    for (unsigned n = 0; n < Tree::kNodes; ++n) EXPECT_EQ(t.result_and(n, 0), 0u) << i << " arrived, node " << n;
    t.set_local(i, 1);
  }
  t.run(12);
  for (unsigned n = 0; n < Tree::kNodes; ++n) EXPECT_EQ(t.result_and(n, 0), 1u) << "node " << n;
}

TEST(GiBarrier, TheResultReachesEveryNodeWithinTwoDepthHops) {
  Tree t;
  t.program(1);
  for (unsigned i = 0; i + 1 < Tree::kNodes; ++i) t.set_local(i, 2);
  t.run(10);
  t.set_local(Tree::kNodes - 1, 2);  // the last arrival, a leaf at depth 2
  // Up 2 hops to the root and down 2 hops, one cycle each, plus the result register.
  unsigned cycles = 0;
  while (t.result_and(3, 1) == 0 && cycles < 100) ++cycles;  // each poll is one cycle
  EXPECT_LE(cycles, 2u * 2u + 2u) << "cycles from the last arrival to the result at a leaf";
}

TEST(GiBarrier, SenseReversalNeedsNoResetBetweenBarriers) {
  Tree t;
  t.program(0);
  for (unsigned round = 0; round < 4; ++round) {
    const unsigned sense = (round % 2 == 0) ? 1 : 0;
    for (unsigned i = 0; i < Tree::kNodes; ++i) {
      if (i == 5) continue;
      t.set_local(i, sense);
    }
    t.run(12);
    // Node 5 has not arrived: neither "all set" (sense 1) nor "none set" (sense 0).
    EXPECT_EQ(sense ? t.result_and(0, 0) : 1u - t.result_or(0, 0), 0u) << "round " << round;
    t.set_local(5, sense);
    t.run(12);
    EXPECT_EQ(sense ? t.result_and(0, 0) : 1u - t.result_or(0, 0), 1u) << "round " << round;
  }
}

TEST(GiBarrier, NonParticipantsContributeTheIdentities) {
  Tree t;
  t.program(0, /*members=*/0b0010110);  // nodes 1, 2, 4
  for (unsigned i : {1u, 2u, 4u}) t.set_local(i, 1);
  t.run(12);
  EXPECT_EQ(t.result_and(6, 0), 1u) << "AND ignores non-participants";
  EXPECT_EQ(t.result_or(6, 0), 1u);
  t.set_local(3, 1);  // a non-participant's bit changes nothing
  t.set_local(1, 0);
  t.set_local(2, 0);
  t.set_local(4, 0);
  t.run(12);
  EXPECT_EQ(t.result_or(0, 0), 0u) << "OR ignores non-participants";
}

TEST(GiBarrier, ChannelsAreIndependent) {
  Tree t;
  t.program(0);
  t.program(1);
  for (unsigned i = 0; i < Tree::kNodes; ++i) t.set_local(i, 0b01);
  t.run(12);
  EXPECT_EQ(t.result_and(2, 0), 1u);
  EXPECT_EQ(t.result_and(2, 1), 0u);
  EXPECT_EQ(t.result_or(2, 1), 0u);
}

// Every register of the generated register table in the unit's window: its reset value, a
// read-only one ignoring writes and a write-only one reading zero (the unit flags neither),
// the system channels' routes refusing unprivileged writes with GiErrPriv.
TEST(GiBarrierRegs, EveryRegisterOfTheTableBehavesAsItsAccessKindSays) {
  Unit u;
  UnitBus bus(u);
  RegisterTableChecks check(bus, register_rows(in_win_gi));
  EXPECT_GT(check.rows().size(), kGiChannels) << "the table holds the unit's registers";
  EXPECT_EQ(check.all(), std::vector<std::string>{});
  EXPECT_EQ(bus.read(kRegGiErr), 0u);
  EXPECT_FALSE(u->err_o);
}

TEST(GiBarrierRegs, SystemChannelsNeedThePrivilegedBit) {
  Unit u;
  write(u, reg_gi_route_base(2), route(0, 0, true));
  u.tick();
  u->req_i = 0;
  EXPECT_EQ(read_now(u, reg_gi_route_base(2)), 0u);
  EXPECT_EQ(read_now(u, kRegGiErr), 1u << kGiErrPriv);
  write(u, kRegGiErrClear, ~0ull);
  u.tick();
  write(u, reg_gi_route_base(2), route(0, 0, true), /*priv=*/true);
  u.tick();
  u->req_i = 0;
  EXPECT_EQ(read_now(u, reg_gi_route_base(2)), route(0, 0, true));
  EXPECT_EQ(read_now(u, kRegGiErr), 0u);
}

TEST(GiBarrierRegs, RefusesARouteWhoseUpLinkIsAlsoADownLink) {
  Unit u;
  write(u, kRegGiRouteBase, route(1, 0b010, true));
  u.tick();
  u->req_i = 0;
  EXPECT_EQ(read_now(u, kRegGiRouteBase), 0u);
  EXPECT_EQ(read_now(u, kRegGiErr), 1u << kGiErrBadRoute);
  EXPECT_TRUE(u->err_o);
}

// The unit's assertions on its channels' states, each broken on purpose and its check seen
// to fire: the registers are changed as a flipped bit would (public in this testbench's
// Verilation only, tb/tb_gi_barrier.vlt), since the register writes themselves are checked
// before they change anything.
uint32_t& routes(Unit& u) { return u->rootp->gi_barrier__DOT__route_q; }

TEST(GiBarrierAssertions, RouteIsTreeFires) {
  Unit u;
  EXPECT_TRUE(u.trips("g_check_ch[0].RouteIsTree", [&] {
    routes(u) = static_cast<uint32_t>(route(1, 0b010, true));  // up link 1 is also a down link
    u.tick();
  }, "channel 0 holds route"));
}

TEST(GiBarrierAssertions, RouteWrittenLegallyFires) {
  Unit u;
  EXPECT_TRUE(u.trips("g_check_ch[1].RouteWrittenLegally", [&] {
    routes(u) |= static_cast<uint32_t>(route(3, 0b110, true)) << kGiRouteBits;  // a tree route nobody wrote
    u.tick();
  }, "channel 1's route changed from 000000 to 111011 without a write that may change it"));
}

TEST(GiBarrierAssertions, LocalWrittenLegallyFires) {
  Unit u;
  EXPECT_TRUE(u.trips("LocalWrittenLegally", [&] {
    u->rootp->gi_barrier__DOT__local_q = 0b0100;
    u.tick();
  }, "the node's bits changed from 0000 to 0100 without a write to RegGiLocal"));
}

TEST(GiBarrierAssertions, ErrorsStickyFires) {
  Unit u;
  write(u, kRegGiRouteBase, route(1, 0b010, true));  // refused: the error bit rises
  u.tick();
  u->req_i = 0;
  u.tick();
  ASSERT_TRUE(u->err_o);
  EXPECT_TRUE(u.trips("ErrorsSticky", [&] {
    u->rootp->gi_barrier__DOT__err_q = 0;
    u.tick();
  }, "error bits 10 cleared without a write naming them"));
}

TEST(GiBarrierAssertions, QuietInResetFires) {
  Unit u;
  u->rst_ni = 0;
  u.eval();
  EXPECT_TRUE(u.trips("QuietInReset", [&] {
    u->link_out_o = 1;  // channel 0's AND bit towards link 0
    u.tick();
  }, "barrier bits 000000000000000000000001 sent in reset"));
}

}  // namespace
}  // namespace collnet::tb
