// SPDX-License-Identifier: Apache-2.0
// tr_regs's checks on the router's FIFOs behind it and on its own state, each broken on
// purpose and seen to fire. A FIFO that reports more room or more flits than it can have
// comes in on the ports. A push or a pop the block's logic keeps within the FIFO's level is
// made wrong by forcing the level it rests on, and an error bit by changing its register as
// a flipped bit would (tb_tr_regs_assertions.vlt, in this testbench's Verilation only).
#include <cstdint>

#include <gtest/gtest.h>

#include "Vtr_regs.h"
#include "Vtr_regs___024root.h"
#include "firmware/regmap.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

using namespace fw::regmap;
using Regs = ClockedHarness<Vtr_regs>;

TEST(TrRegsAssertions, InjFreeWithinDepthFires) {
  Regs r;
  EXPECT_TRUE(r.trips("g_inj_check[1].InjFreeWithinDepth", [&] {
    r->inj_free_i = (kTrInjFlits + 1) << 8;  // injection FIFO 1 of 128 flits reports 129 free
    r.tick();
  }, "injection FIFO 1 reports 129 flits free of 128"));
}

TEST(TrRegsAssertions, RcvCountWithinDepthFires) {
  Regs r;
  EXPECT_TRUE(r.trips("g_rcv_check[0].RcvCountWithinDepth", [&] {
    r->rcv_count_i = kTrRcvFlits + 1;
    r.tick();
  }, "reception FIFO 0 reports 257 flits held of 256"));
}

TEST(TrRegsAssertions, PushWithoutRoomFires) {
  Regs r;
  r->inj_free_i = 0;  // every injection FIFO full
  EXPECT_TRUE(r.trips("g_inj_check[0].PushWithoutRoom", [&] {
    COLLNET_TB_FORCE(r->rootp->tr_regs__DOT__free, kTrInjFlits);  // the block believes FIFO 0 empty
    bus_access(r, true, reg_tr_inj_chunk(0));
  }, "4 flits pushed into injection FIFO 0 with 0 free"));
}

TEST(TrRegsAssertions, PopBeyondHeldFires) {
  Regs r;
  EXPECT_TRUE(r.trips("g_rcv_check[1].PopBeyondHeld", [&] {
    COLLNET_TB_FORCE(r->rootp->tr_regs__DOT__held, kTrRcvFlits);  // the block believes FIFO 1 full
    bus_access(r, false, reg_tr_rcv_chunk(kTrRcvPrio));  // the high-priority FIFO, the router's FIFO 1 here
  }, "4 flits popped from reception FIFO 1 holding 0"));
}

TEST(TrRegsAssertions, ErrorsStickyFires) {
  Regs r;
  bus_access(r, true, kRegTrErr, 1);  // a write to a read-only register: TrErrBadAccess
  r.tick();  // the bit held for a cycle
  ASSERT_EQ(r->err_o, 1u << kTrErrBadAccess);
  EXPECT_TRUE(r.trips("ErrorsSticky", [&] {
    r->rootp->tr_regs__DOT__err_q = 0;
    r.tick();
  }, "error bits 01000000 cleared without a write naming them"));
}

}  // namespace
}  // namespace collnet::tb
