// SPDX-License-Identifier: Apache-2.0
// cn_combine on its own: the upward half of the adapter. A packet starts only when every
// source its class route names (the local injection if the node contributes, each down
// link) offers the same header and its destination (the class's up link, or the root's
// turnaround) may start; its payload then streams through the ALU one flit per cycle,
// stalling while any contributor has no word, with the identity of the opcode in every
// ALU input that has no contributor. Results are checked against the firmware's ALU model
// (firmware/alu_model.hpp) for every opcode and operand size, with MAX/MIN ties and ADD
// carries across the words of an operand. A header that differs, comes from a source the
// route does not list, or carries the reserved opcode or an operand size the ALU cannot
// cut raises one error pulse and halts the engine. 200,000 random cycles check every flit
// and every pop against a cycle-by-cycle statement of the rules, none tripping the
// module's assertions; a route cn_regs refuses (a child on every link) trips one.
#include <array>
#include <deque>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "Vcn_combine.h"
#include "firmware/alu_model.hpp"
#include "firmware/packet.hpp"
#include "firmware/regmap.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

namespace rm = fw::regmap;
constexpr unsigned kWords = rm::kPayloadFlits;
constexpr unsigned kTurnaround = 3;  // destination 3: the root's turnaround path
// Every operand size the ALU cuts, in 16-bit words: 16- and 32-bit lanes, operands of
// 1, 2, 4, 8, 16 and 32 64-bit words.
constexpr unsigned kSizes[] = {1, 2, 4, 8, 16, 32, 64, 128};
// The error outputs as a mask, for checking that exactly one of them fired.
constexpr unsigned kErrRoute = 1, kErrMismatch = 2, kErrOpcode = 4, kErrSize = 8;
// What a source offers where it offers nothing, so that data under a low valid is never taken.
constexpr uint32_t kJunkHdr = 0xffffffffu;
constexpr uint64_t kJunkWord = 0xbadbadbadbadbadbull;

using Words = std::vector<uint64_t>;

struct Packet {
  uint32_t hdr = 0;
  Words words;
};

uint64_t route(unsigned up, unsigned down, bool src) {
  fw::ClassRoute r;
  r.up_link = up;
  r.down_mask = down;
  r.local_source = src;
  return r.encode();
}

uint32_t header(unsigned cls, unsigned op, unsigned size_words = 4, unsigned tag = 0) {
  fw::Header h;
  h.cls = cls;
  h.op = static_cast<fw::AluOp>(op);
  h.size_words = size_words;
  h.tag = tag;
  return h.encode();
}

// The sources a route combines: bit 0 the local injection, bit l + 1 link l.
unsigned need_of(uint64_t r) {
  const fw::ClassRoute c = fw::ClassRoute::decode(r);
  return c.down_mask << 1 | unsigned(c.local_source);
}

// The expected payload: the contributions folded pairwise by the firmware's ALU model
// (every opcode is associative and commutative, and the model takes words in the order
// they travel). No identity is involved, so it also checks that the block's identity is
// neutral.
Words reference(unsigned op, unsigned size_words, const std::vector<Words>& contributions) {
  Words r = contributions.at(0);
  for (size_t i = 1; i < contributions.size(); ++i) fw::alu_combine(op, size_words, r, contributions[i]);
  return r;
}

uint64_t word(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: return 0;
    case 1: return ~0ull;
    case 2: return rng() & 3;
    default: return rng();
  }
}

// `n` payloads that share about half their words: equal words in the same place make
// MAX/MIN ties that last several words of an operand, all-ones words long ADD carries.
std::vector<Words> contributions(std::mt19937_64& rng, unsigned n) {
  Words base(kWords);
  for (auto& w : base) w = word(rng);
  std::vector<Words> out(n, base);
  for (auto& c : out)
    for (auto& w : c)
      if (rng() % 2) w = word(rng);
  return out;
}

struct Combine : ClockedHarness<Vcn_combine> {
  std::array<uint64_t, rm::kNumClasses> routes{};
  std::array<std::deque<Packet>, 4> src;  // 0 local injection, 1..3 links 0..2
  std::array<unsigned, 4> sent{};         // flits of the head packet popped (0: its header is next)

  void set_route(unsigned cls, uint64_t r) {
    routes[cls] = r;
    for (unsigned c = 0; c < rm::kNumClasses; ++c)
      set_wide_bits(model().routes_i.data(), c * rm::kRouteBits, rm::kRouteBits, routes[c]);
  }

  // The sources' heads as they are offered this cycle: headers of packets not started,
  // payload words of started ones whose bit of `pl_ready` is set (a gap where it is clear).
  unsigned hdr_valid() const {
    unsigned v = 0;
    for (unsigned s = 0; s < 4; ++s) v |= unsigned(!src[s].empty() && sent[s] == 0) << s;
    return v;
  }
  unsigned pl_valid(unsigned pl_ready) const {
    unsigned v = 0;
    for (unsigned s = 0; s < 4; ++s) v |= unsigned(!src[s].empty() && sent[s] > 0 && (pl_ready >> s & 1)) << s;
    return v;
  }

  struct Flit {
    bool valid, hdr;
    uint64_t data;
    unsigned dst, hdr_pop, pl_pop, hold;
    bool want;
    unsigned want_dst;
    bool busy;
    unsigned alu_op;
    uint64_t alu_result;
  };
  // One cycle: offers the heads, lets the destinations start where `can_start` says, and
  // pops at the edge what the block popped. Returns what the block did before the edge.
  // want_o must not depend on dst_can_start_i (the arbitration's grant depends on it):
  // it is sampled with no destination free first.
  Flit cycle(unsigned can_start = 0xf, unsigned pl_ready = 0xf) {
    auto& m = model();
    const unsigned hv = hdr_valid(), pv = pl_valid(pl_ready);
    for (unsigned s = 0; s < 4; ++s) {
      set_wide_bits(m.src_hdr_i.data(), s * 32, 32, hv >> s & 1 ? src[s].front().hdr : kJunkHdr);
      set_wide_bits(m.src_pl_i.data(), s * 64, 64, pv >> s & 1 ? src[s].front().words[sent[s] - 1] : kJunkWord);
    }
    m.src_hdr_valid_i = hv;
    m.src_pl_valid_i = pv;
    m.dst_can_start_i = 0;
    eval();
    const bool want_unstarted = m.want_o;
    const unsigned want_dst_unstarted = m.want_dst_o;
    m.dst_can_start_i = can_start;
    eval();
    const Flit f{bool(m.out_valid_o), bool(m.out_hdr_o), m.out_data_o, m.out_dst_o, m.src_hdr_pop_o, m.src_pl_pop_o,
                 m.hold_o, bool(m.want_o), m.want_dst_o, bool(m.busy_o), m.alu_opcode_o, m.alu_result_o};
    EXPECT_EQ(f.want, want_unstarted) << "want_o depends on dst_can_start_i";
    if (f.want) {
      EXPECT_EQ(f.want_dst, want_dst_unstarted) << "want_dst_o depends on dst_can_start_i";
    }
    EXPECT_EQ(f.hdr_pop & ~hv, 0u) << "a header popped that was not offered";
    EXPECT_EQ(f.pl_pop & ~pv, 0u) << "a payload word popped that was not offered";
    tick();
    for (unsigned s = 0; s < 4; ++s) {
      if (((f.hdr_pop & hv) >> s & 1u) || ((f.pl_pop & pv) >> s & 1u)) ++sent[s];
      if (sent[s] == 1 + kWords) {
        src[s].pop_front();
        sent[s] = 0;
      }
    }
    return f;
  }

  // The error pulses of the cycle just ended, as a mask of kErr*.
  unsigned errors() {
    auto& m = model();
    return (m.err_bad_route_o ? kErrRoute : 0) | (m.err_mismatch_o ? kErrMismatch : 0) |
           (m.err_bad_opcode_o ? kErrOpcode : 0) | (m.err_bad_size_o ? kErrSize : 0);
  }

  // Offers a packet with header `hdr` at each source of `need` (bit s: source s), carrying
  // contribution i at the i-th of them.
  void offer(uint32_t hdr, unsigned need, const std::vector<Words>& c) {
    size_t i = 0;
    for (unsigned s = 0; s < 4; ++s)
      if (need >> s & 1) src[s].push_back({hdr, c.at(i++)});
  }

  struct Out {
    uint32_t hdr = 0;
    unsigned dst = 0, hdr_pop = 0;
    Words words;
  };
  // Steps with every destination free and every word offered until a whole packet has
  // come out: its header, then one payload flit per cycle, each popping the sources the
  // header popped.
  Out next_packet(unsigned max_cycles = 200) {
    Out o;
    bool started = false;
    for (unsigned i = 0; i < max_cycles && o.words.size() < kWords; ++i) {
      const Flit f = cycle();
      if (started) {
        EXPECT_TRUE(f.valid) << "a stall with every word offered, flit " << o.words.size();
      }
      if (!f.valid) continue;
      if (f.hdr) {
        EXPECT_FALSE(started) << "a header inside a packet";
        started = true;
        o.hdr = static_cast<uint32_t>(f.data);
        EXPECT_EQ(f.data >> 32, 0u) << "the header flit's upper half";
        o.dst = f.dst;
        o.hdr_pop = f.hdr_pop;
      } else {
        EXPECT_TRUE(started) << "a payload word before its header";
        EXPECT_EQ(f.dst, o.dst);
        EXPECT_EQ(f.pl_pop, o.hdr_pop) << "flit " << o.words.size();
        o.words.push_back(f.data);
      }
    }
    EXPECT_EQ(o.words.size(), kWords) << "no whole packet came out";
    o.words.resize(kWords, kJunkWord);
    return o;
  }
};

unsigned popcount(unsigned x) {
  unsigned n = 0;
  for (; x; x &= x - 1) ++n;
  return n;
}

TEST(CnCombine, CombinesTwoChildrenAndTheLocalSourceForEveryOpcodeAndOperandSize) {
  std::mt19937_64 rng(test_seed());
  Combine b;
  b.set_route(2, route(0, 0b110, true));  // up link 0, children on links 1 and 2, the node contributes
  const unsigned need = 0b1101;
  unsigned tag = 0;
  for (unsigned op = rm::kOpNone; op <= rm::kOpAdd; ++op)
    for (unsigned size : kSizes)
      for (int rep = 0; rep < 4; ++rep) {
        const uint32_t h = header(2, op, size, tag++);
        const auto c = contributions(rng, 3);
        b.offer(h, need, c);
        const Combine::Out o = b.next_packet();
        EXPECT_EQ(o.hdr, h);
        EXPECT_EQ(o.dst, 0u);
        EXPECT_EQ(o.hdr_pop, need);
        ASSERT_EQ(o.words, reference(op, size, c)) << "opcode " << op << ", " << size * 16 << "-bit operands";
      }
  for (const auto& q : b.src) EXPECT_TRUE(q.empty());
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

// 2-word and 32-word operands whose inputs tie on their leading words: the words after a
// tie is broken come from the inputs still tied, not from the largest (smallest) word;
// the next operand starts with every input in the running again. ADD carries up to 2 into
// the next word of an operand and never into the next operand.
TEST(CnCombine, TiesAndCarriesFollowEachOperandAndEndWithIt) {
  Combine b;
  b.set_route(1, route(kTurnaround, 0b101, true));  // the root: children on links 0 and 2
  const unsigned need = 0b1011;
  auto run = [&](unsigned op, unsigned size, const std::vector<Words>& c) {
    b.offer(header(1, op, size), need, c);
    const Combine::Out o = b.next_packet();
    EXPECT_EQ(o.words, reference(op, size, c)) << "opcode " << op;
    return o.words;
  };
  // MAX of 2-word operands, most significant word first: (local, link 0, link 2).
  std::vector<Words> c(3, Words(kWords, 0));
  auto set = [&](unsigned at, std::array<uint64_t, 3> v) {
    for (unsigned i = 0; i < 3; ++i) c[i][at] = v[i];
  };
  set(0, {5, 5, 3});
  set(1, {1, 9, 100});  // link 2 left the running at word 0: 9, not 100
  set(2, {1, 0, 2});
  set(3, {0, 50, 0});  // a new operand: link 2 wins it, so 0, not 50
  Words r = run(rm::kOpMax, 8, c);
  EXPECT_EQ(r[0], 5u);
  EXPECT_EQ(r[1], 9u);
  EXPECT_EQ(r[2], 2u);
  EXPECT_EQ(r[3], 0u);
  c.assign(3, Words(kWords, 0));
  set(0, {5, 5, 7});
  set(1, {1, 9, 0});  // MIN: link 2 left at word 0: 1, not 0
  set(2, {4, 6, 3});
  set(3, {7, 0, 9});  // a new operand: link 2 wins it, so 9, not 0
  r = run(rm::kOpMin, 8, c);
  EXPECT_EQ(r[0], 5u);
  EXPECT_EQ(r[1], 1u);
  EXPECT_EQ(r[2], 3u);
  EXPECT_EQ(r[3], 9u);
  // One 32-word operand: a tie over 30 words broken at word 30 decides word 31.
  c.assign(3, Words(kWords, 77));
  set(30, {7, 6, 7});
  set(31, {0, 99, 3});
  r = run(rm::kOpMax, 128, c);
  EXPECT_EQ(r[30], 7u);
  EXPECT_EQ(r[31], 3u) << "link 0 left the running at word 30";
  r = run(rm::kOpMin, 128, c);
  EXPECT_EQ(r[30], 6u);
  EXPECT_EQ(r[31], 99u) << "only link 0 is still in the running at word 31";
  // ADD of 2-word operands, least significant word first.
  c.assign(3, Words(kWords, 0));
  set(0, {~0ull, ~0ull, ~0ull});
  set(1, {~0ull, ~0ull, ~0ull});
  set(2, {1, 1, 1});
  r = run(rm::kOpAdd, 8, c);
  EXPECT_EQ(r[0], ~0ull - 2);
  EXPECT_EQ(r[1], ~0ull) << "a carry of 2 into the operand's second word";
  EXPECT_EQ(r[2], 3u) << "the carry out of the operand's last word is dropped, not carried into the next";
  EXPECT_EQ(r[3], 0u);
  EXPECT_EQ(b.errors(), 0u);
}

// Every contributor set the route check allows (the node and up to two children), every
// opcode, single words, lanes and multi-word operands: absent contributors are the
// identity, so the result is that of the present ones alone.
TEST(CnCombine, AbsentContributorsAreTheIdentityOfTheOpcode) {
  std::mt19937_64 rng(test_seed());
  Combine b;
  unsigned tag = 0, sets = 0;
  for (bool local : {false, true})
    for (unsigned down : {0u, 1u, 2u, 4u, 3u, 5u, 6u}) {
      if (!local && down == 0) continue;
      const unsigned up = sets % 2 ? kTurnaround : (down & 1) == 0 ? 0 : (down & 2) == 0 ? 1 : 2;
      const unsigned cls = sets++;
      b.set_route(cls, route(up, down, local));
      const unsigned need = need_of(b.routes[cls]);
      for (unsigned op = rm::kOpNone; op <= rm::kOpAdd; ++op)
        for (unsigned size : {1u, 4u, 16u}) {
          const uint32_t h = header(cls, op, size, tag++);
          const auto c = contributions(rng, popcount(need));
          b.offer(h, need, c);
          const Combine::Out o = b.next_packet();
          EXPECT_EQ(o.hdr, h);
          EXPECT_EQ(o.dst, up);
          EXPECT_EQ(o.hdr_pop, need) << "only the listed sources are popped";
          ASSERT_EQ(o.words, reference(op, size, c))
              << "sources 0x" << std::hex << need << std::dec << ", opcode " << op << ", size " << size;
        }
    }
  EXPECT_EQ(sets, 13u);
  EXPECT_EQ(b.errors(), 0u);
}

TEST(CnCombine, StartsOnlyWithEveryContributorAndItsDestination) {
  std::mt19937_64 rng(test_seed());
  Combine b;
  b.set_route(5, route(2, 0b011, true));  // up link 2, children on links 0 and 1
  const uint32_t h = header(5, rm::kOpAdd, 4, 9);
  const auto c = contributions(rng, 3);
  b.src[0].push_back({h, c[0]});
  for (int i = 0; i < 5; ++i) {
    const auto f = b.cycle();
    EXPECT_FALSE(f.want || f.valid) << "links 0 and 1 have not arrived";
    EXPECT_EQ(f.hdr_pop, 0u);
  }
  b.src[2].push_back({h, c[2]});
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(b.cycle().want) << "link 0 has not arrived";
  b.src[1].push_back({h, c[1]});
  for (unsigned can : {0b0000u, 0b1011u}) {  // every destination but link 2
    const auto f = b.cycle(can);
    EXPECT_TRUE(f.want);
    EXPECT_EQ(f.want_dst, 2u);
    EXPECT_FALSE(f.valid) << "link 2 may not start";
    EXPECT_EQ(f.hdr_pop, 0u);
    EXPECT_FALSE(f.busy);
  }
  const auto f = b.cycle(0b0100);
  ASSERT_TRUE(f.valid && f.hdr);
  EXPECT_EQ(uint32_t(f.data), h);
  EXPECT_EQ(f.dst, 2u);
  EXPECT_EQ(f.hdr_pop, 0b0111u);
  EXPECT_EQ(f.hold, 0u) << "nothing is held before the header leaves";
  Words got;
  for (unsigned i = 0; i < kWords; ++i) {
    const auto p = b.cycle(0);  // a started packet does not wait for its destination again
    ASSERT_TRUE(p.valid && !p.hdr) << "word " << i;
    EXPECT_FALSE(p.want) << "nothing new is wanted while a packet streams";
    EXPECT_EQ(p.hold, 0b0100u) << "the packet holds link 2";
    EXPECT_TRUE(p.busy);
    EXPECT_EQ(p.alu_op, rm::kOpAdd);
    EXPECT_EQ(p.alu_result, p.data);
    got.push_back(p.data);
  }
  EXPECT_EQ(got, reference(rm::kOpAdd, 4, {c[0], c[1], c[2]}));
  const auto idle = b.cycle();
  EXPECT_FALSE(idle.valid || idle.busy);
  EXPECT_EQ(idle.hold, 0u);
}

// A missing word on any contributor stalls the whole flit: nothing leaves, nothing is
// popped, the destination stays held; a gap on a source the class does not use changes
// nothing. Nothing is lost or repeated.
TEST(CnCombine, AWordMissingOnAnyContributorStallsTheFlit) {
  std::mt19937_64 rng(test_seed());
  Combine b;
  b.set_route(1, route(kTurnaround, 0b101, true));  // the root: children on links 0 and 2
  const unsigned need = 0b1011;
  const uint32_t h = header(1, rm::kOpXor, 4, 3);
  const auto c = contributions(rng, 3);
  b.offer(h, need, c);
  ASSERT_TRUE(b.cycle().hdr);
  const Words want = reference(rm::kOpXor, 4, c);
  Words got;
  unsigned stalls = 0;
  for (unsigned cycle = 0; got.size() < kWords && cycle < 1000; ++cycle) {
    const unsigned ready = static_cast<unsigned>(rng() % 16);
    const auto f = b.cycle(0, ready);
    const bool all = (ready & need) == need;
    ASSERT_EQ(f.valid, all) << "cycle " << cycle << ", words offered 0x" << std::hex << ready;
    EXPECT_EQ(f.hold, 1u << kTurnaround);
    EXPECT_TRUE(f.busy);
    if (!all) {
      EXPECT_EQ(f.pl_pop, 0u);
      ++stalls;
      continue;
    }
    EXPECT_FALSE(f.hdr);
    EXPECT_EQ(f.dst, kTurnaround);
    EXPECT_EQ(f.pl_pop, need);
    got.push_back(f.data);
  }
  EXPECT_GT(stalls, 20u);
  EXPECT_EQ(got, want);
  for (const auto& q : b.src) EXPECT_TRUE(q.empty()) << "every word popped once";
  EXPECT_FALSE(b.cycle().busy);
  EXPECT_FALSE(b.assertion_failed());
}

// A packet on a class's up link travels down (cn_bcast's): it is never taken, and it does
// not stop a combine of the same class from the node and the children.
TEST(CnCombine, APacketOnItsClassesUpLinkIsLeftAlone) {
  std::mt19937_64 rng(test_seed());
  Combine b;
  b.set_route(4, route(0, 0b110, true));
  const auto down = contributions(rng, 1);
  b.src[1].push_back({header(4, rm::kOpOr, 4, 1), down[0]});
  for (int i = 0; i < 20; ++i) {
    const auto f = b.cycle();
    EXPECT_FALSE(f.want || f.valid);
    EXPECT_EQ(f.hdr_pop, 0u);
  }
  EXPECT_EQ(b.errors(), 0u) << "a packet travelling down is no error";
  const uint32_t h = header(4, rm::kOpMin, 4, 2);
  const auto c = contributions(rng, 3);
  b.offer(h, 0b1101, c);
  const Combine::Out o = b.next_packet();
  EXPECT_EQ(o.hdr, h);
  EXPECT_EQ(o.hdr_pop, 0b1101u);
  EXPECT_EQ(o.words, reference(rm::kOpMin, 4, c));
  EXPECT_EQ(b.src[1].size(), 1u);
  EXPECT_EQ(b.sent[1], 0u) << "the downward packet is untouched";
  EXPECT_EQ(b.errors(), 0u);
}

// Two classes with disjoint contributors: the lowest source leads, and the other packet
// waits for the whole of the first.
TEST(CnCombine, TheLowestSourceLeadsAndTheOtherPacketWaitsForItsLastWord) {
  std::mt19937_64 rng(test_seed());
  Combine b;
  b.set_route(6, route(0, 0, true));       // the node alone
  b.set_route(7, route(0, 0b010, false));  // link 1 alone
  const auto c = contributions(rng, 2);
  const uint32_t ha = header(6, rm::kOpAdd, 4, 1), hb = header(7, rm::kOpMax, 4, 2);
  b.src[2].push_back({hb, c[1]});
  b.src[0].push_back({ha, c[0]});
  Combine::Out a = b.next_packet();
  EXPECT_EQ(a.hdr, ha);
  EXPECT_EQ(a.hdr_pop, 0b0001u);
  EXPECT_EQ(a.words, c[0]) << "one contributor: its own words";
  EXPECT_EQ(b.sent[2], 0u) << "link 1 waited";
  Combine::Out o = b.next_packet();
  EXPECT_EQ(o.hdr, hb);
  EXPECT_EQ(o.hdr_pop, 0b0100u);
  EXPECT_EQ(o.words, c[1]);
  EXPECT_EQ(b.errors(), 0u);
}

// ------------------------------------------------------------------ errors
TEST(CnCombine, DifferentHeadersRaiseAMismatchAndHaltTheEngine) {
  std::mt19937_64 rng(test_seed());
  Combine b;
  b.set_route(0, route(0, 0b110, true));
  const uint32_t h1 = header(0, rm::kOpAdd, 4, 7), h2 = header(0, rm::kOpAdd, 4, 8);
  const auto c = contributions(rng, 3);
  b.src[0].push_back({h1, c[0]});
  b.src[2].push_back({h1, c[1]});
  b.src[3].push_back({h2, c[2]});
  auto f = b.cycle();
  EXPECT_FALSE(f.want || f.valid);
  EXPECT_EQ(f.hdr_pop, 0u);
  EXPECT_EQ(b.errors(), kErrMismatch);
  EXPECT_EQ(b->err_expected_o, h1);
  EXPECT_EQ(b->err_got_o, h2);
  EXPECT_EQ(b->err_source_o, 3u) << "link 2";
  // The right header arrives: too late, the engine has halted.
  b.src[3].front().hdr = h1;
  for (int i = 0; i < 50; ++i) {
    f = b.cycle();
    EXPECT_FALSE(f.want || f.valid);
    EXPECT_EQ(f.hdr_pop | f.pl_pop, 0u);
    EXPECT_TRUE(f.busy) << "halted";
    EXPECT_EQ(b.errors(), 0u) << "the error is reported once";
  }
  EXPECT_EQ(b->err_expected_o, h1) << "the details stay";
  EXPECT_EQ(b->err_got_o, h2);
  EXPECT_EQ(b->err_source_o, 3u);
  b.reset();
  const Combine::Out o = b.next_packet();
  EXPECT_EQ(o.hdr, h1);
  EXPECT_EQ(o.words, reference(rm::kOpAdd, 4, c)) << "a reset starts the engine again";
  EXPECT_FALSE(b.assertion_failed()) << "a header error is the engine's to report, not an assertion's";
}

TEST(CnCombine, AMismatchIsSeenBeforeEveryContributorHasArrivedAndNamesTheLowestSource) {
  Combine b;
  b.set_route(3, route(kTurnaround, 0b011, true));
  const uint32_t h = header(3, rm::kOpOr, 4, 1);
  const uint32_t other_op = header(3, rm::kOpAnd, 4, 1);
  b.src[0].push_back({h, Words(kWords, 1)});
  b.src[2].push_back({other_op, Words(kWords, 2)});  // link 1; link 0 has not arrived
  b.cycle();
  EXPECT_EQ(b.errors(), kErrMismatch);
  EXPECT_EQ(b->err_expected_o, h);
  EXPECT_EQ(b->err_got_o, other_op);
  EXPECT_EQ(b->err_source_o, 2u) << "link 1";
}

// Nested communicators share nodes (the world and a subset): a link whose head is another
// class's packet is not ready for this class, which waits; the class that is ready goes
// first, and neither is a mismatch.
TEST(CnCombine, AnotherClassAtTheHeadOfALinkWaitsAndTheReadyClassGoesFirst) {
  std::mt19937_64 rng(test_seed());
  Combine b;
  b.set_route(3, route(kTurnaround, 0b011, true));   // the node and links 0 and 1
  b.set_route(8, route(kTurnaround, 0b001, false));  // link 0 alone
  const uint32_t h3 = header(3, rm::kOpAdd, 4, 1), h8 = header(8, rm::kOpOr, 4, 5);
  const auto c = contributions(rng, 4);
  b.src[0].push_back({h3, c[0]});
  b.src[2].push_back({h3, c[1]});  // link 1
  b.src[1].push_back({h8, c[2]});  // link 0: class 8 first, then its class 3 packet
  b.src[1].push_back({h3, c[3]});
  const Combine::Out first = b.next_packet();
  EXPECT_EQ(first.hdr, h8);
  EXPECT_EQ(first.hdr_pop, 0b0010u);
  EXPECT_EQ(first.words, c[2]);
  const Combine::Out second = b.next_packet();
  EXPECT_EQ(second.hdr, h3);
  EXPECT_EQ(second.hdr_pop, 0b0111u);
  EXPECT_EQ(second.words, reference(rm::kOpAdd, 4, {c[0], c[3], c[1]}));
  EXPECT_EQ(b.errors(), 0u);
}

TEST(CnCombine, APacketFromASourceItsClassDoesNotListIsABadRoute) {
  Combine b;
  b.set_route(6, route(0, 0b010, true));  // link 1 is the only child
  const uint32_t h = header(6, rm::kOpAdd, 4, 1);
  b.src[3].push_back({h, Words(kWords, 1)});  // link 2
  auto f = b.cycle();
  EXPECT_FALSE(f.want || f.valid);
  EXPECT_EQ(b.errors(), kErrRoute);
  EXPECT_EQ(b->err_expected_o, h);
  EXPECT_EQ(b->err_got_o, h);
  EXPECT_EQ(b->err_source_o, 3u);
  b.src[0].push_back({h, Words(kWords, 2)});
  b.src[2].push_back({h, Words(kWords, 3)});
  for (int i = 0; i < 20; ++i) EXPECT_FALSE(b.cycle().valid) << "halted";

  b.reset();
  for (auto& q : b.src) q.clear();
  b.set_route(6, route(0, 0b010, false));  // the node does not contribute
  b.src[0].push_back({h, Words(kWords, 1)});
  b.cycle();
  EXPECT_EQ(b.errors(), kErrRoute);
  EXPECT_EQ(b->err_source_o, 0u) << "local injection";
}

TEST(CnCombine, TheReservedOpcodeIsRefused) {
  Combine b;
  b.set_route(0, route(0, 0, true));
  const uint32_t h = header(0, 7, 3);  // 48-bit operands as well: the opcode is reported
  b.src[0].push_back({h, Words(kWords, 1)});
  const auto f = b.cycle();
  EXPECT_FALSE(f.want || f.valid);
  EXPECT_EQ(b.errors(), kErrOpcode);
  EXPECT_EQ(b->err_expected_o, h);
  EXPECT_EQ(b->err_got_o, h);
  EXPECT_EQ(b->err_source_o, 0u);
  for (int i = 0; i < 10; ++i) {
    EXPECT_FALSE(b.cycle().valid);
    EXPECT_EQ(b.errors(), 0u) << "one pulse";
  }
}

// Every operand size the header can carry: 16 and 32 bits, and 64 * 2^k bits, are
// combined; every other size is refused.
TEST(CnCombine, OnlyOperandSizesTheAluCanCutAreTaken) {
  Combine b;
  b.set_route(9, route(1, 0, true));
  unsigned taken = 0;
  for (unsigned size = 1; size <= 128; ++size) {
    b.reset();
    const bool cut = size == 1 || size == 2 || (size % 4 == 0 && (size & (size - 1)) == 0);
    const uint32_t h = header(9, rm::kOpAdd, size, size);
    Words w(kWords);
    for (unsigned i = 0; i < kWords; ++i) w[i] = size * 1000 + i;
    b.src[0].push_back({h, w});
    if (cut) {
      const Combine::Out o = b.next_packet();
      EXPECT_EQ(o.hdr, h);
      EXPECT_EQ(o.words, w) << size * 16 << "-bit operands";
      EXPECT_EQ(b.errors(), 0u);
      ++taken;
    } else {
      const auto f = b.cycle();
      EXPECT_FALSE(f.want || f.valid) << size * 16 << "-bit operands";
      EXPECT_EQ(b.errors(), kErrSize) << size * 16 << "-bit operands";
      EXPECT_EQ(b->err_got_o, h);
      EXPECT_EQ(b->err_source_o, 0u);
      b.src[0].clear();
    }
  }
  EXPECT_EQ(taken, 8u);
}

// One error at a time, the first that applies: a source the route does not list, then
// differing headers, then the reserved opcode, then the operand size.
TEST(CnCombine, ReportsTheFirstErrorThatApplies) {
  Combine b;
  b.set_route(2, route(0, 0b010, false));
  b.set_route(3, route(0, 0b010, true));
  const uint32_t bad = header(2, 7, 3, 1);  // reserved opcode and 48-bit operands
  b.src[0].push_back({bad, Words(kWords, 0)});  // class 2 does not list the node
  b.cycle();
  EXPECT_EQ(b.errors(), kErrRoute);
  b.reset();
  b.src[0].front().hdr = header(3, 7, 3, 1);
  b.src[2].push_back({header(3, 7, 3, 2), Words(kWords, 0)});
  b.cycle();
  EXPECT_EQ(b.errors(), kErrMismatch);
  b.reset();
  b.src[2].front().hdr = b.src[0].front().hdr;
  b.cycle();
  EXPECT_EQ(b.errors(), kErrOpcode);
  b.reset();
  b.src[0].front().hdr = b.src[2].front().hdr = header(3, rm::kOpMax, 3, 1);
  b.cycle();
  EXPECT_EQ(b.errors(), kErrSize);
}

// cn_regs refuses a route with a child on every link (the ALU has two child inputs, and a
// node below the root has an up link). One that reached the engine anyway would drop a
// child's words; the assertion reports the packet as it starts.
TEST(CnCombine, APacketFromThreeChildrenTripsTheAssertion) {
  std::mt19937_64 rng(test_seed());
  Combine b;
  b.set_route(5, route(kTurnaround, 0b111, true));
  b.offer(header(5, rm::kOpAdd, 4, 1), 0b1111, contributions(rng, 4));
  EXPECT_FALSE(b.assertion_failed());
  const auto f = b.cycle();
  EXPECT_TRUE(f.valid && f.hdr);
  EXPECT_EQ(f.hdr_pop, 0b1111u);
  EXPECT_TRUE(b.assertion_failed());
}

// ------------------------------------------------------------------ random
// Random collectives of random classes, opcodes and operand sizes, their contributions
// arriving at random times, with random gaps in every payload stream and destinations
// free at random. Every cycle is checked against what the block must do: take a header
// exactly when it is idle, every contributor offers it and its destination may start;
// stream a flit exactly when every contributor offers a word; pop exactly the
// contributors; hold the destination throughout. Collectives in flight at once share
// their contributors, as packets of one class do, so that none overtakes another at a
// source (that would be a header mismatch).
TEST(CnCombine, CombinesRandomStreamsFlitForFlit) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Combine b;
  // Every allowed contributor set gets a class; the node with two children (three sets)
  // gets a second one with another up link.
  std::vector<std::vector<unsigned>> classes_of(16);  // by contributor set
  std::vector<unsigned> sets;
  unsigned cls = 0;
  for (bool local : {false, true})
    for (unsigned down : {0u, 1u, 2u, 4u, 3u, 5u, 6u}) {
      if (!local && down == 0) continue;
      std::vector<unsigned> ups{kTurnaround};
      for (unsigned l = 0; l < 3; ++l)
        if (!(down >> l & 1)) ups.push_back(l);
      const unsigned need = down << 1 | unsigned(local);
      sets.push_back(need);
      const unsigned first = static_cast<unsigned>(rng() % ups.size());
      b.set_route(cls, route(ups[first], down, local));
      classes_of[need].push_back(cls++);
      if (local && popcount(down) == 2) {
        b.set_route(cls, route(ups[(first + 1) % ups.size()], down, local));
        classes_of[need].push_back(cls++);
      }
    }
  ASSERT_EQ(cls, rm::kNumClasses);

  struct Expect {
    uint32_t hdr;
    unsigned need, dst;
    Words words;
  };
  std::deque<Expect> expect;                 // the collectives not started, in order
  std::array<std::deque<Packet>, 4> later;  // contributions not offered yet
  struct Current {
    bool open = false;
    unsigned need = 0, dst = 0, next = 0;
    Words words;
  } cur;
  unsigned packets = 0, tag = 0;
  for (int cycle = 0; cycle < 200000; ++cycle) {
    if (expect.empty() && !cur.open) {
      const unsigned need = sets[rng() % sets.size()];
      const unsigned n = 1 + static_cast<unsigned>(rng() % 6);
      for (unsigned k = 0; k < n; ++k) {
        const auto& choice = classes_of[need];
        const unsigned c = choice[rng() % choice.size()];
        const unsigned op = static_cast<unsigned>(rng() % (rm::kOpAdd + 1));
        const unsigned size = kSizes[rng() % 8];
        const uint32_t h = header(c, op, size, tag++ % (1u << rm::kHdrTagW));
        const auto contrib = contributions(rng, popcount(need));
        size_t i = 0;
        for (unsigned s = 0; s < 4; ++s)
          if (need >> s & 1) later[s].push_back({h, contrib[i++]});
        const unsigned up = fw::ClassRoute::decode(b.routes[c]).up_link;
        expect.push_back({h, need, up, reference(op, size, contrib)});
      }
    }
    for (unsigned s = 0; s < 4; ++s)
      if (!later[s].empty() && rng() % 8 == 0) {
        b.src[s].push_back(later[s].front());
        later[s].pop_front();
      }
    const unsigned can = static_cast<unsigned>((rng() | rng()) & 0xf);
    const unsigned ready = static_cast<unsigned>((rng() | rng()) & 0xf);

    // What the block must do this cycle.
    bool want = false;
    if (!cur.open && !expect.empty()) {
      want = (b.hdr_valid() & expect.front().need) == expect.front().need;
    }
    const bool go = want && (can >> expect.front().dst & 1);
    const bool flow = cur.open && (b.pl_valid(ready) & cur.need) == cur.need;
    const unsigned hold = cur.open ? 1u << cur.dst : 0u;
    const bool busy = cur.open;

    const Combine::Flit f = b.cycle(can, ready);
    ASSERT_EQ(f.want, want) << "cycle " << cycle;
    ASSERT_EQ(f.valid, go || flow) << "cycle " << cycle;
    ASSERT_EQ(f.hold, hold) << "cycle " << cycle;
    ASSERT_EQ(f.busy, busy) << "cycle " << cycle;
    if (go) {
      const Expect& e = expect.front();
      ASSERT_EQ(f.want_dst, e.dst);
      ASSERT_TRUE(f.hdr);
      ASSERT_EQ(f.data, e.hdr) << "cycle " << cycle;
      ASSERT_EQ(f.dst, e.dst);
      ASSERT_EQ(f.hdr_pop, e.need);
      cur = {true, e.need, e.dst, 0, e.words};
      expect.pop_front();
      ++packets;
    } else {
      ASSERT_EQ(f.hdr_pop, 0u) << "cycle " << cycle;
    }
    if (flow) {
      ASSERT_FALSE(f.hdr);
      ASSERT_EQ(f.data, cur.words[cur.next]) << "cycle " << cycle << ", word " << cur.next;
      ASSERT_EQ(f.dst, cur.dst);
      ASSERT_EQ(f.pl_pop, cur.need);
      if (++cur.next == kWords) cur.open = false;
    } else {
      ASSERT_EQ(f.pl_pop, 0u) << "cycle " << cycle;
    }
    ASSERT_EQ(b.errors(), 0u) << "cycle " << cycle;
  }
  EXPECT_GT(packets, 1000u);
  EXPECT_FALSE(b.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
