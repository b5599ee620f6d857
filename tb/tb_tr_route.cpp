// SPDX-License-Identifier: Apache-2.0
// tr_route, the routing decision of one router input, on its own (it is combinational):
// directed cases for each rule of docs/torus.md (minimal hints and ties at injection,
// dimension order on the escape VC, the bubble rule, adaptive choice by credits, deposit
// copies, arrival and reception space, the three discard reasons), then 200,000 random
// inputs against a C++ statement of the same rules, none tripping the module's assertions;
// inputs the router never gives (a node outside the torus, a link of a fourth dimension)
// trip them.
#include <array>
#include <random>

#include <gtest/gtest.h>

#include "Vtr_route.h"
#include "firmware/regmap.hpp"
#include "firmware/torus_packet.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

namespace rm = fw::regmap;
constexpr unsigned kCntW = 7, kRcvCntW = 8;  // the module's defaults
constexpr unsigned kRcv = 6, kRcvPrio = 7;   // outputs 6 and 7: the reception FIFOs

struct Input {
  bool bubble = true, inject = false;
  unsigned in_dim = 0, in_vc = 0;
  uint64_t hdr = 0;
  std::array<unsigned, 3> my{}, dims{4, 4, 4};
  unsigned link_down = 0, out_busy = 0;
  std::array<std::array<unsigned, 4>, 6> credits{};  // [direction][VC]
  std::array<unsigned, 2> rcv_free{255, 255};
};

struct Decision {
  bool req = false, copy = false, discard = false;
  unsigned out = kRcv, out_vc = rm::kTrVcEscape, out_rcv = kRcv, err = 0;
  uint64_t hdr = 0;
  uint32_t stall = 0;  // credit stalls: bit d * 4 + v
  bool operator==(const Decision& o) const {
    return req == o.req && copy == o.copy && discard == o.discard && out == o.out && out_vc == o.out_vc &&
           out_rcv == o.out_rcv && err == o.err && hdr == o.hdr && stall == o.stall;
  }
};

std::ostream& operator<<(std::ostream& s, const Decision& d) {
  return s << "{req " << d.req << " out " << d.out << " vc " << d.out_vc << " copy " << d.copy << " rcv " << d.out_rcv
           << " discard " << d.discard << " err " << d.err << " hdr 0x" << std::hex << d.hdr << " stall 0x" << d.stall
           << std::dec << "}";
}

struct Route : Harness<Vtr_route> {
  Decision decide(const Input& in) {
    auto& m = model();
    m.en_i = 1;
    m.bubble_i = in.bubble;
    m.inject_i = in.inject;
    m.in_dim_i = in.in_dim;
    m.in_vc_i = in.in_vc;
    m.hdr_i = in.hdr;
    m.my_i = in.my[0] | in.my[1] << 8 | in.my[2] << 16;
    m.dims_i = in.dims[0] | in.dims[1] << 8 | in.dims[2] << 16;
    m.link_down_i = in.link_down;
    m.out_busy_i = in.out_busy;
    for (unsigned d = 0; d < 6; ++d)
      for (unsigned v = 0; v < 4; ++v) set_wide_bits(m.credits_i.data(), (d * 4 + v) * kCntW, kCntW, in.credits[d][v]);
    m.rcv_free_i = in.rcv_free[0] | in.rcv_free[1] << kRcvCntW;
    eval();
    Decision r;
    r.req = m.req_o;
    r.out = m.out_o;
    r.out_vc = m.out_vc_o;
    r.copy = m.copy_o;
    r.out_rcv = m.out_rcv_o;
    r.hdr = m.hdr_o;
    r.discard = m.discard_o;
    r.err = m.discard_err_o;
    r.stall = m.stall_o;
    return r;
  }
};

// ------------------------------------------------------------------ the rules, in C++
Decision reference(const Input& in) {
  const fw::TorusHeader h = fw::TorusHeader::decode(in.hdr);
  Decision r;
  r.hdr = in.hdr;
  const unsigned len = h.flits();
  // A tie (exactly halfway round an even ring) goes minus when the low bits of the six
  // coordinates have odd parity.
  unsigned parity = 0;
  for (unsigned k = 0; k < 3; ++k) parity ^= (in.my[k] ^ h.dst[k]) & 1u;
  std::array<bool, 3> need{}, plus{}, bad{};
  unsigned hint_min = 0;
  for (unsigned k = 0; k < 3; ++k) {
    const unsigned m = in.my[k], d = h.dst[k], n = in.dims[k];
    bad[k] = d >= n;
    need[k] = d != m;
    const unsigned up = d >= m ? d - m : d + n - m;  // hops going +
    if (need[k] && (2 * up < n || (2 * up == n && !parity))) hint_min |= 1u << (2 * k);
    if (need[k] && (2 * up > n || (2 * up == n && parity))) hint_min |= 2u << (2 * k);
    plus[k] = (h.hints >> (2 * k) & 1u) || (!(h.hints >> (2 * k) & 2u) && (hint_min >> (2 * k) & 1u));
  }
  if (in.inject) {
    fw::TorusHeader out = h;
    out.hints = h.hints == 0 ? hint_min : h.hints;
    out.src = in.my;
    r.hdr = out.encode();
  }
  const bool arrived = !need[0] && !need[1] && !need[2];
  const unsigned dim = need[0] ? 0 : need[1] ? 1 : 2;
  const unsigned dor = 2 * dim + (plus[dim] ? 0 : 1);
  const unsigned rcv = h.priority ? kRcvPrio : kRcv;
  const bool rcv_ok = !(in.out_busy >> rcv & 1u) && in.rcv_free[h.priority ? 1 : 0] >= len;
  const unsigned esc_vc = h.priority ? rm::kTrVcPrio : rm::kTrVcEscape;
  const bool escape_only = h.priority || h.deterministic;
  const bool continuing = !in.inject && in.in_vc == esc_vc && in.in_dim == dim;
  const bool copy = h.deposit && !in.inject;
  const bool esc_ok = !(in.out_busy >> dor & 1u) && !(in.link_down >> dor & 1u) &&
                      in.credits[dor][esc_vc] >= ((continuing || !in.bubble) ? 1u : 2u) && (!copy || rcv_ok);
  // Adaptive: the productive link and dynamic VC with the most credits that hold the
  // packet (the first found on a tie).
  bool dyn_ok = false, any_up = false;
  unsigned dyn_dir = 0, dyn_vc = 0, best = 0;
  if (!escape_only) {
    for (unsigned k = 0; k < 3; ++k) {
      const unsigned d = 2 * k + (plus[k] ? 0 : 1);
      const bool usable = need[k] && !(in.link_down >> d & 1u);
      any_up = any_up || usable;
      for (unsigned v = 0; v < 2; ++v) {
        const unsigned c = in.credits[d][v];
        if (usable && !(in.out_busy >> d & 1u) && c >= len && (!dyn_ok || c > best)) {
          dyn_ok = true;
          dyn_dir = d;
          dyn_vc = v;
          best = c;
        }
      }
    }
  }
  const bool bad_dest = in.inject && (bad[0] || bad[1] || bad[2]);
  const bool bad_deposit =
      in.inject && h.deposit && (!h.deterministic || h.priority || unsigned(need[0]) + need[1] + need[2] > 1);
  const bool down = !arrived && (in.link_down >> dor & 1u) && (escape_only || !any_up);
  if (bad_dest) r.err = 1u << rm::kTrErrBadDest;
  else if (bad_deposit) r.err = 1u << rm::kTrErrDeposit;
  else if (down) r.err = 1u << rm::kTrErrDownLink;
  r.discard = r.err != 0;
  r.out = r.out_rcv = rcv;
  r.out_vc = esc_vc;
  if (r.discard) {
    r.req = false;
  } else if (arrived) {
    r.req = rcv_ok;
  } else if (!escape_only && dyn_ok) {
    r.req = true;
    r.out = dyn_dir;
    r.out_vc = dyn_vc;
  } else {
    r.req = esc_ok;
    r.out = dor;
    r.out_vc = esc_vc;
    r.copy = copy;
  }
  // Stuck (not discarded, not arrived, asking for nothing): each VC it may take on a free
  // link that is up and lacks the credits it needs.
  if (!r.discard && !arrived && !r.req) {
    const auto free = [&](unsigned d) { return !(in.out_busy >> d & 1u) && !(in.link_down >> d & 1u); };
    if (free(dor) && in.credits[dor][esc_vc] < ((continuing || !in.bubble) ? 1u : 2u))
      r.stall |= 1u << (dor * 4 + esc_vc);
    for (unsigned k = 0; k < 3 && !escape_only; ++k) {
      const unsigned d = 2 * k + (plus[k] ? 0 : 1);
      for (unsigned v = 0; v < 2; ++v)
        if (need[k] && free(d) && in.credits[d][v] < len) r.stall |= 1u << (d * 4 + v);
    }
  }
  return r;
}

uint64_t header(std::array<unsigned, 3> dst, bool determ, unsigned hints = 0, bool prio = false, bool deposit = false,
                unsigned chunks = 1) {
  fw::TorusHeader h;
  h.dst = dst;
  h.deterministic = determ;
  h.hints = hints;
  h.priority = prio;
  h.deposit = deposit;
  h.chunks = chunks;
  return h.encode();
}

Input plenty_of_credits() {
  Input in;
  for (auto& d : in.credits) d = {64, 64, 3, 3};
  return in;
}

// ------------------------------------------------------------------ directed cases
TEST(TrRoute, DecidesNothingWithoutAHeader) {
  Route r;
  r->en_i = 0;
  r->hdr_i = header({1, 1, 1}, true);
  r.eval();
  EXPECT_FALSE(r->req_o);
  EXPECT_FALSE(r->discard_o);
  EXPECT_EQ(r->hdr_o, r->hdr_i);
}

// A packet that can start nowhere names, as credit stalls, every VC it may take on a free
// link that lacks credits for it; a busy link is contention, not a stall; a packet that may
// start stalls nothing.
TEST(TrRoute, ACreditStallNamesTheVcsTheStuckPacketWaitsFor) {
  Route r;
  Input in = plenty_of_credits();
  in.my = {0, 0, 0};
  in.in_dim = 2;  // from a z link on the escape VC: entering x's ring needs two slots
  in.in_vc = rm::kTrVcEscape;
  in.hdr = header({1, 1, 0}, false, 0, false, false, 2);  // adaptive, 9 flits, x+ and y+ productive
  for (unsigned d : {0u, 2u}) in.credits[d] = {8, 3, 1, 3};
  Decision d = r.decide(in);
  EXPECT_FALSE(d.req);
  EXPECT_EQ(d.stall, (0b0111u << 0) | (0b0011u << 8)) << "x+: dyn0, dyn1 and escape (dimension order); y+: dyn0, dyn1";
  in.out_busy = 1u << 2;  // y+ carries another packet
  EXPECT_EQ(r.decide(in).stall, 0b0111u) << "a busy link is not a credit stall";
  in.credits[2][1] = 9;
  in.out_busy = 0;
  d = r.decide(in);
  EXPECT_TRUE(d.req);
  EXPECT_EQ(d.stall, 0u) << "a packet that may start stalls nothing";
  EXPECT_EQ(d, reference(in));
  EXPECT_FALSE(r.assertion_failed());
}

TEST(TrRoute, InjectionStampsTheSourceAndTheMinimalDirections) {
  Route r;
  Input in = plenty_of_credits();
  in.inject = true;
  in.my = {1, 0, 3};
  in.hdr = header({3, 0, 0}, true);  // x: 1 -> 3 is 2 hops either way on a ring of 4 (a tie); z: 3 -> 0 is one hop +
  const fw::TorusHeader out = fw::TorusHeader::decode(r.decide(in).hdr);
  EXPECT_EQ(out.src, in.my);
  // The low bits of (1, 0, 3) and (3, 0, 0) have odd parity (1^1, 0^0, 1^0), so the tie goes x-.
  EXPECT_EQ(out.hints, (2u << 0) | (1u << 4)) << "x- for the tie, z+ for the wrap, nothing in y";
}

TEST(TrRoute, GivenHintsAreKept) {
  Route r;
  Input in = plenty_of_credits();
  in.inject = true;
  in.hdr = header({1, 0, 0}, true, /*hints=*/2u);  // the long way round in x
  const Decision d = r.decide(in);
  EXPECT_EQ(fw::TorusHeader::decode(d.hdr).hints, 2u);
  EXPECT_EQ(d.out, 1u) << "x-";
}

TEST(TrRoute, DeterministicPacketsGoInDimensionOrderOnTheEscapeVc) {
  Route r;
  Input in = plenty_of_credits();
  in.my = {0, 0, 0};
  in.hdr = header({0, 1, 1}, true, /*hints=*/(1u << 2) | (1u << 4));
  const Decision d = r.decide(in);
  EXPECT_TRUE(d.req);
  EXPECT_EQ(d.out, 2u) << "y+ before z";
  EXPECT_EQ(d.out_vc, rm::kTrVcEscape);
}

TEST(TrRoute, EnteringARingNeedsTwoFreeSlotsContinuingNeedsOne) {
  Route r;
  Input in = plenty_of_credits();
  in.hdr = header({2, 0, 0}, true, 1u);
  in.credits[0][rm::kTrVcEscape] = 1;
  in.in_dim = 1;  // arriving from y: entering the x ring
  in.in_vc = rm::kTrVcEscape;
  EXPECT_FALSE(r.decide(in).req) << "one slot is the ring's bubble";
  in.in_dim = 0;  // already on the x ring's escape VC
  EXPECT_TRUE(r.decide(in).req);
  in.in_dim = 1;
  in.bubble = false;
  EXPECT_TRUE(r.decide(in).req) << "without the bubble rule one slot is enough";
}

TEST(TrRoute, AdaptivePacketsTakeTheProductiveLinkWithTheMostCredits) {
  Route r;
  Input in = plenty_of_credits();
  in.hdr = header({1, 1, 0}, false, 1u | (1u << 2));  // x+ and y+ both bring it closer
  in.credits[0] = {10, 12, 3, 3};
  in.credits[2] = {30, 20, 3, 3};
  Decision d = r.decide(in);
  EXPECT_TRUE(d.req);
  EXPECT_EQ(d.out, 2u);
  EXPECT_EQ(d.out_vc, 0u);
  in.credits[2] = {2, 3, 3, 3};  // too few for the packet's 5 flits
  d = r.decide(in);
  EXPECT_EQ(d.out, 0u);
  EXPECT_EQ(d.out_vc, 1u);
  in.credits[0] = {2, 2, 3, 3};  // no dynamic VC holds it: the escape VC, in dimension order
  d = r.decide(in);
  EXPECT_TRUE(d.req);
  EXPECT_EQ(d.out, 0u);
  EXPECT_EQ(d.out_vc, rm::kTrVcEscape);
}

TEST(TrRoute, AnArrivedPacketGoesToReceptionWhenItFits) {
  Route r;
  Input in = plenty_of_credits();
  in.my = {2, 2, 2};
  in.hdr = header({2, 2, 2}, false, 0, /*prio=*/true, false, /*chunks=*/8);  // 33 flits
  in.rcv_free = {255, 32};
  Decision d = r.decide(in);
  EXPECT_EQ(d.out, kRcvPrio);
  EXPECT_FALSE(d.req) << "32 free flits do not hold 33";
  in.rcv_free = {0, 33};
  d = r.decide(in);
  EXPECT_TRUE(d.req);
}

TEST(TrRoute, DepositPacketsLeaveACopyOnTheWayButNotAtTheSource) {
  Route r;
  Input in = plenty_of_credits();
  in.hdr = header({3, 0, 0}, true, 1u, false, /*deposit=*/true);
  in.inject = true;
  EXPECT_FALSE(r.decide(in).copy);
  in.inject = false;
  const Decision d = r.decide(in);
  EXPECT_TRUE(d.copy);
  EXPECT_EQ(d.out_rcv, kRcv);
  in.rcv_free = {2, 255};
  EXPECT_FALSE(r.decide(in).req) << "the copy needs room in reception too";
}

TEST(TrRoute, DiscardsWithTheReason) {
  Route r;
  Input in = plenty_of_credits();
  in.inject = true;
  in.hdr = header({4, 0, 0}, true);  // x = 4 on a ring of 4
  EXPECT_EQ(r.decide(in).err, 1u << rm::kTrErrBadDest);
  in.hdr = header({1, 1, 0}, true, 0, false, /*deposit=*/true);  // a deposit along two dimensions
  EXPECT_EQ(r.decide(in).err, 1u << rm::kTrErrDeposit);
  in.hdr = header({1, 0, 0}, true, 1u);
  in.link_down = 1u;  // x+ is down and a deterministic packet has no other way
  const Decision d = r.decide(in);
  EXPECT_TRUE(d.discard);
  EXPECT_EQ(d.err, 1u << rm::kTrErrDownLink);
  EXPECT_FALSE(d.req);
  in.hdr = header({1, 1, 0}, false, 1u | (1u << 2));  // an adaptive packet goes round by y
  EXPECT_FALSE(r.decide(in).discard);
  EXPECT_EQ(r.decide(in).out, 2u);
  EXPECT_FALSE(r.assertion_failed());
}

// The module's assertions check the decision against its inputs, and the inputs against
// what the router guarantees: this node inside the torus, a link input's dimension one of
// x, y, z. An input that breaks them is reported, but only while a header waits (a router
// outside tb/tr_ring.sv's ring sits at a coordinate beyond the ring's size, idle).
TEST(TrRoute, AnInputTheRouterNeverGivesTripsTheAssertions) {
  Input in = plenty_of_credits();
  in.hdr = header({1, 0, 0}, true, 1u);
  {
    Route r;
    r.decide(in);
    EXPECT_FALSE(r.assertion_failed());
    in.my = {4, 0, 0};  // x = 4 on a ring of 4
    r->en_i = 0;
    r.eval();
    EXPECT_FALSE(r.assertion_failed()) << "no header, no decision to check";
    r.decide(in);
    EXPECT_TRUE(r.assertion_failed()) << "the node outside the torus";
  }
  {
    Route r;
    in.my = {0, 0, 0};
    in.dims = {4, 0, 4};  // a dimension of size 0
    r.decide(in);
    EXPECT_TRUE(r.assertion_failed()) << "a torus of size 0 in y";
  }
  {
    Route r;
    in.dims = {4, 4, 4};
    in.in_dim = 3;  // a link of a fourth dimension
    r.decide(in);
    EXPECT_TRUE(r.assertion_failed()) << "a link input of dimension 3";
  }
  {
    Route r;
    in.inject = true;  // an injection FIFO has no dimension: in_dim is not looked at
    r.decide(in);
    EXPECT_FALSE(r.assertion_failed());
  }
}

// ------------------------------------------------------------------ random inputs
TEST(TrRoute, AgreesWithTheRulesOnRandomInputs) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Route r;
  for (int i = 0; i < 200000; ++i) {
    Input in;
    in.bubble = rng() % 8 != 0;
    in.inject = rng() % 3 == 0;
    in.in_dim = rng() % 3;
    in.in_vc = rng() % 4;
    for (unsigned k = 0; k < 3; ++k) {
      in.dims[k] = 1 + rng() % 8;
      in.my[k] = rng() % in.dims[k];
    }
    fw::TorusHeader h;
    for (unsigned k = 0; k < 3; ++k) h.dst[k] = rng() % 16 == 0 ? in.dims[k] + rng() % 3 : rng() % in.dims[k];
    h.deterministic = rng() % 2;
    h.priority = rng() % 4 == 0;
    h.deposit = rng() % 8 == 0;
    h.chunks = 1 + rng() % 8;
    h.hints = rng() % 2 ? 0 : static_cast<unsigned>(rng() % 64);
    h.src = {static_cast<unsigned>(rng() % 256), static_cast<unsigned>(rng() % 256), static_cast<unsigned>(rng() % 256)};
    h.sw_tag = rng() % 16;
    in.hdr = h.encode();
    in.link_down = rng() % 4 == 0 ? static_cast<unsigned>(rng() % 64) : 0;
    in.out_busy = rng() % 2 ? static_cast<unsigned>(rng() % 256) : 0;
    for (auto& d : in.credits)
      d = {static_cast<unsigned>(rng() % 65), static_cast<unsigned>(rng() % 65), static_cast<unsigned>(rng() % 4),
           static_cast<unsigned>(rng() % 4)};
    in.rcv_free = {static_cast<unsigned>(rng() % 256), static_cast<unsigned>(rng() % 256)};
    const Decision got = r.decide(in), want = reference(in);
    ASSERT_EQ(got, want) << "input " << i << ": header 0x" << std::hex << in.hdr << std::dec << " at (" << in.my[0]
                         << "," << in.my[1] << "," << in.my[2] << ") of " << in.dims[0] << "x" << in.dims[1] << "x"
                         << in.dims[2] << (in.inject ? ", injected" : "");
  }
  EXPECT_FALSE(r.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
