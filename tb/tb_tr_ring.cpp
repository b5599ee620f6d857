// SPDX-License-Identifier: Apache-2.0
// Routers wired as a ring (tb/tr_ring.sv, a torus of n x 1 x 1; one model, the ring's size
// and the bubble rule set at its inputs): random traffic between all nodes delivered
// exactly once and intact, and the bubble case, on rings of 4 and 5. In the bubble case
// every node streams maximum-size deterministic packets the long way round the ring, so the
// escape VC of every link is always wanted both by packets already on the ring and by new
// ones, and nearly all of them still have far to go: without the bubble rule (bubble_i = 0)
// the ring fills up and deadlocks; with it everything arrives.
#include <array>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "Vtr_ring.h"
#include "firmware/regmap.hpp"
#include "firmware/torus_packet.hpp"
#include "tb/tb_harness.hpp"
#include "tb/tb_torus.hpp"

namespace collnet::tb {
namespace {

using fw::TorusHeader;
constexpr unsigned kMaxNodes = 5;  // routers in the model (tr_ring's N)
constexpr unsigned kWatchdog = 10000;  // cycles without a flit on any link while packets are in flight

using Packet = TorusPacket;

class RingBench : public ClockedHarness<Vtr_ring> {
 public:
  // A ring of `nodes` routers (2..kMaxNodes), with or without the bubble rule.
  RingBench(unsigned nodes, bool bubble, uint64_t seed) : n_(nodes), rng_(seed) {
    model().n_i = nodes;
    model().bubble_i = bubble;
    reset();
  }
  unsigned nodes() const { return n_; }

  void inject(unsigned node, const Packet& p) { inj_[node].push_back(p); }

  // Runs until every injected packet is received or nothing moves for kWatchdog cycles;
  // returns false on the latter (a deadlock).
  bool run(size_t expected, unsigned max_cycles) {
    unsigned still = 0;
    for (unsigned c = 0; c < max_cycles && got_.size() < expected; ++c) {
      step();
      still = model().moving_o ? 0 : still + 1;
      if (still >= kWatchdog) return false;
    }
    return got_.size() == expected;
  }

  struct Got {
    unsigned node;
    Packet p;
  };
  const std::vector<Got>& received() const { return got_; }
  uint64_t errors() const { return err_; }

 private:
  void step() {
    auto& m = model();
    uint32_t inj_push = 0;
    for (unsigned i = 0; i < n_; ++i) {
      auto& q = inj_[i];
      if (q.empty() || free_of(i) == 0) continue;
      const Packet& p = q.front();
      const uint64_t flit = pos_[i] == 0 ? p.hdr : p.payload[pos_[i] - 1];
      set_wide_bits(m.inj_data_i.data(), 64 * i, 64, flit);
      inj_push |= 1u << (3 * i);
      if (++pos_[i] == p.payload.size() + 1) {
        pos_[i] = 0;
        q.pop_front();
      }
    }
    m.inj_push_i = inj_push;
    // Reception: software pops every flit as it comes.
    uint32_t pop = 0;
    for (unsigned i = 0; i < n_; ++i)
      for (unsigned r = 0; r < 2; ++r)
        if (m.rcv_valid_o >> (2 * i + r) & 1) {
          pop |= 1u << (2 * i + r);
          take(i, r, wide_bits(m.rcv_data_o.data(), 64 * (2 * i + r), 64));
        }
    m.rcv_pop_i = pop;
    tick();
    err_ |= m.err_o;
  }
  // Free flits of node i's injection FIFO 0 (inj_free_o: 8 bits per FIFO, 3 FIFOs per node).
  unsigned free_of(unsigned i) { return static_cast<unsigned>(wide_bits(model().inj_free_o.data(), 24 * i, 8)); }
  void take(unsigned node, unsigned r, uint64_t flit) {
    auto& a = asm_[node][r];
    if (!a.open) {
      a.p.hdr = flit;
      a.open = true;
      return;
    }
    a.p.payload.push_back(flit);
    if (a.p.payload.size() + 1 == TorusHeader::decode(a.p.hdr).flits()) {
      got_.push_back({node, a.p});
      a = {};
    }
  }

  struct Asm {
    bool open = false;
    Packet p;
  };
  unsigned n_;
  std::mt19937_64 rng_;
  std::array<std::deque<Packet>, kMaxNodes> inj_;
  std::array<size_t, kMaxNodes> pos_{};
  std::array<std::array<Asm, 2>, kMaxNodes> asm_{};
  std::vector<Got> got_;
  uint64_t err_ = 0;
};

// Every node sends `per_node` maximum-size packets to its x- neighbour the long way round
// (hint x+, N-1 hops), so nearly every packet in a buffer still has to move on.
std::map<uint64_t, std::pair<unsigned, Packet>> bubble_traffic(RingBench& b, std::mt19937_64& rng, unsigned per_node) {
  std::map<uint64_t, std::pair<unsigned, Packet>> sent;
  uint64_t id = 1;
  const unsigned n = b.nodes();
  for (unsigned k = 0; k < per_node; ++k)
    for (unsigned i = 0; i < n; ++i) {
      TorusHeader h;
      h.dst = {(i + n - 1) % n, 0, 0};
      h.hints = 0b01;  // x+, the long way
      h.deterministic = true;
      h.chunks = 8;
      const Packet p = make_torus_packet(rng, id, h);
      b.inject(i, p);
      sent[id++] = {h.dst[0], p};
    }
  return sent;
}

// Rings of 4 and 5 routers (an even and an odd ring: the dateline and the bubble rule do
// not depend on the parity).
class TrRing : public ::testing::TestWithParam<unsigned> {};

TEST_P(TrRing, RandomTrafficBetweenAllNodesArrivesOnceAndIntact) {
  const unsigned n = GetParam();
  std::mt19937_64 rng(test_seed());
  RingBench b(n, true, rng());
  std::map<uint64_t, std::pair<unsigned, Packet>> sent;
  uint64_t id = 1;
  for (unsigned k = 0; k < 150; ++k)
    for (unsigned i = 0; i < n; ++i) {
      TorusHeader h;
      h.dst = {static_cast<unsigned>(rng() % n), 0, 0};
      h.chunks = 1 + rng() % 8;
      h.deterministic = rng() % 2;
      h.priority = rng() % 8 == 0;
      const Packet p = make_torus_packet(rng, id, h);
      b.inject(i, p);
      sent[id++] = {h.dst[0], p};
    }
  ASSERT_TRUE(b.run(sent.size(), 400000)) << "deadlock or lost packets: " << b.received().size() << " of " << sent.size();
  std::set<uint64_t> seen;
  for (const auto& g : b.received()) {
    const uint64_t pid = g.p.payload.at(0);
    ASSERT_TRUE(sent.count(pid));
    EXPECT_TRUE(seen.insert(pid).second) << "packet " << pid << " twice";
    EXPECT_EQ(g.node, sent[pid].first) << "packet " << pid << " at the wrong node";
    EXPECT_EQ(g.p.payload, sent[pid].second.payload) << "packet " << pid;
  }
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST_P(TrRing, TheBubbleRuleKeepsASaturatedRingMoving) {
  std::mt19937_64 rng(test_seed());
  RingBench b(GetParam(), true, rng());
  const auto sent = bubble_traffic(b, rng, 60);
  ASSERT_TRUE(b.run(sent.size(), 400000)) << "the ring stopped with " << b.received().size() << " of " << sent.size();
  EXPECT_EQ(b.errors(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Nodes, TrRing, ::testing::Values(4u, 5u),
                         [](const ::testing::TestParamInfo<unsigned>& p) { return std::to_string(p.param) + "_routers"; });

TEST(TrRingWithoutBubble, TheSameTrafficDeadlocks) {
  std::mt19937_64 rng(test_seed());
  RingBench b(4, false, rng());
  const auto sent = bubble_traffic(b, rng, 60);
  EXPECT_FALSE(b.run(sent.size(), 400000)) << "expected the ring to deadlock without the bubble rule";
  EXPECT_LT(b.received().size(), sent.size());
}

}  // namespace
}  // namespace collnet::tb
