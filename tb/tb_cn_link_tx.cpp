// SPDX-License-Identifier: Apache-2.0
// cn_link_tx (Credits 4 per VC) on its own: the flit leaves registered, a header of VC v
// takes one of v's credits, a credit back returns one, the VCs' credits are independent,
// a credit never taken is flagged (and not counted), a header without a credit trips the
// assertion; and 100,000 random cycles against a credit counter per VC.
#include <array>
#include <random>

#include <gtest/gtest.h>

#include "Vcn_link_tx.h"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

constexpr unsigned kCredits = 4;

struct Tx : ClockedHarness<Vcn_link_tx> {
  // One cycle: maybe send a flit, maybe take credits back; returns can_start_o before the edge.
  unsigned cycle(bool send, unsigned vc, bool hdr, uint64_t data, unsigned credit = 0) {
    model().send_i = send;
    model().vc_i = vc;
    model().hdr_i = hdr;
    model().data_i = data;
    model().credit_i = credit;
    eval();
    const unsigned can = model().can_start_o;
    tick();
    model().send_i = 0;
    model().credit_i = 0;
    return can;
  }
};

TEST(CnLinkTx, StartsWithEveryCreditAndSendsNothing) {
  Tx t;
  EXPECT_EQ(t->can_start_o, 0b11u);
  EXPECT_FALSE(t->valid_o);
  EXPECT_FALSE(t->credit_err_o);
}

TEST(CnLinkTx, TheFlitLeavesRegisteredWithItsVcAndHeaderBit) {
  Tx t;
  t->send_i = 1;
  t->vc_i = 1;
  t->hdr_i = 1;
  t->data_i = 0x1234;
  t.eval();
  EXPECT_FALSE(t->valid_o) << "nothing leaves combinationally";
  t.tick();
  t->send_i = 0;
  EXPECT_TRUE(t->valid_o);
  EXPECT_TRUE(t->vc_o);
  EXPECT_TRUE(t->hdr_o);
  EXPECT_EQ(t->data_o, 0x1234u);
  t.tick();
  EXPECT_FALSE(t->valid_o);
}

TEST(CnLinkTx, AHeaderTakesACreditOfItsVcOnlyAndACreditBackReturnsIt) {
  Tx t;
  for (unsigned i = 0; i < kCredits; ++i) {
    EXPECT_EQ(t.cycle(true, 0, true, i) & 1u, 1u) << "credit " << i;
    for (unsigned w = 0; w < 3; ++w) t.cycle(true, 0, false, w);  // payload costs nothing
  }
  EXPECT_EQ(t->can_start_o, 0b10u) << "VC 0 is out of credits, VC 1 untouched";
  t.cycle(false, 0, false, 0, /*credit=*/0b01);
  EXPECT_EQ(t->can_start_o, 0b11u);
  EXPECT_FALSE(t.assertion_failed());
}

TEST(CnLinkTx, ACreditNeverTakenIsFlaggedAndNotCounted) {
  Tx t;
  t.cycle(false, 0, false, 0, 0b10);
  EXPECT_TRUE(t->credit_err_o);
  t.cycle(false, 0, false, 0);
  EXPECT_FALSE(t->credit_err_o) << "the flag is a pulse";
  for (unsigned i = 0; i < kCredits; ++i) t.cycle(true, 1, true, i);
  EXPECT_EQ(t->can_start_o, 0b01u) << "the stray credit did not raise VC 1 above its buffers";
}

TEST(CnLinkTx, AHeaderAndACreditOfOneVcInTheSameCycleCancel) {
  Tx t;
  t.cycle(true, 0, true, 1);  // 3 left
  t.cycle(true, 0, true, 2, /*credit=*/0b01);  // one taken, one back: still 3
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(t.cycle(true, 0, true, i) & 1u, 1u);
  EXPECT_EQ(t->can_start_o & 1u, 0u);
  EXPECT_FALSE(t->credit_err_o);
}

TEST(CnLinkTx, AHeaderWithoutACreditTripsTheAssertion) {
  Tx t;
  for (unsigned i = 0; i < kCredits; ++i) t.cycle(true, 1, true, i);
  EXPECT_FALSE(t.assertion_failed());
  t.cycle(true, 1, true, 99);
  EXPECT_TRUE(t.assertion_failed());
}

TEST(CnLinkTx, CountsCreditsLikeAReferenceOnRandomTraffic) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Tx t;
  std::array<unsigned, 2> credits{kCredits, kCredits};
  for (int i = 0; i < 100000; ++i) {
    const unsigned vc = rng() % 2;
    const bool hdr = rng() % 3 == 0 && credits[vc] > 0;  // a sender only starts with a credit
    const bool send = hdr || rng() % 2;
    const unsigned back = static_cast<unsigned>(rng() % 4);
    const uint64_t data = rng();
    const unsigned can = t.cycle(send, vc, hdr, data, back);
    ASSERT_EQ(can, unsigned(credits[0] > 0) | unsigned(credits[1] > 0) << 1) << "cycle " << i;
    bool over = false;
    for (unsigned v = 0; v < 2; ++v) {
      const bool take = send && hdr && vc == v, ret = back >> v & 1u;
      if (take && !ret) --credits[v];
      else if (ret && !take && credits[v] == kCredits) over = true;
      else if (ret && !take) ++credits[v];
    }
    ASSERT_EQ(bool(t->credit_err_o), over) << "cycle " << i;
    ASSERT_EQ(bool(t->valid_o), send);
    if (send) {
      ASSERT_EQ(t->data_o, data);
      ASSERT_EQ(bool(t->hdr_o), hdr);
      ASSERT_EQ(t->vc_o, vc);
    }
  }
  EXPECT_FALSE(t.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
