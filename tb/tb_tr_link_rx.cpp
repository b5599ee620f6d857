// SPDX-License-Identifier: Apache-2.0
// tr_link_rx on its own (DynFlits 40, EscSlots 2: buffers of 40 flits, not a power of two
// and more than one packet but less than two, and of 2 slots of 33 flits): each VC's flits
// land in that VC's buffer and come out at its head in order; a credit per flit that
// leaves a dynamic VC and per packet (at its last flit) that leaves the escape or priority
// VC; a header inside a packet, payload outside one and a flit that finds its buffer full
// flagged (one proto_err_o pulse each) and dropped, never delivered; a full VC holding up
// no other, packets of different VCs interleaved flit by flit; reset; and 200,000 cycles of
// random traffic from a sender that keeps to its credits, with flits that break the rules
// mixed in, against a C++ model of the receiver, every credit coming back in the end and
// no assertion tripped. A sender that ignores its credits (a packet started without room
// for all its flits, or with every packet slot held) trips the assertions.
#include <array>
#include <deque>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "Vtr_link_rx.h"
#include "firmware/regmap.hpp"
#include "firmware/torus_packet.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

using namespace fw::regmap;
using Flits = std::vector<uint64_t>;

constexpr unsigned kDynFlits = 40, kEscSlots = 2;  // -GDynFlits=40 -GEscSlots=2 in tb/CMakeLists.txt
constexpr unsigned kVcs = kTrNumVcs;
constexpr unsigned kEscFlits = kEscSlots * kMaxPacketFlits;
constexpr unsigned depth(unsigned vc) { return vc < 2 ? kDynFlits : kEscFlits; }
constexpr bool per_flit(unsigned vc) { return vc == kTrVcDyn0 || vc == kTrVcDyn1; }

// A packet of `chunks` chunks whose header and words are told apart by `id`.
Flits packet(unsigned chunks, unsigned id) {
  fw::TorusHeader h;
  h.chunks = chunks;
  h.dst = {id & 255, (id >> 8) & 255, 7};
  h.sw_tag = id & 15;
  Flits f{h.encode()};
  for (unsigned i = 0; i < kChunkFlits * chunks; ++i) f.push_back(uint64_t{id} << 32 | 0xc0de0000u | i);
  return f;
}

struct Rx : ClockedHarness<Vtr_link_rx> {
  std::array<unsigned, kVcs> credits{};  // credit pulses seen per VC
  unsigned errors = 0;                   // proto_err_o pulses seen

  // One cycle: a flit on the link (valid = false: none) and pops (bit v pops VC v).
  // Counts the credit and error pulses the edge produces.
  void cycle(bool valid, bool hdr, unsigned vc, uint64_t data, unsigned pop = 0) {
    auto& m = model();
    m.valid_i = valid;
    m.hdr_i = hdr;
    m.vc_i = vc;
    m.data_i = data;
    m.pop_i = pop;
    tick();
    m.valid_i = 0;
    m.pop_i = 0;
    for (unsigned v = 0; v < kVcs; ++v) credits[v] += m.credit_o >> v & 1;
    errors += m.proto_err_o;
  }
  void idle(unsigned pop = 0) { cycle(false, false, 0, 0, pop); }
  void flit(unsigned vc, bool hdr, uint64_t data) { cycle(true, hdr, vc, data); }
  void send(unsigned vc, const Flits& p) {
    for (size_t i = 0; i < p.size(); ++i) flit(vc, i == 0, p[i]);
  }
  bool valid(unsigned vc) { return model().head_valid_o >> vc & 1; }
  uint64_t head(unsigned vc) { return wide_bits(model().head_o.data(), 64 * vc, 64); }
  // Pops `n` flits of VC `vc`, one a cycle, each checked to be there.
  Flits pop(unsigned vc, size_t n) {
    Flits got;
    for (size_t i = 0; i < n; ++i) {
      if (!valid(vc)) {
        ADD_FAILURE() << "VC " << vc << ": flit " << i << " of " << n << " is not there";
        break;
      }
      got.push_back(head(vc));
      idle(1u << vc);
    }
    return got;
  }
  Flits pop_all(unsigned vc) {
    Flits got;
    while (valid(vc)) {
      got.push_back(head(vc));
      idle(1u << vc);
    }
    return got;
  }
};

Flits cat(std::initializer_list<Flits> parts) {
  Flits all;
  for (const Flits& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// ------------------------------------------------------------------ buffers and order
TEST(TrLinkRx, IsEmptyAfterReset) {
  Rx r;
  EXPECT_EQ(r->head_valid_o, 0u);
  EXPECT_EQ(r->credit_o, 0u);
  EXPECT_FALSE(r->proto_err_o);
  r.idle(0b1111);  // pops of empty buffers: nothing leaves, no credit
  EXPECT_EQ(r->head_valid_o, 0u);
  EXPECT_EQ(r->credit_o, 0u);
  EXPECT_FALSE(r.assertion_failed());
}

TEST(TrLinkRx, EachVcsFlitsComeOutAtItsHeadInOrder) {
  Rx r;
  const unsigned chunks[kVcs] = {1, 3, 8, 2};
  std::array<Flits, kVcs> sent;
  for (unsigned v = 0; v < kVcs; ++v) {
    sent[v] = packet(chunks[v], 10 + v);
    r.flit(v, true, sent[v][0]);
    EXPECT_EQ(r->head_valid_o, (2u << v) - 1) << "the header of VC " << v << " at its head the cycle after";
    EXPECT_EQ(r.head(v), sent[v][0]);
    for (size_t i = 1; i < sent[v].size(); ++i) r.flit(v, false, sent[v][i]);
    EXPECT_EQ(r.head(v), sent[v][0]) << "the head stays the oldest flit";
  }
  // A second packet behind the first on VC 1.
  const Flits second = packet(1, 99);
  r.send(1, second);
  unsigned drained = 0;
  for (unsigned v : {3u, 1u, 0u, 2u}) {
    const Flits want = v == 1 ? cat({sent[1], second}) : sent[v];
    EXPECT_EQ(r.pop_all(v), want) << "VC " << v;
    drained |= 1u << v;
    EXPECT_EQ(r->head_valid_o, 0b1111u & ~drained) << "after draining VC " << v;
  }
  EXPECT_EQ(r->head_valid_o, 0u);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_FALSE(r.assertion_failed());
}

// Popping one VC takes from that VC only.
TEST(TrLinkRx, APopTakesFromItsVcOnly) {
  Rx r;
  for (unsigned v = 0; v < kVcs; ++v) r.send(v, packet(1, v));
  for (unsigned v = 0; v < kVcs; ++v) {
    const uint64_t heads[kVcs] = {r.head(0), r.head(1), r.head(2), r.head(3)};
    r.idle(1u << v);
    for (unsigned o = 0; o < kVcs; ++o) {
      EXPECT_TRUE(r.valid(o));
      if (o == v) EXPECT_EQ(r.head(o), packet(1, o)[1]) << "VC " << o << " moved on to its first word";
      else EXPECT_EQ(r.head(o), heads[o]) << "VC " << o << " moved when VC " << v << " was popped";
    }
  }
}

// The link may carry flits of packets of different VCs in any order: each VC's framing is
// its own (a header on one VC inside another VC's packet is no error).
TEST(TrLinkRx, PacketsOfDifferentVcsInterleaveFlitByFlit) {
  Rx r;
  std::array<Flits, kVcs> p = {packet(2, 1), packet(1, 2), packet(8, 3), packet(3, 4)};
  std::array<size_t, kVcs> pos{};
  for (bool more = true; more;) {
    more = false;
    for (unsigned v : {2u, 0u, 3u, 1u}) {
      if (pos[v] == p[v].size()) continue;
      r.flit(v, pos[v] == 0, p[v][pos[v]]);
      ++pos[v];
      more = true;
    }
  }
  EXPECT_EQ(r.errors, 0u);
  for (unsigned v = 0; v < kVcs; ++v) EXPECT_EQ(r.pop_all(v), p[v]) << "VC " << v;
}

// ------------------------------------------------------------------ credits
TEST(TrLinkRx, DynamicVcsReturnACreditPerFlitThatLeaves) {
  for (unsigned v : {kTrVcDyn0, kTrVcDyn1}) {
    Rx r;
    const Flits p = packet(3, 5);
    r.send(v, p);
    EXPECT_EQ(r.credits, (std::array<unsigned, kVcs>{})) << "no credit before a flit leaves";
    for (size_t i = 0; i < p.size(); ++i) {
      ASSERT_EQ(r.head(v), p[i]);
      r.idle(1u << v);
      EXPECT_EQ(r->credit_o, 1u << v) << "VC " << v << ": flit " << i << " left, its credit the cycle after";
      r.idle();
      EXPECT_EQ(r->credit_o, 0u) << "VC " << v << ": one pulse per flit";
    }
    EXPECT_EQ(r.credits[v], p.size());
    r.idle(1u << v);  // a pop of the empty buffer
    EXPECT_EQ(r->credit_o, 0u);
    EXPECT_EQ(r.credits[v], p.size());
    // Back to back: a pulse every cycle.
    r.send(v, p);
    for (size_t i = 0; i < p.size(); ++i) {
      r.idle(1u << v);
      EXPECT_EQ(r->credit_o, 1u << v) << "back-to-back pop " << i;
    }
    EXPECT_EQ(r.credits[v], 2 * p.size());
  }
}

// The escape and priority VCs count packet slots: one credit per packet, as its last flit
// leaves, whatever its length.
TEST(TrLinkRx, EscapeAndPriorityVcsReturnACreditPerPacketAtItsLastFlit) {
  for (unsigned v : {kTrVcEscape, kTrVcPrio}) {
    Rx r;
    const Flits a = packet(8, 1), b = packet(1, 2);  // 33 + 5 flits
    r.send(v, a);
    r.send(v, b);
    const Flits all = cat({a, b});
    for (size_t i = 0; i < all.size(); ++i) {
      ASSERT_EQ(r.head(v), all[i]);
      r.idle(1u << v);
      const bool last = i + 1 == a.size() || i + 1 == all.size();
      EXPECT_EQ(r->credit_o, last ? 1u << v : 0u) << "VC " << v << ": flit " << i;
      if (i % 3 == 0) {  // a gap does not lose the count
        r.idle();
        EXPECT_EQ(r->credit_o, 0u);
      }
    }
    EXPECT_EQ(r.credits[v], 2u) << "VC " << v;
    EXPECT_EQ(r.credits[v ^ 1], 0u) << "VC " << (v ^ 1);
  }
}

// Cut-through: the header leaves before the rest of its packet has arrived, and each word is
// popped in the cycle the next comes in; the packet's credit still waits for its last flit.
TEST(TrLinkRx, APacketCreditWaitsForTheLastFlitWhenThePacketLeavesAsItArrives) {
  for (unsigned v = 0; v < kVcs; ++v) {
    Rx r;
    const Flits p = packet(2, 3);
    r.flit(v, true, p[0]);
    Flits got;
    unsigned pulses = 0;
    for (size_t i = 1; i <= p.size(); ++i) {
      ASSERT_TRUE(r.valid(v));
      got.push_back(r.head(v));
      const bool more = i < p.size();
      r.cycle(more, false, v, more ? p[i] : 0, 1u << v);
      pulses += r->credit_o >> v & 1;
      EXPECT_EQ(r->credit_o >> v & 1, per_flit(v) || i == p.size() ? 1u : 0u) << "VC " << v << ": flit " << i - 1;
      if (more) EXPECT_TRUE(r.valid(v));
    }
    EXPECT_FALSE(r.valid(v));
    EXPECT_EQ(got, p);
    EXPECT_EQ(pulses, per_flit(v) ? p.size() : 1u);
    EXPECT_EQ(r.errors, 0u);
  }
}

// ------------------------------------------------------------------ protocol errors
TEST(TrLinkRx, FlagsAndDropsAHeaderInsideAPacket) {
  for (unsigned v = 0; v < kVcs; ++v) {
    Rx r;
    const Flits p = packet(2, 1), stray = packet(1, 2), next = packet(1, 3);
    for (size_t i = 0; i < 4; ++i) r.flit(v, i == 0, p[i]);
    EXPECT_FALSE(r->proto_err_o);
    r.flit(v, true, stray[0]);
    EXPECT_TRUE(r->proto_err_o) << "VC " << v << ": the error the cycle after the flit";
    for (size_t i = 4; i < p.size(); ++i) r.flit(v, false, p[i]);
    EXPECT_FALSE(r->proto_err_o) << "one pulse per flit";
    EXPECT_EQ(r.errors, 1u) << "VC " << v << ": the rest of the packet is framed as before the stray header";
    r.send(v, next);
    EXPECT_EQ(r.errors, 1u);
    EXPECT_EQ(r.pop_all(v), cat({p, next})) << "VC " << v << ": the stray header was dropped";
  }
}

TEST(TrLinkRx, FlagsAndDropsPayloadOutsideAPacket) {
  for (unsigned v = 0; v < kVcs; ++v) {
    Rx r;
    r.flit(v, false, 0x5555);  // on an idle VC
    EXPECT_TRUE(r->proto_err_o);
    EXPECT_EQ(r->head_valid_o, 0u) << "VC " << v << ": the word was kept";
    const Flits p = packet(1, 1);
    r.send(v, p);
    r.flit(v, false, 0x6666);  // one word too many
    EXPECT_EQ(r.errors, 2u) << "VC " << v;
    r.flit(v, false, 0x7777);
    EXPECT_EQ(r.errors, 3u) << "VC " << v;
    EXPECT_EQ(r.pop_all(v), p) << "VC " << v;
    EXPECT_EQ(r.credits[v], per_flit(v) ? p.size() : 1u) << "no credit for a dropped word";
  }
}

// A buffer full to its last flit: a header that comes anyway is dropped (and its words then
// lie outside a packet: dropped too), one pulse per flit; what the buffer held is intact,
// and once it has room again the VC takes packets as before.
TEST(TrLinkRx, FlagsAndDropsAPacketThatFindsItsBufferFull) {
  for (unsigned v = 0; v < kVcs; ++v) {
    Rx r;
    // 13 + 9 + 9 + 9 = 40 flits (dynamic VCs), 33 + 33 = 66 (escape and priority).
    const std::vector<unsigned> fill = per_flit(v) ? std::vector<unsigned>{3, 2, 2, 2} : std::vector<unsigned>{8, 8};
    Flits held;
    for (size_t k = 0; k < fill.size(); ++k) {
      const Flits p = packet(fill[k], static_cast<unsigned>(k));
      r.send(v, p);
      held.insert(held.end(), p.begin(), p.end());
    }
    ASSERT_EQ(held.size(), depth(v));
    EXPECT_EQ(r.errors, 0u) << "VC " << v << " filled to its depth";
    const Flits extra = packet(1, 50);
    for (size_t i = 0; i < extra.size(); ++i) {
      r.flit(v, i == 0, extra[i]);
      EXPECT_TRUE(r->proto_err_o) << "VC " << v << ": flit " << i << " of a packet beyond the buffer";
    }
    EXPECT_EQ(r.errors, extra.size());
    const Flits after = packet(2, 60);
    EXPECT_EQ(r.pop(v, held.size()), held) << "VC " << v;
    EXPECT_FALSE(r.valid(v)) << "VC " << v << ": a flit of the packet beyond the buffer was kept";
    r.send(v, after);
    EXPECT_EQ(r.errors, extra.size());
    EXPECT_EQ(r.pop_all(v), after) << "VC " << v;
  }
}

// A dynamic VC one flit short of a packet's room (a sender that ignored its credits): the
// word that finds the buffer full is dropped and never appears, and the packet's framing
// counts the words taken: it is complete with the header's count of words after it, so
// one more word than the sender meant ends it, and a header in its place is refused. The
// packet starting without room for all its flits trips the cut-through assertion.
TEST(TrLinkRx, AWordThatFindsItsBufferFullIsDroppedAndNeverDelivered) {
  Rx r;
  const unsigned v = kTrVcDyn1;
  const Flits a = packet(8, 1), b = packet(1, 2), c = packet(2, 3);  // 33 + 5 + 9 flits
  r.send(v, a);
  r.send(v, b);
  EXPECT_FALSE(r.assertion_failed()) << "38 of 40 flits, each packet started with room";
  r.flit(v, true, c[0]);   // flit 39
  EXPECT_TRUE(r.assertion_failed()) << "a packet of 9 flits started with 2 free";
  r.flit(v, false, c[1]);  // flit 40: full
  EXPECT_EQ(r.errors, 0u);
  r.flit(v, false, c[2]);
  EXPECT_EQ(r.errors, 1u) << "a word into a full buffer";
  EXPECT_EQ(r.pop(v, a.size()), a);
  for (size_t i = 3; i < c.size(); ++i) r.flit(v, false, c[i]);
  EXPECT_EQ(r.errors, 1u);
  const Flits next = packet(1, 4);
  r.flit(v, true, next[0]);
  EXPECT_EQ(r.errors, 2u) << "a header while the packet lacks a word";
  r.flit(v, false, 0xf111);  // the word that completes it
  r.send(v, next);
  EXPECT_EQ(r.errors, 2u);
  Flits want = cat({b, c});
  want.erase(want.begin() + static_cast<long>(b.size()) + 2);  // c[2]
  want.push_back(0xf111);
  want.insert(want.end(), next.begin(), next.end());
  EXPECT_EQ(r.pop_all(v), want);
}

// A flit into a full buffer is refused even when that buffer is popped in the same cycle:
// the sender's credit for the pop comes only after it.
TEST(TrLinkRx, AFullBufferPoppedInTheSameCycleStillRefusesTheFlit) {
  Rx r;
  const Flits a = packet(8, 1), b = packet(8, 2);
  r.send(kTrVcEscape, a);
  r.send(kTrVcEscape, b);
  const Flits c = packet(1, 3);
  r.cycle(true, true, kTrVcEscape, c[0], 1u << kTrVcEscape);
  EXPECT_TRUE(r->proto_err_o);
  const Flits all = cat({a, b});
  EXPECT_EQ(r.pop_all(kTrVcEscape), Flits(all.begin() + 1, all.end())) << "the pop took the oldest flit only";
}

// The escape and priority VCs count packet slots, not flits: a third short packet on a VC
// of two slots fits in the buffer's 66 flits, so nothing on the link flags it, but its
// sender overran its credits, which trips the assertion. A slot comes back with the last
// flit of the packet that held it.
TEST(TrLinkRx, APacketBeyondThePacketSlotsTripsTheAssertion) {
  for (unsigned v : {kTrVcEscape, kTrVcPrio}) {
    Rx r;
    r.send(v, packet(1, 1));
    r.send(v, packet(1, 2));
    r.pop(v, 4);  // all but the last flit of the first packet
    r.send(v, packet(1, 3));
    EXPECT_TRUE(r.assertion_failed()) << "VC " << v << ": a third packet with both slots held";
    EXPECT_EQ(r.errors, 0u) << "VC " << v << ": 11 of 66 flits, the buffer itself had room";
  }
  for (unsigned v : {kTrVcEscape, kTrVcPrio}) {
    Rx r;
    r.send(v, packet(1, 1));
    r.send(v, packet(1, 2));
    r.pop(v, 5);  // the first packet, and its slot's credit
    EXPECT_EQ(r.credits[v], 1u);
    r.send(v, packet(1, 3));
    EXPECT_FALSE(r.assertion_failed()) << "VC " << v << ": the third packet took the slot given back";
  }
}

TEST(TrLinkRx, AFullVcHoldsUpNoOther) {
  std::mt19937_64 rng(test_seed());
  Rx r;
  // VC 2 and VC 0 full, never popped.
  r.send(kTrVcEscape, packet(8, 1));
  r.send(kTrVcEscape, packet(8, 2));
  for (unsigned k : {3u, 2u, 2u, 2u}) r.send(kTrVcDyn0, packet(k, 3));
  const uint64_t esc_head = r.head(kTrVcEscape), dyn_head = r.head(kTrVcDyn0);
  // VC 1 and VC 3 carry 200 packets, interleaved at random and drained as they arrive.
  std::array<std::deque<uint64_t>, kVcs> want;
  std::array<Flits, kVcs> cur;
  std::array<size_t, kVcs> pos{};
  unsigned packets = 0, delivered = 0;
  for (int c = 0; packets < 200 || pos[1] < cur[1].size() || pos[3] < cur[3].size() || !want[1].empty() ||
                  !want[3].empty();
       ++c) {
    ASSERT_LT(c, 100000);
    unsigned vc = rng() % 2 ? 1 : 3;
    if (pos[vc] == cur[vc].size() && packets < 200) {
      cur[vc] = packet(1 + static_cast<unsigned>(rng() % 8), packets++);
      pos[vc] = 0;
    }
    unsigned pop = 0;
    for (unsigned o : {1u, 3u})
      if (r.valid(o)) {
        EXPECT_FALSE(want[o].empty());
        if (!want[o].empty()) {
          EXPECT_EQ(r.head(o), want[o].front()) << "VC " << o;
          want[o].pop_front();
        }
        pop |= 1u << o;
        ++delivered;
      }
    if (pos[vc] < cur[vc].size()) {
      want[vc].push_back(cur[vc][pos[vc]]);
      r.cycle(true, pos[vc] == 0, vc, cur[vc][pos[vc]], pop);
      ++pos[vc];
    } else {
      r.idle(pop);
    }
    ASSERT_FALSE(r->proto_err_o) << "cycle " << c;
  }
  EXPECT_GT(delivered, 200u * 5);
  EXPECT_EQ(r.head(kTrVcEscape), esc_head);
  EXPECT_EQ(r.head(kTrVcDyn0), dyn_head);
  EXPECT_EQ(r.credits[kTrVcEscape] + r.credits[kTrVcDyn0], 0u);
  // The full VCs still refuse; the others still take.
  r.flit(kTrVcEscape, true, packet(1, 9)[0]);
  EXPECT_TRUE(r->proto_err_o);
  r.flit(kTrVcDyn0, true, packet(1, 9)[0]);
  EXPECT_TRUE(r->proto_err_o);
  r.flit(kTrVcPrio, true, packet(1, 9)[0]);
  EXPECT_FALSE(r->proto_err_o);
  EXPECT_EQ(r.errors, 2u);
}

TEST(TrLinkRx, ResetEmptiesTheBuffersAndForgetsOpenPackets) {
  Rx r;
  for (unsigned v = 0; v < kVcs; ++v) {
    const Flits p = packet(2, v);
    for (size_t i = 0; i < 3; ++i) r.flit(v, i == 0, p[i]);  // open on every VC
  }
  r.idle(0b1111);
  r.reset();
  EXPECT_EQ(r->head_valid_o, 0u);
  EXPECT_EQ(r->credit_o, 0u);
  EXPECT_FALSE(r->proto_err_o);
  for (unsigned v = 0; v < kVcs; ++v) {
    r.errors = 0;
    r.flit(v, false, 1);  // the open packet's next word: now outside a packet
    EXPECT_EQ(r.errors, 1u) << "VC " << v;
    const Flits p = packet(1, 20 + v);
    r.send(v, p);
    EXPECT_EQ(r.errors, 1u) << "VC " << v << ": a header is welcome after reset";
    r.credits = {};
    EXPECT_EQ(r.pop_all(v), p) << "VC " << v;
    EXPECT_EQ(r.credits[v], per_flit(v) ? p.size() : 1u) << "VC " << v << ": the packet count starts afresh";
  }
}

// ------------------------------------------------------------------ random
// The receiver as its header comment describes it, flit for flit.
struct RxModel {
  std::array<std::deque<uint64_t>, kVcs> buf;
  std::array<unsigned, kVcs> in_left{};   // words of the packet still to come in, per VC
  std::array<unsigned, kVcs> out_left{};  // flits of the head packet still to leave after its header
  // One cycle; returns the credits and the error this cycle's edge produces.
  std::pair<unsigned, bool> step(bool valid, bool hdr, unsigned vc, uint64_t data, unsigned pop) {
    unsigned credit = 0;
    bool err = false;
    const auto flits = [](uint64_t h) { return fw::TorusHeader::decode(h).flits(); };
    if (valid) {
      const bool frame = hdr ? in_left[vc] != 0 : in_left[vc] == 0;
      const bool space = !frame && buf[vc].size() == depth(vc);
      err = frame || space;
      if (!err) {
        in_left[vc] = hdr ? flits(data) - 1 : in_left[vc] - 1;
      }
    }
    for (unsigned v = 0; v < kVcs; ++v) {
      if (!(pop >> v & 1) || buf[v].empty()) continue;
      const bool last = out_left[v] == 1;
      out_left[v] = out_left[v] == 0 ? flits(buf[v].front()) - 1 : out_left[v] - 1;
      buf[v].pop_front();
      if (per_flit(v) || last) credit |= 1u << v;
    }
    if (valid && !err) buf[vc].push_back(data);
    return {credit, err};
  }
};

// A sender that keeps to its credits (virtual cut-through: a dynamic VC's packet starts
// with room for all its flits, an escape or priority packet with a free slot), and flits
// that break the rules: payload on a VC with no packet open, a header inside an open
// packet, a header into a buffer the model says is full. Pops come at rates that change
// every few thousand cycles, so that buffers run full and empty.
// ------------------------------------------------------------------ a link that goes down
// Packets cut off half way on two VCs are completed with zero flits, one a cycle on each,
// and leave whole (with their credits); what the dead link still brings is ignored, and a
// whole packet already in is untouched.
TEST(TrLinkRx, ADownLinkCompletesHalfReceivedPacketsWithZeroFlits) {
  Rx r;
  const Flits whole = packet(1, 1), cut0 = packet(2, 2), cut3 = packet(1, 3);
  r.send(kTrVcDyn1, whole);
  r.send(kTrVcDyn0, Flits(cut0.begin(), cut0.begin() + 4));  // 4 of 9 flits
  r.send(kTrVcPrio, Flits(cut3.begin(), cut3.begin() + 2));  // 2 of 5 flits
  r->flush_i = 1;
  for (unsigned c = 0; c < 6; ++c) r.flit(kTrVcDyn0, false, 0xbad);  // the dead link's noise
  EXPECT_EQ(r.errors, 0u) << "flits of a down link are ignored, not framing errors";
  Flits want0(cut0.begin(), cut0.begin() + 4), want3(cut3.begin(), cut3.begin() + 2);
  want0.resize(cut0.size(), 0);
  want3.resize(cut3.size(), 0);
  EXPECT_EQ(r.pop_all(kTrVcDyn0), want0);
  EXPECT_EQ(r.pop_all(kTrVcPrio), want3);
  EXPECT_EQ(r.pop_all(kTrVcDyn1), whole);
  r.idle();
  EXPECT_EQ(r.credits[kTrVcDyn0], cut0.size());
  EXPECT_EQ(r.credits[kTrVcPrio], 1u);
  EXPECT_EQ(r->head_valid_o, 0u);
  EXPECT_FALSE(r.assertion_failed());
}

TEST(TrLinkRx, RandomTrafficMatchesTheModel) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Rx r;
  RxModel model;
  std::array<unsigned, kVcs> credit{kDynFlits, kDynFlits, kEscSlots, kEscSlots};
  std::array<Flits, kVcs> cur;
  std::array<size_t, kVcs> pos{};
  std::array<unsigned, kVcs> pop_pct{}, packets{};
  unsigned send_pct = 0, bad = 0, flagged = 0, next_id = 1, full_seen = 0;
  const int kCycles = 200000;
  for (int c = 0; c < kCycles + 20000; ++c) {
    const bool draining = c >= kCycles;  // the end: no new packets, everything popped
    if (c % 3000 == 0) {
      for (auto& p : pop_pct) p = std::array<unsigned, 4>{0, 10, 50, 100}[rng() % 4];
      send_pct = 30 + static_cast<unsigned>(rng() % 71);
    }
    if (draining) pop_pct = {100, 100, 100, 100};
    // Check the heads against the model before the edge.
    for (unsigned v = 0; v < kVcs; ++v) {
      ASSERT_EQ(r.valid(v), !model.buf[v].empty()) << "VC " << v << ", cycle " << c;
      if (r.valid(v)) ASSERT_EQ(r.head(v), model.buf[v].front()) << "VC " << v << ", cycle " << c;
      full_seen += model.buf[v].size() == depth(v);
    }
    // The flit of this cycle.
    bool valid = false, hdr = false;
    unsigned vc = static_cast<unsigned>(rng() % kVcs);
    uint64_t data = 0;
    bool breaks = false;
    if (!draining && rng() % 100 == 0) {
      // A flit that breaks the rules, if the chosen VC offers the chance.
      switch (rng() % 3) {
        case 0:
          if (pos[vc] == cur[vc].size()) valid = true, hdr = false, data = rng();
          break;
        case 1:
          if (pos[vc] > 0 && pos[vc] < cur[vc].size()) valid = hdr = true, data = packet(1, 0)[0];
          break;
        default:
          if (pos[vc] == cur[vc].size() && model.buf[vc].size() == depth(vc)) valid = hdr = true, data = packet(2, 0)[0];
          break;
      }
      breaks = valid;
    } else if (rng() % 100 < send_pct) {
      // A packet's next flit on a VC that has one going, or a new packet within the credits.
      std::vector<unsigned> ok;
      for (unsigned v = 0; v < kVcs; ++v) {
        if (pos[v] < cur[v].size()) ok.push_back(v);
        else if (!draining) ok.push_back(v);
      }
      vc = ok.empty() ? vc : ok[rng() % ok.size()];
      if (pos[vc] == cur[vc].size() && !draining) {
        const unsigned chunks = 1 + static_cast<unsigned>(rng() % (rng() % 4 == 0 ? 8 : 2));
        const unsigned flits = 1 + kChunkFlits * chunks;
        if (per_flit(vc) ? credit[vc] >= flits : credit[vc] >= 1) {
          cur[vc] = packet(chunks, next_id++);
          pos[vc] = 0;
          credit[vc] -= per_flit(vc) ? 0 : 1;
          ++packets[vc];
        }
      }
      if (pos[vc] < cur[vc].size()) {
        valid = true;
        hdr = pos[vc] == 0;
        data = cur[vc][pos[vc]++];
        if (per_flit(vc)) {
          ASSERT_GT(credit[vc], 0u);
          --credit[vc];
        }
      }
    }
    unsigned pop = 0;
    for (unsigned v = 0; v < kVcs; ++v)
      if (rng() % 100 < pop_pct[v] || rng() % 200 == 0) pop |= 1u << v;  // now and then a pop of an empty one
    const auto [want_credit, want_err] = model.step(valid, hdr, vc, data, pop);
    r.cycle(valid, hdr, vc, data, pop);
    ASSERT_EQ(r->credit_o, want_credit) << "cycle " << c;
    ASSERT_EQ(bool(r->proto_err_o), want_err) << "cycle " << c;
    ASSERT_EQ(want_err, breaks) << "cycle " << c << ": a flit " << (breaks ? "breaking" : "keeping") << " the rules";
    bad += breaks;
    flagged += want_err;
    for (unsigned v = 0; v < kVcs; ++v) credit[v] += want_credit >> v & 1;
  }
  for (unsigned v = 0; v < kVcs; ++v) {
    EXPECT_TRUE(model.buf[v].empty()) << "VC " << v;
    EXPECT_EQ(credit[v], v < 2 ? kDynFlits : kEscSlots) << "VC " << v << ": every credit came back";
    EXPECT_GT(packets[v], 1000u) << "VC " << v;
  }
  EXPECT_GT(bad, 200u);
  EXPECT_EQ(flagged, bad);
  EXPECT_GT(full_seen, 1000u) << "buffers ran full";
  EXPECT_EQ(r.errors, bad);
  EXPECT_FALSE(r.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
