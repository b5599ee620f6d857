// SPDX-License-Identifier: Apache-2.0
// The synthetic-traffic workload on its own, with no machine: its patterns, its books, and
// its agents on an ideal torus in C++ (a packet written into an injection FIFO is in its
// destination's reception FIFO at the next edge). This binary links collnet_workload and
// nothing of SystemC or Verilator.
#include <algorithm>
#include <deque>
#include <vector>

#include <gtest/gtest.h>

#include "firmware/bus_port.hpp"
#include "firmware/regmap.hpp"
#include "firmware/torus_packet.hpp"
#include "workload/traffic_setup.hpp"

namespace collnet {
namespace {

namespace rm = fw::regmap;
using workload::Pattern;
using workload::TrafficPattern;

// Every node's bus on a torus that delivers a packet whole as soon as its last chunk is
// written, stamping the source as the injecting router does. `corrupt` flips a payload bit
// of the packet with that number (counted over the whole torus; -1: none).
class IdealTorus {
 public:
  IdealTorus(const fw::TorusLayout& layout, long corrupt = -1)
      : received(layout.nodes(), 0), layout_(layout), corrupt_(corrupt) {
    for (unsigned r = 0; r < layout.nodes(); ++r) ports_.emplace_back(*this, r);
  }
  // One clock edge: every node's presented access takes effect, then its agent acts.
  void edge(uint64_t cycle, workload::TrafficSetup& setup) {
    for (Port& p : ports_) p.apply();
    for (unsigned r = 0; r < ports_.size(); ++r) setup.agent(r)->after_edge(cycle, ports_[r]);
  }
  std::vector<unsigned> received;  // packets per node
  long packets() const { return packets_; }  // injections, forwarding legs included

 private:
  struct Port : fw::BusPort {
    Port(IdealTorus& t, unsigned rank) : torus(t), rank(rank) {}
    void present(const fw::BusRequest& r) override { req = r; }
    std::array<uint64_t, 4> bus_rvector() const override { return rdata; }
    uint64_t torus_status() const override {
      uint64_t w = 0;
      for (unsigned k = 0; k < rm::kTrInjFifos; ++k) w |= uint64_t{255} << (rm::kTrStatusInjFreeLsb + rm::kTrStatusInjFreeStride * k);
      return w | uint64_t{std::min<size_t>(rcv.size(), 4095)} << rm::kTrStatusRcvCountLsb;
    }
    void apply() {
      if (!req.active) return;
      req.active = false;
      for (unsigned k = 0; k < rm::kTrInjFifos; ++k) {
        if (req.write && req.addr == rm::reg_tr_inj_hdr(k)) inj[k] = {req.wdata[0]};
        if (req.write && req.addr == rm::reg_tr_inj_chunk(k)) {
          inj[k].insert(inj[k].end(), req.wdata.begin(), req.wdata.end());
          if (inj[k].size() == fw::TorusHeader::decode(inj[k][0]).flits()) torus.deliver(rank, inj[k]);
        }
      }
      if (!req.write && req.addr == rm::kRegTrRcvHdr) rdata = {pop(), 0, 0, 0};
      if (!req.write && req.addr == rm::kRegTrRcvChunk) rdata = {pop(), pop(), pop(), pop()};
    }
    uint64_t pop() {
      const uint64_t w = rcv.front();
      rcv.pop_front();
      return w;
    }
    IdealTorus& torus;
    unsigned rank;
    fw::BusRequest req;
    std::array<uint64_t, 4> rdata{};
    std::array<std::vector<uint64_t>, rm::kTrInjFifos> inj;
    std::deque<uint64_t> rcv;
  };

  void deliver(unsigned src, std::vector<uint64_t> flits) {
    fw::TorusHeader h = fw::TorusHeader::decode(flits[0]);
    h.src = layout_.coord(src);
    flits[0] = h.encode();
    if (packets_++ == corrupt_) flits.back() ^= 1;
    const unsigned dst = layout_.rank(h.dst);
    ++received[dst];
    ports_[dst].rcv.insert(ports_[dst].rcv.end(), flits.begin(), flits.end());
  }

  fw::TorusLayout layout_;
  long corrupt_;
  long packets_ = 0;
  std::deque<Port> ports_;
};

workload::TrafficResult run_ideal(const fw::TorusLayout& layout, const fw::TorusFaults& faults, IdealTorus& torus) {
  workload::TrafficSpec spec;
  spec.rate = 0.5;
  spec.chunks = 2;
  spec.seed = 3;
  workload::TrafficSetup setup(layout, faults, spec, {100, 1000});
  uint64_t cycle = 0;
  return setup.run(1000, 0, [&](uint64_t n) {
    for (uint64_t c = 0; c < n; ++c) torus.edge(cycle++, setup);
  });
}

TEST(TrafficAgent, EveryPacketArrivesOnceAndIntactOnAnIdealTorus) {
  const fw::TorusLayout layout({2, 2, 2});
  IdealTorus torus(layout);
  const workload::TrafficResult r = run_ideal(layout, {}, torus);
  EXPECT_TRUE(r.ok());
  EXPECT_GT(r.created, 100u);
  EXPECT_EQ(r.delivered, r.created);
  EXPECT_EQ(r.senders, 8u);
}

// With the middle node down and the link 3 -> 5 (x-) down too, nothing is sent to node 4,
// and 3 -> 5, which has no dimension-order route left, goes through another node, which
// sends the packet on.
TEST(TrafficAgent, PacketsGoAroundWhatIsDown) {
  const fw::TorusLayout layout({3, 3, 1});
  fw::TorusFaults faults{std::vector<bool>(9, false), std::vector<unsigned>(9, 0)};
  auto link_down = [&](unsigned rank, unsigned dir) {
    faults.links_down[rank] |= 1u << dir;
    faults.links_down[layout.neighbour(rank, dir)] |= 1u << fw::TorusLayout::opposite(dir);
  };
  faults.node_down[4] = true;
  for (unsigned d = 0; d < 4; ++d) link_down(4, d);
  link_down(3, 1);
  IdealTorus torus(layout);
  const workload::TrafficResult r = run_ideal(layout, faults, torus);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.delivered, r.created);
  EXPECT_EQ(r.senders, 8u);
  EXPECT_EQ(torus.received[4], 0u);
  EXPECT_GT(torus.packets(), static_cast<long>(r.delivered)) << "some packets were forwarded";
}

TEST(TrafficAgent, ACorruptedPayloadIsCaught) {
  const fw::TorusLayout layout({2, 2, 1});
  IdealTorus torus(layout, 10);
  const workload::TrafficResult r = run_ideal(layout, {}, torus);
  EXPECT_EQ(r.corrupted, 1u);
  EXPECT_EQ(r.lost, 1u) << "a corrupted packet never counts as delivered";
  EXPECT_EQ(r.damaged, 0u) << "no link went down to explain it";
  EXPECT_FALSE(r.deadlock) << "the run stops at the corrupted packet, not at the watchdog";
  EXPECT_FALSE(r.ok());
}

TEST(TrafficPattern, FixedPatternsSendWhereTheySay) {
  const fw::TorusLayout L({4, 4, 2});
  std::mt19937_64 rng(1);
  const TrafficPattern transpose(Pattern::Transpose, L, {});
  EXPECT_EQ(transpose.destination(L.rank({1, 2, 1}), rng), L.rank({2, 1, 1}));
  EXPECT_FALSE(transpose.sends(L.rank({3, 3, 0})));
  const TrafficPattern bitcomp(Pattern::Bitcomp, L, {});
  EXPECT_EQ(bitcomp.destination(L.rank({0, 1, 1}), rng), L.rank({3, 2, 0}));
  const TrafficPattern neighbor(Pattern::Neighbor, L, {});
  EXPECT_EQ(neighbor.destination(L.rank({3, 1, 0}), rng), L.rank({0, 1, 0}));
  std::vector<bool> down(L.nodes(), false);
  down[L.rank({0, 1, 0})] = true;
  const TrafficPattern around(Pattern::Neighbor, L, down);
  EXPECT_FALSE(around.sends(L.rank({3, 1, 0}))) << "its destination is down";
  EXPECT_FALSE(around.sends(L.rank({0, 1, 0}))) << "it is down";
  EXPECT_THROW(TrafficPattern(Pattern::Transpose, fw::TorusLayout({4, 2, 1}), {}), std::invalid_argument);
  EXPECT_EQ(workload::parse_pattern("hotspot"), Pattern::Hotspot);
  EXPECT_THROW(workload::parse_pattern("tornado"), std::invalid_argument);
}

TEST(TrafficPattern, UniformPicksEveryOtherLiveNode) {
  const fw::TorusLayout L({2, 2, 1});
  const TrafficPattern uniform(Pattern::Uniform, L, {false, false, true, false});
  std::mt19937_64 rng(5);
  std::vector<unsigned> hits(4, 0);
  for (unsigned i = 0; i < 300; ++i) ++hits[*uniform.destination(0, rng)];
  EXPECT_EQ(hits[0], 0u);
  EXPECT_EQ(hits[2], 0u);
  EXPECT_GT(hits[1], 100u);
  EXPECT_GT(hits[3], 100u);
}

TEST(TrafficPattern, ANodeGoneDownMidRunIsNoLongerPickedAndSendsNothing) {
  const fw::TorusLayout L({2, 2, 1});
  TrafficPattern uniform(Pattern::Uniform, L, {});
  uniform.set_down(3);
  std::mt19937_64 rng(5);
  for (unsigned i = 0; i < 300; ++i) EXPECT_NE(*uniform.destination(0, rng), 3u);
  EXPECT_FALSE(uniform.destination(3, rng).has_value());
  EXPECT_FALSE(uniform.sends(3));
  uniform.set_down(1);
  uniform.set_down(2);  // node 0 alone: nobody to send to
  EXPECT_FALSE(uniform.destination(0, rng).has_value());
}

TEST(TrafficLedger, AbandonsThePacketsFromAndToANodeGoneDown) {
  workload::TrafficLedger ledger(3, {0, 100});
  ledger.created(0, 0, 1, 1, 5);  // to the node that goes down
  ledger.created(0, 1, 2, 2, 5);  // between live nodes
  ledger.created(1, 0, 2, 3, 5);  // from it
  ledger.created(1, 1, 0, 4, 5);  // from it, delivered before it went down
  ledger.delivered(1, 1, 4, 9, 5, 1, true);
  EXPECT_EQ(ledger.abandon({false, true, false}), 2u);
  EXPECT_EQ(ledger.abandoned(), 2u);
  EXPECT_EQ(ledger.in_flight(), 1u);
  const auto left = ledger.outstanding(0);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].dst, 2u);
  EXPECT_TRUE(ledger.outstanding(1).empty());
  EXPECT_EQ(ledger.abandon({false, true, false}), 0u) << "abandoned once";
  // One that was written off arrives after all: delivered, no longer abandoned.
  ledger.delivered(1, 0, 3, 20, 5, 1, true);
  EXPECT_EQ(ledger.abandoned(), 1u);
  EXPECT_EQ(ledger.delivered_count(), 2u);
  EXPECT_EQ(ledger.in_flight(), 1u);
}

TEST(TrafficLedger, CountsDuplicatesDamageOutstandingPacketsAndOnlyTheWindow) {
  workload::TrafficLedger ledger(2, {10, 100});
  ledger.created(0, 0, 1, 5, 9);  // before the window
  ledger.created(1, 0, 0, 20, 9);
  ledger.created(1, 1, 0, 25, 9);
  ledger.delivered(0, 0, 5, 30, 9, 1, true);
  ledger.delivered(0, 0, 5, 31, 9, 1, true);    // again
  ledger.delivered(1, 0, 20, 40, 9, 2, false);  // damaged: names no packet for sure
  ledger.delivered(7, 0, 20, 40, 9, 2, true);   // no such source: damaged too
  ledger.delivered(1, 1, 25, 50, 9, 2, true);
  EXPECT_EQ(ledger.created_count(), 3u);
  EXPECT_EQ(ledger.delivered_count(), 2u);
  EXPECT_EQ(ledger.in_flight(), 1u);
  EXPECT_EQ(ledger.duplicated(), 1u);
  EXPECT_EQ(ledger.damaged(), 2u);
  EXPECT_TRUE(ledger.outstanding(0).empty());
  const std::vector<workload::TrafficLedger::Outstanding> left = ledger.outstanding(1);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].seq, 0u);
  EXPECT_EQ(left[0].dst, 0u);
  EXPECT_EQ(left[0].created, 20u);
  EXPECT_EQ(ledger.offered_flits(), 18u);
  EXPECT_EQ(ledger.accepted_flits(), 18u);
  EXPECT_EQ(ledger.latencies(), std::vector<uint32_t>{25});
  EXPECT_EQ(ledger.measured_hops(), 2u);
}

}  // namespace
}  // namespace collnet
