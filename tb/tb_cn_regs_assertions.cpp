// SPDX-License-Identifier: Apache-2.0
// cn_regs's checks on the FIFOs behind it and on its own state, each broken on purpose and
// seen to fire. A FIFO that reports a level beyond its depth, or a full flag that lags its
// level, comes in on the ports. A decision the block's logic makes right is made wrong by
// forcing the signal it rests on, and a class route or an error bit by changing its
// register as a flipped bit would (tb_cn_regs_assertions.vlt, in this testbench's
// Verilation only).
#include <cstdint>

#include <gtest/gtest.h>

#include "Vcn_regs.h"
#include "Vcn_regs___024root.h"
#include "firmware/regmap.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

using namespace fw::regmap;
using Regs = ClockedHarness<Vcn_regs>;

TEST(CnRegsAssertions, LevelsWithinDepthFires) {
  Regs r;
  EXPECT_TRUE(r.trips("g_fifo_check[0].LevelsWithinDepth", [&] {
    r->rcv_hdr_count_i = 9;  // a reception header FIFO of 8 reports 9
    r.tick();
  }, "VC 0: levels of 0 and 0 (injection), 9 and 0 (reception) beyond the depths"));
}

TEST(CnRegsAssertions, InjHdrPushFullFires) {
  Regs r;
  r->inj_hdr_count_i = 8;  // full, its flag lagging
  r->inj_hdr_full_i = 0;
  EXPECT_TRUE(r.trips("g_fifo_check[0].InjHdrPushFull", [&] { bus_access(r, true, kRegInjHdr, 1); },
                      "VC 0: header pushed into an injection FIFO holding 8 of 8"));
}

TEST(CnRegsAssertions, InjPlPushFullFires) {
  Regs r;
  r->inj_pl_count_i = 256;  // full
  EXPECT_TRUE(r.trips("g_fifo_check[0].InjPlPushFull", [&] {
    COLLNET_TB_FORCE(r->rootp->cn_regs__DOT__inj_pl_free, 256);  // the block believes it all free
    bus_access(r, true, kRegInjVector);
  }, "VC 0: 4 payload words pushed into an injection FIFO holding 256 of 256"));
}

TEST(CnRegsAssertions, RcvHdrPopEmptyFires) {
  Regs r;
  EXPECT_TRUE(r.trips("g_fifo_check[0].RcvHdrPopEmpty", [&] {
    COLLNET_TB_FORCE(r->rootp->cn_regs__DOT__rcv_hdr_count, 1);  // the block believes a header is there
    bus_access(r, false, kRegRcvHdr);
  }, "VC 0: header popped from an empty reception FIFO"));
}

TEST(CnRegsAssertions, RcvPlPopEmptyFires) {
  Regs r;
  EXPECT_TRUE(r.trips("g_fifo_check[0].RcvPlPopEmpty", [&] {
    COLLNET_TB_FORCE(r->rootp->cn_regs__DOT__rcv_pl_count, 4);  // the block believes four words are there
    bus_access(r, false, kRegRcvVector);
  }, "VC 0: 4 payload words popped from a reception FIFO holding 0"));
}

TEST(CnRegsAssertions, RouteIsTreeFires) {
  Regs r;
  EXPECT_TRUE(r.trips("g_route_check[3].RouteIsTree", [&] {
    r->rootp->cn_regs__DOT__route_q[3] = 1u << kRouteUpLsb | 0b010u << kRouteDownLsb;  // up link 1 also goes down
    r.tick();
  }, "class 3 holds route 0001001, not a tree route"));
}

TEST(CnRegsAssertions, ErrorsStickyFires) {
  Regs r;
  bus_access(r, true, 0x068, 1);  // nothing answers there: ErrBadAddr
  r.tick();  // the bit held for a cycle
  ASSERT_EQ(r->err_o, 1u << kErrBadAddr);
  EXPECT_TRUE(r.trips("ErrorsSticky", [&] {
    r->rootp->cn_regs__DOT__err_q = 0;
    r.tick();
  }, "error bits 00001000000 cleared without a write naming them"));
}

}  // namespace
}  // namespace collnet::tb
