// SPDX-License-Identifier: Apache-2.0
// cn_inj_source on its own: the local injection side of the combine engine. A written
// packet's header comes with the processor's payload words; an identity request offers its
// K packets with the identity of their opcode as payload, popping the request only with
// the last of them; requests and written packets leave in the order they were written.
// The testbench plays the two injection FIFOs and the engine, and 200,000 random cycles
// compare every header and word with a queue of what software wrote.
#include <deque>
#include <random>

#include <gtest/gtest.h>

#include "Vcn_inj_source.h"
#include "firmware/packet.hpp"
#include "firmware/regmap.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

namespace rm = fw::regmap;
constexpr unsigned kWords = rm::kPayloadFlits;

// An injection header FIFO entry: [31:0] header, [32] identity, [48:33] packet count.
uint64_t entry(uint32_t hdr, bool identity, unsigned count) {
  return uint64_t{hdr} | uint64_t{identity} << 32 | uint64_t{count} << 33;
}

uint32_t header(fw::AluOp op, unsigned tag) {
  fw::Header h;
  h.op = op;
  h.tag = tag;
  return h.encode();
}

uint64_t identity_of(fw::AluOp op) { return op == fw::AluOp::And || op == fw::AluOp::Min ? ~0ull : 0; }

// The injection FIFOs as queues, the engine as a consumer that pops what it is offered.
struct Source : ClockedHarness<Vcn_inj_source> {
  std::deque<uint64_t> entries, words;
  // One cycle: presents the queues' heads, pops what the engine asks for; returns what the
  // engine took ({true, header} or {false, word}) or nothing.
  struct Took {
    bool any = false, is_hdr = false;
    uint64_t value = 0;
  };
  Took cycle(bool want_hdr, bool want_word) {
    auto& m = model();
    m.entry_valid_i = !entries.empty();
    m.entry_i = entries.empty() ? 0 : entries.front();
    m.word_valid_i = !words.empty();
    m.word_i = words.empty() ? 0 : words.front();
    m.hdr_pop_i = want_hdr && m.hdr_valid_o;
    eval();
    m.hdr_pop_i = want_hdr && m.hdr_valid_o;
    m.pl_pop_i = !want_hdr && want_word && m.pl_valid_o;
    eval();
    Took t;
    if (m.hdr_pop_i) t = {true, true, m.hdr_o};
    else if (m.pl_pop_i) t = {true, false, m.pl_o};
    const bool pop_entry = m.entry_pop_o, pop_word = m.word_pop_o;
    tick();
    if (pop_entry) entries.pop_front();
    if (pop_word) words.pop_front();
    m.hdr_pop_i = 0;
    m.pl_pop_i = 0;
    return t;
  }
  // Takes a header, then its 32 words.
  std::vector<uint64_t> take_packet() {
    std::vector<uint64_t> got;
    for (int i = 0; i < 100 && got.empty(); ++i) {
      const Took t = cycle(true, false);
      if (t.any) got.push_back(t.value);
    }
    for (int i = 0; i < 1000 && got.size() < 1 + kWords; ++i) {
      const Took t = cycle(false, true);
      if (t.any) got.push_back(t.value);
    }
    EXPECT_EQ(got.size(), 1 + kWords) << "a whole packet";
    return got;
  }
};

TEST(CnInjSource, OffersNothingWhenNothingIsWritten) {
  Source s;
  s.cycle(false, false);
  EXPECT_FALSE(s->hdr_valid_o);
}

TEST(CnInjSource, AWrittenPacketCarriesTheProcessorsWords) {
  Source s;
  s.entries.push_back(entry(header(fw::AluOp::Add, 5), false, 1));
  for (unsigned i = 0; i < kWords; ++i) s.words.push_back(100 + i);
  const auto got = s.take_packet();
  EXPECT_EQ(got[0], header(fw::AluOp::Add, 5));
  for (unsigned i = 0; i < kWords; ++i) EXPECT_EQ(got[1 + i], 100 + i);
  EXPECT_TRUE(s.entries.empty());
  EXPECT_TRUE(s.words.empty());
}

TEST(CnInjSource, AnIdentityRequestOffersKPacketsOfTheOpcodesIdentity) {
  for (fw::AluOp op : {fw::AluOp::Or, fw::AluOp::And, fw::AluOp::Min, fw::AluOp::Add}) {
    Source s;
    s.entries.push_back(entry(header(op, 9), true, 3));
    for (int p = 0; p < 3; ++p) {
      ASSERT_EQ(s.entries.size(), 1u) << "the request stays until its last packet";
      const auto got = s.take_packet();
      EXPECT_EQ(got[0], header(op, 9));
      for (unsigned i = 0; i < kWords; ++i) ASSERT_EQ(got[1 + i], identity_of(op)) << to_string(op);
    }
    EXPECT_TRUE(s.entries.empty());
  }
}

TEST(CnInjSource, RequestsAndWrittenPacketsLeaveInTheOrderWritten) {
  Source s;
  s.entries.push_back(entry(header(fw::AluOp::Max, 1), false, 1));
  s.entries.push_back(entry(header(fw::AluOp::Max, 2), true, 2));
  s.entries.push_back(entry(header(fw::AluOp::Max, 3), false, 1));
  for (unsigned i = 0; i < 2 * kWords; ++i) s.words.push_back(7000 + i);
  EXPECT_EQ(s.take_packet()[1], 7000u);
  EXPECT_EQ(s.take_packet()[0], header(fw::AluOp::Max, 2));
  EXPECT_EQ(s.take_packet()[1], 0u) << "identity words, the processor's stay queued";
  const auto last = s.take_packet();
  EXPECT_EQ(last[0], header(fw::AluOp::Max, 3));
  EXPECT_EQ(last[1], 7000u + kWords);
}

TEST(CnInjSource, MatchesWhatSoftwareWroteOnRandomStreams) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Source s;
  std::deque<uint64_t> expected;  // headers and words in the order the engine must see them
  unsigned in_packet = 0, packets = 0;
  const fw::AluOp ops[] = {fw::AluOp::None, fw::AluOp::Or, fw::AluOp::And, fw::AluOp::Xor,
                           fw::AluOp::Min,  fw::AluOp::Max, fw::AluOp::Add};
  for (int cycle = 0; cycle < 200000; ++cycle) {
    // Software writes now and then: a packet (its words arrive later, a few at a time) or
    // an identity request for 1..4 packets.
    if (s.entries.size() < 8 && rng() % 40 == 0) {
      const fw::AluOp op = ops[rng() % 7];
      const uint32_t h = header(op, static_cast<unsigned>(rng() % 1000));
      if (rng() % 3 == 0) {
        const unsigned k = 1 + rng() % 4;
        s.entries.push_back(entry(h, true, k));
        for (unsigned p = 0; p < k; ++p) {
          expected.push_back(h);
          for (unsigned i = 0; i < kWords; ++i) expected.push_back(identity_of(op));
        }
      } else {
        s.entries.push_back(entry(h, false, 1));
        expected.push_back(h);
        for (unsigned i = 0; i < kWords; ++i) {
          const uint64_t w = rng();
          s.words.push_back(w);
          expected.push_back(w);
        }
      }
    }
    // The engine: a header when between packets, words inside one, with random stalls.
    const Source::Took t = s.cycle(in_packet == 0 && rng() % 2, in_packet > 0 && rng() % 3 != 0);
    if (!t.any) continue;
    ASSERT_FALSE(expected.empty()) << "cycle " << cycle << ": offered more than was written";
    ASSERT_EQ(t.value, expected.front()) << "cycle " << cycle << (t.is_hdr ? ": header" : ": word");
    expected.pop_front();
    if (t.is_hdr) {
      in_packet = kWords;
      ++packets;
    } else {
      --in_packet;
    }
  }
  EXPECT_GT(packets, 1000u);
}

}  // namespace
}  // namespace collnet::tb
