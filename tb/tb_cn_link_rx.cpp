// SPDX-License-Identifier: Apache-2.0
// cn_link_rx (Packets 4) on its own: a packet's header and payload come out of their own
// FIFOs in order; the next header waits until the packet before it is drained; the credit
// goes back as the last payload word leaves; framing errors (payload outside a packet, a
// header inside one) and a flit beyond the buffers are flagged and dropped; and random
// streams with random back-pressure against a queue of packets. Then its checks: a sender
// ignoring its credits, and the payload held not matching the headers, each fire.
#include <deque>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "Vcn_link_rx.h"
#include "Vcn_link_rx___024root.h"
#include "firmware/regmap.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

constexpr unsigned kPackets = 4;
constexpr unsigned kWords = fw::regmap::kPayloadFlits;

struct Rx : ClockedHarness<Vcn_link_rx> {
  unsigned credits = 0, errors = 0;
  // One cycle with this flit on the link (valid = false: none); counts the credit and
  // error pulses the edge produces.
  void flit(bool valid, bool hdr, uint64_t data, bool pop_hdr = false, bool pop_pl = false) {
    model().valid_i = valid;
    model().hdr_i = hdr;
    model().data_i = data;
    model().hdr_pop_i = pop_hdr;
    model().pl_pop_i = pop_pl;
    tick();
    model().valid_i = 0;
    model().hdr_pop_i = 0;
    model().pl_pop_i = 0;
    credits += model().credit_o;
    errors += model().proto_err_o;
  }
  void packet(uint32_t hdr, uint64_t first) {
    flit(true, true, hdr);
    for (unsigned i = 0; i < kWords; ++i) flit(true, false, first + i);
  }
  // Pops one whole packet: its header, then its words.
  std::vector<uint64_t> drain() {
    std::vector<uint64_t> got;
    EXPECT_TRUE(model().hdr_valid_o);
    got.push_back(model().hdr_o);
    flit(false, false, 0, true, false);
    while (got.size() < 1 + kWords) {
      if (!model().pl_valid_o) {
        ADD_FAILURE() << "payload word " << got.size() - 1 << " is not there";
        break;
      }
      got.push_back(model().pl_o);
      flit(false, false, 0, false, true);
    }
    return got;
  }
};

TEST(CnLinkRx, DeliversAPacketInOrderAndReturnsItsCreditAtTheLastWord) {
  Rx r;
  r.packet(0xabcd0001, 100);
  EXPECT_FALSE(r->pl_valid_o) << "payload waits for its header to be taken";
  const std::vector<uint64_t> got = r.drain();
  EXPECT_EQ(got[0], 0xabcd0001u);
  for (unsigned i = 0; i < kWords; ++i) EXPECT_EQ(got[1 + i], 100 + i);
  EXPECT_EQ(r.credits, 1u);
  EXPECT_EQ(r.errors, 0u);
}

TEST(CnLinkRx, OffersTheNextHeaderOnlyAfterThePacketBeforeIt) {
  Rx r;
  r.packet(1, 0);
  r.packet(2, 1000);
  r.flit(false, false, 0, true, false);  // take header 1
  EXPECT_FALSE(r->hdr_valid_o) << "packet 1 is being drained";
  for (unsigned i = 0; i + 1 < kWords; ++i) r.flit(false, false, 0, false, true);
  EXPECT_FALSE(r->hdr_valid_o);
  EXPECT_EQ(r.credits, 0u);
  r.flit(false, false, 0, false, true);  // the last word
  EXPECT_TRUE(r->hdr_valid_o);
  EXPECT_EQ(r->hdr_o, 2u);
  EXPECT_EQ(r.credits, 1u);
}

TEST(CnLinkRx, FlagsAndDropsFlitsThatBreakTheFraming) {
  Rx r;
  r.flit(true, false, 5);  // payload outside a packet
  EXPECT_EQ(r.errors, 1u);
  EXPECT_FALSE(r->pl_valid_o);
  r.flit(true, true, 7);
  r.flit(true, false, 0);
  r.flit(true, true, 8);  // a header inside packet 7
  EXPECT_EQ(r.errors, 2u);
  for (unsigned i = 1; i < kWords; ++i) r.flit(true, false, i);
  EXPECT_EQ(r.errors, 2u);
  const std::vector<uint64_t> got = r.drain();
  EXPECT_EQ(got[0], 7u) << "the stray header was dropped";
  for (unsigned i = 0; i < kWords; ++i) EXPECT_EQ(got[1 + i], i);
}

TEST(CnLinkRx, FlagsAndDropsAPacketBeyondItsBuffers) {
  Rx r;
  for (unsigned p = 0; p < kPackets; ++p) r.packet(p, 100 * p);
  EXPECT_EQ(r.errors, 0u);
  r.flit(true, true, 99);  // a fifth header without a credit
  EXPECT_EQ(r.errors, 1u);
  for (unsigned p = 0; p < kPackets; ++p) EXPECT_EQ(r.drain()[0], p);
  EXPECT_FALSE(r->hdr_valid_o) << "the header beyond the buffers was not kept";
  EXPECT_EQ(r.credits, kPackets);
}

TEST(CnLinkRx, DeliversRandomStreamsUnderRandomBackPressure) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Rx r;
  std::deque<uint64_t> expected;  // every flit the engine should see, headers included
  unsigned credits = kPackets, in_packet = 0, sent = 0;
  uint64_t next = 1;
  for (int cycle = 0; cycle < 200000; ++cycle) {
    // The sender: a header needs a credit; words follow with random gaps.
    bool valid = false, hdr = false;
    uint64_t data = 0;
    if (rng() % 3 != 0) {
      if (in_packet > 0) {
        valid = true;
        data = next++;
        --in_packet;
      } else if (credits > 0) {
        valid = hdr = true;
        data = next++ & 0xffffffffu;
        in_packet = kWords;
        --credits;
        ++sent;
      }
    }
    if (valid) expected.push_back(data);
    // The engine: pops what is offered, now and then.
    const bool pop_hdr = r->hdr_valid_o && rng() % 2;
    const bool pop_pl = r->pl_valid_o && rng() % 4 != 0;
    if (pop_hdr) {
      ASSERT_FALSE(expected.empty());
      ASSERT_EQ(r->hdr_o, expected.front()) << "header, cycle " << cycle;
      expected.pop_front();
    } else if (pop_pl) {
      ASSERT_FALSE(expected.empty());
      ASSERT_EQ(r->pl_o, expected.front()) << "payload, cycle " << cycle;
      expected.pop_front();
    }
    const unsigned before = r.credits;
    r.flit(valid, hdr, data, pop_hdr, pop_pl);
    credits += r.credits - before;
  }
  EXPECT_EQ(r.errors, 0u);
  EXPECT_GT(sent, 1000u);
  EXPECT_FALSE(r.assertion_failed());
}

// The receiver's assertions, each broken on purpose and its check seen to fire: a sender
// ignoring its credits from the link; the payload accounting, which the logic keeps, by a
// register changed as a flipped bit would (public in this testbench's Verilation only,
// tb/tb_cn_link_rx.vlt).
TEST(CnLinkRxAssertions, HeaderWithinCreditsFires) {
  Rx r;
  for (unsigned p = 0; p < kPackets; ++p) r.packet(p, 100 * p);
  r.flit(false, false, 0, true, false);  // packet 0 is being drained: its credit is not back yet
  ASSERT_FALSE(r->hdr_valid_o);
  // A fifth header finds room in the header FIFO, but every packet buffer is held.
  EXPECT_TRUE(r.trips("HeaderWithinCredits", [&] { r.flit(true, true, 99); },
                      "a header came in with all 4 packet buffers held"));
}

TEST(CnLinkRxAssertions, PayloadMatchesHeadersFires) {
  Rx r;
  r.flit(true, true, 1);
  r.flit(true, false, 0);
  EXPECT_TRUE(r.trips("PayloadMatchesHeaders", [&] {
    r->rootp->cn_link_rx__DOT__in_left_q -= 1;  // one payload flit fewer expected than the header brought
    r.flit(false, false, 0);
  }, "1 payload flits held for 1 headers, 30 flits to come in and 0 to leave"));
}

}  // namespace
}  // namespace collnet::tb
