// SPDX-License-Identifier: Apache-2.0
// cn_bcast on its own: the downward half of the adapter. A packet travelling down its
// class (from the turnaround path, source 0, or from the link that is its class's up link)
// is copied flit by flit to every down link of the class and to reception if the node
// receives; it starts only when every one of those links may start; the copies move in
// lock step, holding the links until the last word; a packet arriving on a link that is
// not its class's up link is not taken. 200,000 random cycles check every flit against
// the packets queued at the sources, none tripping the module's assertions; routes that
// cn_regs refuses (the up link also a down link, a down link on every link) trip them.
#include <array>
#include <deque>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "Vcn_bcast.h"
#include "firmware/packet.hpp"
#include "firmware/regmap.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

namespace rm = fw::regmap;
constexpr unsigned kWords = rm::kPayloadFlits;

struct Packet {
  uint32_t hdr = 0;
  std::vector<uint64_t> words;
};

// Class c's route: up link `up` (3: the root), down-link mask, whether the node receives.
uint64_t route(unsigned up, unsigned down, bool dst) {
  fw::ClassRoute r;
  r.up_link = up;
  r.down_mask = down;
  r.local_source = true;
  r.local_destination = dst;
  return r.encode();
}

struct Bcast : ClockedHarness<Vcn_bcast> {
  std::array<uint64_t, rm::kNumClasses> routes{};
  std::array<std::deque<Packet>, 4> src;  // 0 turnaround, 1..3 links 0..2
  std::array<unsigned, 4> sent{};         // words of the head packet already popped (0: header next)

  void set_routes() {
    for (unsigned c = 0; c < rm::kNumClasses; ++c)
      set_wide_bits(model().routes_i.data(), c * rm::kRouteBits, rm::kRouteBits, routes[c]);
  }
  // Presents the sources' heads and the destinations' readiness, settles, and pops what
  // the block pops at the edge. Returns the flit it sends (valid or not) before the edge.
  struct Flit {
    bool valid, hdr, rcv_hdr, rcv_pl;
    uint64_t data;
    unsigned links, hdr_pop, pl_pop, hold;
  };
  Flit cycle(unsigned can_start, bool rcv_hdr_space, bool rcv_pl_space) {
    auto& m = model();
    unsigned hv = 0, pv = 0;
    for (unsigned s = 0; s < 4; ++s) {
      const bool head = !src[s].empty();
      hv |= unsigned(head && sent[s] == 0) << s;
      pv |= unsigned(head && sent[s] > 0) << s;
      set_wide_bits(m.src_hdr_i.data(), s * 32, 32, head ? src[s].front().hdr : 0);
      set_wide_bits(m.src_pl_i.data(), s * 64, 64, head && sent[s] > 0 ? src[s].front().words[sent[s] - 1] : 0);
    }
    m.src_hdr_valid_i = hv;
    m.src_pl_valid_i = pv;
    m.dst_can_start_i = can_start;
    m.rcv_hdr_space_i = rcv_hdr_space;
    m.rcv_pl_space_i = rcv_pl_space;
    eval();
    const Flit f{bool(m.out_valid_o), bool(m.out_hdr_o), bool(m.rcv_hdr_push_o), bool(m.rcv_pl_push_o),
                 m.out_data_o, m.out_links_o, m.src_hdr_pop_o, m.src_pl_pop_o, m.hold_o};
    tick();
    for (unsigned s = 0; s < 4; ++s) {
      if ((f.hdr_pop >> s & 1u) || (f.pl_pop >> s & 1u)) ++sent[s];
      if (sent[s] == 1 + kWords) {
        src[s].pop_front();
        sent[s] = 0;
      }
    }
    return f;
  }
};

Packet packet(unsigned cls, unsigned tag, uint64_t first) {
  fw::Header h;
  h.cls = cls;
  h.tag = tag;
  Packet p{h.encode(), {}};
  for (unsigned i = 0; i < kWords; ++i) p.words.push_back(first + i);
  return p;
}

TEST(CnBcast, CopiesAPacketToEveryDownLinkAndReceptionInLockStep) {
  Bcast b;
  b.routes[3] = route(1, 0b101, true);  // down to links 0 and 2, the node receives
  b.set_routes();
  b.src[2].push_back(packet(3, 7, 500));  // source 2: link 1, the class's up link
  auto f = b.cycle(0b001, true, true);
  EXPECT_FALSE(f.valid) << "link 2 may not start yet";
  f = b.cycle(0b101, true, true);
  ASSERT_TRUE(f.valid && f.hdr);
  EXPECT_EQ(f.links, 0b101u);
  EXPECT_TRUE(f.rcv_hdr);
  EXPECT_EQ(uint32_t(f.data), b.src[2].front().hdr);
  for (unsigned i = 0; i < kWords; ++i) {
    f = b.cycle(0, true, true);
    ASSERT_TRUE(f.valid && !f.hdr) << "word " << i;
    EXPECT_EQ(f.data, 500 + i);
    EXPECT_EQ(f.links, 0b101u);
    EXPECT_EQ(f.hold, 0b101u) << "the links stay held";
    EXPECT_TRUE(f.rcv_pl);
  }
  EXPECT_TRUE(b.src[2].empty());
  EXPECT_FALSE(b.cycle(0b111, true, true).valid);
  EXPECT_EQ(b->hold_o, 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST(CnBcast, APacketFromALinkThatIsNotItsUpLinkIsNotTaken) {
  Bcast b;
  b.routes[4] = route(0, 0b110, false);  // up link 0
  b.set_routes();
  b.src[3].push_back(packet(4, 1, 0));  // arrives on link 2
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(b.cycle(0b111, true, true).valid);
  EXPECT_FALSE(b->want_o);
}

TEST(CnBcast, AWordWaitsForReceptionSpace) {
  Bcast b;
  b.routes[2] = route(3, 0b010, true);  // the root's turnaround: down to link 1, receives
  b.set_routes();
  b.src[0].push_back(packet(2, 3, 40));
  EXPECT_FALSE(b.cycle(0b111, false, true).valid) << "no header space in reception";
  EXPECT_TRUE(b.cycle(0b111, true, true).hdr);
  EXPECT_FALSE(b.cycle(0, true, false).valid) << "no payload space: the copies wait together";
  const auto f = b.cycle(0, true, true);
  EXPECT_TRUE(f.valid);
  EXPECT_EQ(f.data, 40u);
  EXPECT_FALSE(b.assertion_failed());
}

// cn_regs refuses a route whose up link is also a down link, and one with a down link on
// every link. A packet of such a class that reached the engine anyway would go back down
// the link it came from, or to three links; the assertions report it as it starts.
TEST(CnBcast, APacketOnARouteTheRouteCheckRefusesTripsTheAssertions) {
  {
    Bcast b;
    b.routes[5] = route(1, 0b011, false);  // up link 1, down links 0 and 1
    b.set_routes();
    b.src[2].push_back(packet(5, 1, 0));  // arrives on link 1
    EXPECT_FALSE(b.assertion_failed());
    const auto f = b.cycle(0b111, true, true);
    EXPECT_TRUE(f.valid && f.hdr);
    EXPECT_EQ(f.links, 0b011u);
    EXPECT_TRUE(b.assertion_failed()) << "sent back down link 1";
  }
  {
    Bcast b;
    b.routes[6] = route(3, 0b111, true);  // the root, a child on every link
    b.set_routes();
    b.src[0].push_back(packet(6, 1, 0));  // the turnaround
    EXPECT_FALSE(b.assertion_failed());
    const auto f = b.cycle(0b111, true, true);
    EXPECT_TRUE(f.valid && f.hdr);
    EXPECT_EQ(f.links, 0b111u);
    EXPECT_TRUE(b.assertion_failed()) << "copied to all three links";
  }
}

TEST(CnBcast, DeliversRandomStreamsFromEverySourceFlitForFlit) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Bcast b;
  // Class c+1 comes down from source c: the turnaround (root) or link c-1.
  for (unsigned s = 0; s < 4; ++s) {
    const unsigned up = s == 0 ? 3 : s - 1;
    unsigned down = static_cast<unsigned>(rng() % 8) & ~(up < 3 ? 1u << up : 0u);
    if (down == 0 && s != 0) down = 1u << ((up + 1) % 3);
    b.routes[s + 1] = route(up, down, rng() % 2);
  }
  b.set_routes();
  struct Current {
    bool open = false;
    unsigned src = 0, links = 0, left = 0;
    bool rcv = false;
    std::deque<uint64_t> words;
  } cur;
  unsigned packets = 0;
  uint64_t next_word = 1;
  for (int cycle = 0; cycle < 200000; ++cycle) {
    for (unsigned s = 0; s < 4; ++s)
      if (b.src[s].size() < 3 && rng() % 50 == 0) {
        b.src[s].push_back(packet(s + 1, static_cast<unsigned>(rng() % 1000), next_word));
        next_word += kWords;
      }
    // Which source the block should lead with, and its packet, before the cycle.
    int lead = -1;
    for (unsigned s = 0; s < 4 && lead < 0; ++s)
      if (!b.src[s].empty() && b.sent[s] == 0) lead = static_cast<int>(s);
    const Packet lead_packet = lead >= 0 ? b.src[lead].front() : Packet{};
    const unsigned can = static_cast<unsigned>(rng() % 8);
    const bool hspace = rng() % 4 != 0, pspace = rng() % 4 != 0;
    const Bcast::Flit f = b.cycle(can, hspace, pspace);
    if (!f.valid) continue;
    if (f.hdr) {
      ASSERT_FALSE(cur.open) << "cycle " << cycle << ": a header inside a packet";
      ASSERT_GE(lead, 0);
      ASSERT_EQ(f.hdr_pop, 1u << lead) << "cycle " << cycle << ": the lowest downward source leads";
      const fw::ClassRoute r = fw::ClassRoute::decode(b.routes[lead + 1]);
      ASSERT_EQ(uint32_t(f.data), lead_packet.hdr);
      ASSERT_EQ(f.links, r.down_mask);
      ASSERT_EQ(can & r.down_mask, r.down_mask) << "started without every link";
      ASSERT_EQ(f.rcv_hdr, r.local_destination);
      cur = {true, static_cast<unsigned>(lead), r.down_mask, kWords, r.local_destination,
             std::deque<uint64_t>(lead_packet.words.begin(), lead_packet.words.end())};
      ++packets;
    } else {
      ASSERT_TRUE(cur.open) << "cycle " << cycle << ": a word outside a packet";
      ASSERT_EQ(f.pl_pop, 1u << cur.src);
      ASSERT_EQ(f.data, cur.words.front()) << "cycle " << cycle;
      ASSERT_EQ(f.links, cur.links);
      ASSERT_EQ(f.rcv_pl, cur.rcv);
      if (cur.rcv) ASSERT_TRUE(pspace) << "a word pushed into a full reception";
      cur.words.pop_front();
      if (--cur.left == 0) cur.open = false;
    }
  }
  EXPECT_GT(packets, 1000u);
  EXPECT_FALSE(b.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
