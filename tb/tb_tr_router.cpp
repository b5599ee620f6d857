// SPDX-License-Identifier: Apache-2.0
// tr_router alone, at (1, 2, 3) of a 4x4x4 torus: random packets enter on all six links
// (all four VCs, with credit flow control, random gaps) and from the three injection FIFOs,
// while the neighbours return credits late and software pops reception at random. A
// scoreboard checks every packet leaves exactly once, intact, through an output and on a
// VC its routing allows, an arrived packet in the reception FIFO the steering names (the
// high-priority FIFO for a priority packet, else normal FIFO d mod RcvFifos for a packet
// that came in on link d, FIFO 0 for one injected here). Then hints and source stamping at
// injection, the deposit copy, and the packets the router must refuse. Built with one
// normal reception FIFO (the default), with TB_RCV_FIFOS, at the smallest and largest sizes,
// and with the DMA engine's FIFOs (TB_DMA of each: injection FIFOs beside the processors',
// and a packet carrying the engine's software tag steered to the engine's reception FIFO
// for its link; tb/CMakeLists.txt).
#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vtr_router.h"
#include "Vtr_router___024root.h"
#include "firmware/hardware_sizes.hpp"
#include "firmware/regmap.hpp"
#include "firmware/torus_packet.hpp"
#include "tb/tb_harness.hpp"
#include "tb/tb_torus.hpp"

namespace collnet::tb {
namespace {

using namespace fw::regmap;
using fw::TorusHeader;

// The router's sizes as Verilated (tb/CMakeLists.txt passes a variant's -G values as
// TB_* definitions too); the defaults are the catalogue's, which are the RTL's.
#ifndef TB_DYN_FLITS
#define TB_DYN_FLITS fw::size_default("torus.vc_buffer_flits")
#endif
#ifndef TB_ESC_SLOTS
#define TB_ESC_SLOTS fw::size_default("torus.escape_buffer_packets")
#endif
#ifndef TB_INJ_FLITS
#define TB_INJ_FLITS fw::size_default("torus.injection_fifo_flits")
#endif
#ifndef TB_RCV_FLITS
#define TB_RCV_FLITS fw::size_default("torus.reception_fifo_flits")
#endif
#ifndef TB_RCV_FIFOS
#define TB_RCV_FIFOS fw::size_default("torus.reception_fifos")
#endif
#ifndef TB_DMA
#define TB_DMA fw::size_default("torus.dma")
#endif
constexpr unsigned kDynFlits = TB_DYN_FLITS, kEscSlots = TB_ESC_SLOTS, kVcs = 4;
constexpr unsigned kInjFlits = TB_INJ_FLITS, kRcvFlits = TB_RCV_FLITS;
constexpr unsigned kInjCntW = fw::level_bits(kInjFlits), kRcvCntW = fw::level_bits(kRcvFlits);
// One test suite per build, so that the executables' tests have distinct CTest names.
#define TR_ROUTER COLLNET_TB_SUITE(TrRouter)
#define TR_ROUTER_ASSERTIONS COLLNET_TB_SUITE(TrRouterAssertions)
// Normal reception FIFOs, and the router's outputs: links 0..5, normal reception FIFO r at
// 6 + r, the high-priority FIFO at kPrioPort, the DMA engine's FIFO j (kDma of them) at
// kDmaPort + j. Injection FIFOs: the processors' 0..2, the engine's 3.. (kDma).
constexpr unsigned kRcvFifos = TB_RCV_FIFOS, kNumRcv = kRcvFifos + 1, kPrioPort = 6 + kRcvFifos;
constexpr unsigned kDma = TB_DMA, kDmaPort = 6 + kNumRcv, kPorts = 6 + kNumRcv + kDma, kInjFifos = 3 + kDma;
// The reception output of a normal packet that arrives from source `from` (0..5 a link,
// 6 and up an injection FIFO).
constexpr unsigned home_port(unsigned from) { return 6 + (from < 6 ? from % kRcvFifos : 0); }
// The engine's reception output for its packets from source `from`.
constexpr unsigned dma_port(unsigned from) { return kDmaPort + (from < 6 && kDma ? from % kDma : 0); }
const std::array<unsigned, 3> kMe{1, 2, 3}, kDims{4, 4, 4};

using Packet = TorusPacket;


class RouterBench : public ClockedHarness<Vtr_router> {
 public:
  explicit RouterBench(uint64_t seed, unsigned link_down = 0) : rng_(seed) {
    auto& m = model();
    m.bubble_i = 1;
    m.my_i = kMe[0] | kMe[1] << 8 | kMe[2] << 16;
    m.dims_i = kDims[0] | kDims[1] << 8 | kDims[2] << 16;
    m.link_down_i = link_down;
    for (auto& c : credits_) c = {kDynFlits, kDynFlits, kEscSlots, kEscSlots};
    reset();
  }

  // ---------------------------------------------------------------- stimulus
  void send(unsigned link, unsigned vc, const Packet& p) { tx_[link][vc].push_back(p); }
  void inject(unsigned fifo, const Packet& p) { inj_[fifo].push_back(p); }
  void set_gaps(unsigned send_pct, unsigned credit_hold_pct, unsigned rcv_pop_pct) {
    gap_ = send_pct;
    hold_ = credit_hold_pct;
    pop_ = rcv_pop_pct;
  }

  struct Out {
    unsigned port;  // 0..5 link, 6.. reception (kPrioPort the high-priority FIFO)
    unsigned vc;
    Packet p;
    uint64_t first = 0, last = 0;  // the cycles (step numbers) of its header and last flit
  };
  std::vector<Out>& delivered() { return out_; }
  unsigned errors() const { return err_; }
  // The step in which each packet of injection FIFO k was written whole, in order.
  const std::vector<uint64_t>& injected(unsigned k) const { return injected_.at(k); }
  // The step in which each credit of output link l's VC v came back, in order.
  const std::vector<uint64_t>& returned(unsigned l, unsigned v) const { return returned_.at(l).at(v); }

  void step() {
    auto& m = model();
    // Link senders: one packet at a time per link, any VC, within its credits.
    uint8_t valid = 0, hdr = 0;
    uint16_t vcs = 0;
    for (unsigned l = 0; l < 6; ++l) {
      auto& cur = cur_tx_[l];
      if (cur.pos == 0) {
        std::vector<unsigned> ok;
        for (unsigned v = 0; v < kVcs; ++v) {
          if (tx_[l][v].empty()) continue;
          const unsigned len = 1 + static_cast<unsigned>(tx_[l][v].front().payload.size());
          if (v < 2 ? credits_[l][v] >= len : credits_[l][v] >= 1) ok.push_back(v);
        }
        if (!ok.empty()) {
          cur.vc = ok[rng_() % ok.size()];
          cur.p = tx_[l][cur.vc].front();
          tx_[l][cur.vc].pop_front();
          cur.pos = 1;
        }
      }
      if (cur.pos > 0 && rng_() % 100 >= gap_) {
        const unsigned i = cur.pos - 1;
        const uint64_t flit = i == 0 ? cur.p.hdr : cur.p.payload[i - 1];
        valid |= 1u << l;
        if (i == 0) hdr |= 1u << l;
        vcs |= cur.vc << (2 * l);
        set_wide_bits(m.in_data_i.data(), 64 * l, 64, flit);
        if (cur.vc < 2) --credits_[l][cur.vc];
        else if (i == 0) --credits_[l][cur.vc];
        cur.pos = (i == cur.p.payload.size()) ? 0 : cur.pos + 1;
      }
    }
    m.in_valid_i = valid;
    m.in_hdr_i = hdr;
    m.in_vc_i = vcs;
    // Neighbours return what they owe, unless holding back.
    uint32_t credit = 0;
    for (unsigned l = 0; l < 6; ++l)
      for (unsigned v = 0; v < kVcs; ++v)
        if (owed_[l][v] > 0 && rng_() % 100 >= hold_) {
          credit |= 1u << (4 * l + v);
          --owed_[l][v];
          returned_[l][v].push_back(now_);
        }
    m.out_credit_i = credit;
    // Injection: 1..4 flits of one packet per cycle into one FIFO with room (the
    // processors' FIFOs share one data port; the engine's has its own).
    m.inj_push_i = 0;
    m.dma_inj_push_i = 0;
    const unsigned k = rng_() % kInjFifos;
    const unsigned free = inj_free(k);
    if (!inj_[k].empty()) {
      auto& p = inj_[k].front();
      const unsigned left = static_cast<unsigned>(p.payload.size() + 1 - inj_pos_[k]);
      const unsigned n = std::min<unsigned>({1 + static_cast<unsigned>(rng_() % 4), left, free});
      for (unsigned j = 0; j < n; ++j) {
        const unsigned i = inj_pos_[k] + j;
        set_wide_bits(k >= 3 ? m.dma_inj_data_i.data() : m.inj_data_i.data(), 64 * j, 64, i == 0 ? p.hdr : p.payload[i - 1]);
      }
      if (n > 0 && k >= 3) {
        m.dma_inj_n_i = n;
        m.dma_inj_push_i = 1u << (k - 3);
      } else if (n > 0) {
        m.inj_n_i = n;
        m.inj_push_i = 1u << k;
      }
      if (n > 0) {
        inj_pos_[k] += n;
        if (inj_pos_[k] == p.payload.size() + 1) {
          inj_pos_[k] = 0;
          inj_.at(k).pop_front();
          injected_[k].push_back(now_);
        }
      }
    }
    // Reception: pop 1..4 flits at random.
    uint8_t pop = 0;
    unsigned pop_n = 1 + static_cast<unsigned>(rng_() % 4);
    for (unsigned r = 0; r < kNumRcv; ++r) pop_n = std::min(pop_n, std::max(1u, rcv_count(r)));
    for (unsigned r = 0; r < kNumRcv; ++r)
      if (rcv_count(r) >= pop_n && rng_() % 100 < pop_) {
        pop |= 1u << r;
        for (unsigned j = 0; j < pop_n; ++j)
          take(6 + r, r == kRcvFifos ? kTrVcPrio : 0, wide_bits(m.rcv_data_o.data(), 256 * r + 64 * j, 64), false);
      }
    m.rcv_n_i = pop_n;
    m.rcv_pop_i = pop;
    // The engine's reception FIFOs, popped on their own port (one count for all, as the
    // processors').
    m.dma_rcv_pop_i = 0;
    if (kDma) {
      unsigned n = 1 + static_cast<unsigned>(rng_() % 4);
      for (unsigned r = 0; r < kDma; ++r) n = std::min(n, std::max(1u, rcv_count(kNumRcv + r)));
      uint8_t dpop = 0;
      for (unsigned r = 0; r < kDma; ++r)
        if (rcv_count(kNumRcv + r) >= n && rng_() % 100 < pop_) {
          dpop |= 1u << r;
          for (unsigned j = 0; j < n; ++j)
            take(kDmaPort + r, 0, wide_bits(m.dma_rcv_data_o.data(), 256 * r + 64 * j, 64), false);
        }
      m.dma_rcv_n_i = n;
      m.dma_rcv_pop_i = dpop;
    }

    tick();

    for (unsigned l = 0; l < 6; ++l)
      for (unsigned v = 0; v < kVcs; ++v)
        if (m.in_credit_o >> (4 * l + v) & 1) ++credits_[l][v];
    for (unsigned l = 0; l < 6; ++l)
      if (m.out_valid_o >> l & 1)
        take(l, (m.out_vc_o >> (2 * l)) & 3, wide_bits(m.out_data_o.data(), 64 * l, 64), m.out_hdr_o >> l & 1);
    err_ |= m.err_o;
    ++now_;
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  bool idle() const {
    for (unsigned l = 0; l < 6; ++l) {
      if (cur_tx_[l].pos) return false;
      for (const auto& q : tx_[l])
        if (!q.empty()) return false;
    }
    for (const auto& q : inj_)
      if (!q.empty()) return false;
    return true;
  }

  // Flits held by reception FIFO r (rcv_count_o: kRcvCntW bits per FIFO; the engine's FIFO
  // j, r = kNumRcv + j, dma_rcv_count_o).
  unsigned rcv_count(unsigned r) {
    if (r >= kNumRcv) return static_cast<unsigned>(port_bits(model().dma_rcv_count_o, kRcvCntW * (r - kNumRcv), kRcvCntW));
    return static_cast<unsigned>(port_bits(model().rcv_count_o, kRcvCntW * r, kRcvCntW));
  }
  // Free flits of injection FIFO k (inj_free_o; the engine's FIFO j, k = 3 + j, dma_inj_free_o).
  unsigned inj_free(unsigned k) {
    if (k >= 3) return static_cast<unsigned>(port_bits(model().dma_inj_free_o, kInjCntW * (k - 3), kInjCntW));
    return static_cast<unsigned>(port_bits(model().inj_free_o, kInjCntW * k, kInjCntW));
  }

 private:
  // A flit leaves on output `port`: assemble packets, return credits as a neighbour would.
  void take(unsigned port, unsigned vc, uint64_t flit, bool hdr) {
    auto& a = asm_[port];
    if (port < 6) {
      EXPECT_EQ(hdr, a.payload.empty() && !a.open) << "framing on link " << port;
      if (a.open) EXPECT_EQ(vc, a_vc_[port]) << "VC changed inside a packet on link " << port;
      if (vc < 2) ++owed_[port][vc];
    }
    if (!a.open) {
      a.hdr = flit;
      a.open = true;
      a_vc_[port] = vc;
      a_first_[port] = now_;
      return;
    }
    a.payload.push_back(flit);
    if (a.payload.size() == TorusHeader::decode(a.hdr).flits() - 1) {
      if (port < 6 && vc >= 2) ++owed_[port][vc];
      out_.push_back({port, a_vc_[port], {a.hdr, a.payload}, a_first_[port], now_});
      a = {};
    }
  }

  struct Asm {
    uint64_t hdr = 0;
    bool open = false;
    std::vector<uint64_t> payload;
  };
  struct Cur {
    unsigned vc = 0, pos = 0;  // pos: 0 idle, i+1 = next flit i
    Packet p;
  };
  std::mt19937_64 rng_;
  std::array<std::array<std::deque<Packet>, kVcs>, 6> tx_;
  std::array<Cur, 6> cur_tx_;
  std::array<std::array<unsigned, kVcs>, 6> credits_{}, owed_{};
  std::array<std::deque<Packet>, kInjFifos> inj_;
  std::array<size_t, kInjFifos> inj_pos_{};
  std::array<Asm, kPorts> asm_;
  std::array<unsigned, kPorts> a_vc_{};
  std::array<uint64_t, kPorts> a_first_{};
  std::array<std::vector<uint64_t>, kInjFifos> injected_;
  std::array<std::array<std::vector<uint64_t>, kVcs>, 6> returned_;
  uint64_t now_ = 0;
  std::vector<Out> out_;
  unsigned gap_ = 0, hold_ = 0, pop_ = 100, err_ = 0;
};

// Where and on which VC the router may send a packet with header `h` that came in from
// source `from` (0..5 a link, 6 and up an injection FIFO), whatever VC it came in on.
std::string check_route(const TorusHeader& h, unsigned from, unsigned port, unsigned vc) {
  std::array<bool, 3> need{};
  bool arrived = true;
  for (unsigned k = 0; k < 3; ++k) arrived &= !(need[k] = h.dst[k] != kMe[k]);
  const bool to_engine = kDma && h.sw_tag == kTrDmaSwTag;
  if (arrived)
    return port == (to_engine ? dma_port(from) : h.priority ? kPrioPort : home_port(from))
               ? ""
               : "an arrived packet from source " + std::to_string(from) + " left on port " + std::to_string(port);
  if (port >= 6) return "a packet for elsewhere went to reception";
  unsigned dor = 6;
  std::set<unsigned> productive;
  for (unsigned k = 0; k < 3; ++k)
    if (need[k]) {
      const unsigned d = 2 * k + ((h.hints >> (2 * k)) & 1 ? 0 : 1);
      productive.insert(d);
      if (dor == 6) dor = d;
    }
  // Duato: the packet's own mode decides; a dynamic packet that came in on the
  // escape VC may take a dynamic VC again here.
  const bool escape_only = h.priority || h.deterministic;
  if (escape_only) {
    if (port != dor) return "left on link " + std::to_string(port) + ", dimension order says " + std::to_string(dor);
    if (vc != (h.priority ? kTrVcPrio : kTrVcEscape)) return "left on VC " + std::to_string(vc);
    return "";
  }
  if (!productive.count(port)) return "left on link " + std::to_string(port) + ", which is not minimal";
  if (vc == kTrVcPrio) return "a normal packet took the priority VC";
  if (vc == kTrVcEscape && port != dor) return "escape VC off the dimension order";
  return "";
}

TEST(TR_ROUTER, EveryPacketLeavesOnceIntactOnAnAllowedOutputUnderBackPressure) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  RouterBench b(rng());
  b.set_gaps(20, 60, 50);
  std::map<uint64_t, Packet> want;
  std::map<uint64_t, unsigned> from;  // each packet's source
  constexpr unsigned kPackets = 3000;
  for (uint64_t id = 1; id <= kPackets; ++id) {
    TorusHeader h;
    for (unsigned k = 0; k < 3; ++k) h.dst[k] = rng() % kDims[k];
    h.chunks = 1 + rng() % 8;
    const unsigned src = rng() % (9 + kDma);  // 0..5 a link, 6..8 the processors' injection FIFOs, 9.. the engine's
    from[id] = src;
    h.priority = rng() % 10 == 0;
    h.deterministic = rng() % 3 == 0;
    h.sw_tag = rng() % 16;
    if (src < 6) {
      // As the injecting router would have: minimal hints, the source stamped.
      h.hints = fw::minimal_hints(kMe, h.dst, kDims);
      h.src = {static_cast<unsigned>(rng() % 4), static_cast<unsigned>(rng() % 4), static_cast<unsigned>(rng() % 4)};
      const unsigned vc = h.priority ? kTrVcPrio : h.deterministic ? kTrVcEscape : rng() % 3;
      const Packet p = make_torus_packet(rng, id, h);
      b.send(src, vc, p);
      want[id] = p;
    } else {
      const unsigned fifo = src >= 9 ? src - 6 : h.priority ? 2 : src - 6;
      const Packet p = make_torus_packet(rng, id, h);
      b.inject(fifo, p);
      TorusHeader stamped = h;
      stamped.hints = fw::minimal_hints(kMe, h.dst, kDims);
      stamped.src = kMe;
      want[id] = {stamped.encode(), p.payload};
    }
  }
  for (unsigned i = 0; i < 400000 && b.delivered().size() < kPackets; ++i) b.step();
  ASSERT_EQ(b.delivered().size(), kPackets) << "packets stuck in the router";
  std::set<uint64_t> seen;
  for (const auto& o : b.delivered()) {
    const uint64_t id = o.p.payload.at(0);
    ASSERT_TRUE(want.count(id)) << "unknown packet id " << id;
    EXPECT_TRUE(seen.insert(id).second) << "packet " << id << " delivered twice";
    const Packet& w = want[id];
    EXPECT_EQ(o.p.hdr, w.hdr) << "packet " << id << " header";
    EXPECT_EQ(o.p.payload, w.payload) << "packet " << id << " payload";
    EXPECT_EQ(check_route(TorusHeader::decode(w.hdr), from[id], o.port, o.vc), "") << "packet " << id;
  }
  EXPECT_TRUE(b.idle());
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

// The high-priority VC goes first: link x+ is oversubscribed by normal packets from three
// sources (the x- link on both dynamic VCs, injection FIFOs 0 and 1), and priority packets
// from injection FIFO 2 want it too. A priority packet, once whole in its FIFO and with the
// one before it gone, waits at most for the packet the link is carrying (33 flits) and
// the router's pipeline; round robin among four sources would make it wait up to three.
TEST(TR_ROUTER, TheHighPriorityVcGoesFirstOnALink) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  RouterBench b(rng());
  TorusHeader normal;
  normal.dst = {2, 2, 3};  // one hop x+
  normal.chunks = 8;
  TorusHeader link_normal = normal;
  link_normal.hints = fw::minimal_hints(kMe, normal.dst, kDims);
  link_normal.src = {0, 2, 3};
  TorusHeader prio = normal;
  prio.priority = true;
  prio.chunks = 1;
  uint64_t id = 1;
  for (unsigned i = 0; i < 40; ++i) {
    b.send(1, i % 2, make_torus_packet(rng, id++, link_normal));
    b.inject(i % 2, make_torus_packet(rng, id++, normal));
  }
  constexpr unsigned kPrio = 20;
  std::set<uint64_t> prio_ids;
  for (unsigned i = 0; i < kPrio; ++i) {
    prio_ids.insert(id);
    b.inject(2, make_torus_packet(rng, id++, prio));
  }
  for (unsigned i = 0; i < 20000 && !b.idle(); ++i) b.step();
  b.run(200);
  ASSERT_TRUE(b.idle()) << "packets stuck in the router";
  ASSERT_EQ(b.injected(2).size(), kPrio);
  std::vector<const RouterBench::Out*> prios;
  unsigned normals_while_prio_waited = 0;
  for (const auto& o : b.delivered())
    if (o.port == 0 && prio_ids.count(o.p.payload.at(0))) prios.push_back(&o);
  ASSERT_EQ(prios.size(), kPrio);
  uint64_t worst = 0;
  for (unsigned i = 0; i < kPrio; ++i) {
    EXPECT_EQ(prios[i]->vc, kTrVcPrio);
    // Ready: written whole, the one before it sent, and two slots free at the neighbour (a
    // packet entering a ring leaves a bubble): with EscSlots slots, the credit of priority
    // packet i + 1 - EscSlots back.
    uint64_t ready = std::max(b.injected(2)[i], i ? prios[i - 1]->last : 0);
    if (i + 2 > kEscSlots) ready = std::max(ready, b.returned(0, kTrVcPrio).at(i + 1 - kEscSlots));
    worst = std::max(worst, prios[i]->first - ready);
    for (const auto& o : b.delivered())
      if (o.port == 0 && !prio_ids.count(o.p.payload.at(0)) && o.first > ready && o.first < prios[i]->first)
        ++normals_while_prio_waited;
  }
  std::printf("[ priority ] worst wait %llu cycles, normal packets started while one waited: %u\n",
              static_cast<unsigned long long>(worst), normals_while_prio_waited);
  EXPECT_LE(worst, 33u + 4u) << "a priority packet waited for more than the packet on the link";
  EXPECT_EQ(normals_while_prio_waited, 0u);
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST(TR_ROUTER, InjectionStampsTheSourceAndKeepsGivenHints) {
  std::mt19937_64 rng(test_seed());
  RouterBench b(rng());
  TorusHeader h;
  h.dst = {3, 2, 3};  // x: 1 -> 3 is a tie on 4 nodes: minimal picks x+
  const Packet a = make_torus_packet(rng, 1, h);
  b.inject(0, a);
  h.hints = 0b10;  // x- given: the router must keep it
  const Packet c = make_torus_packet(rng, 2, h);
  b.inject(0, c);
  b.run(200);
  ASSERT_EQ(b.delivered().size(), 2u);
  for (const auto& o : b.delivered()) {
    const TorusHeader got = TorusHeader::decode(o.p.hdr);
    EXPECT_EQ(got.src, kMe);
    if (o.p.payload[0] == 1) {
      EXPECT_EQ(got.hints, 0b01u);
      EXPECT_EQ(o.port, 0u);
    } else {
      EXPECT_EQ(got.hints, 0b10u);
      EXPECT_EQ(o.port, 1u);
    }
  }
}

// The DMA engine's software tag: with the engine, an arrived packet carrying it goes to the
// engine's reception FIFO whatever its priority bit or the link it came in on, and a
// deposit packet passing by leaves its copy there; a packet with another tag, and every
// packet in a router without the engine, goes where it always has. The engine's own
// injection FIFO sends like the processors'.
TEST(TR_ROUTER, TheEnginesSoftwareTagIsSteeredToTheEnginesReceptionFifo) {
  std::mt19937_64 rng(test_seed());
  RouterBench b(rng());
  const auto arriving = [&](uint64_t id, bool prio, unsigned tag) {
    TorusHeader h;
    h.dst = kMe;
    h.priority = prio;
    h.deterministic = prio;
    h.sw_tag = tag;
    h.src = {0, 2, 3};
    return make_torus_packet(rng, id, h);
  };
  b.send(0, kTrVcEscape, arriving(1, false, kTrDmaSwTag));
  b.send(1, kTrVcPrio, arriving(2, true, kTrDmaSwTag));
  b.send(3, kTrVcEscape, arriving(3, false, kTrDmaSwTag - 1));
  b.send(4, kTrVcPrio, arriving(4, true, 0));
  TorusHeader d;  // a deposit along y, arriving from y+ and passing on to y-
  d.dst = {1, 0, 3};
  d.deposit = d.deterministic = true;
  d.hints = 0b1000;
  d.src = {1, 3, 3};
  d.sw_tag = kTrDmaSwTag;
  b.send(2, kTrVcEscape, make_torus_packet(rng, 5, d));
  TorusHeader self;  // one the node sends itself, from the engine's injection FIFO if it has one
  self.dst = kMe;
  self.sw_tag = kTrDmaSwTag;
  b.inject(kDma ? 3 : 0, make_torus_packet(rng, 6, self));
  b.run(400);
  std::map<uint64_t, std::set<unsigned>> ports;
  for (const auto& o : b.delivered()) ports[o.p.payload.at(0)].insert(o.port);
  EXPECT_EQ(ports[1], std::set<unsigned>{kDma ? dma_port(0) : home_port(0)});
  EXPECT_EQ(ports[2], std::set<unsigned>{kDma ? dma_port(1) : kPrioPort}) << "the tag wins over the priority bit";
  EXPECT_EQ(ports[3], std::set<unsigned>{home_port(3)});
  EXPECT_EQ(ports[4], std::set<unsigned>{kPrioPort});
  EXPECT_EQ(ports[5], (std::set<unsigned>{3, kDma ? dma_port(2) : home_port(2)})) << "a deposit's copy";
  EXPECT_EQ(ports[6], std::set<unsigned>{kDma ? dma_port(6) : home_port(6)}) << "sent to itself";
  EXPECT_EQ(b.delivered().size(), 7u);
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST(TR_ROUTER, ADepositPacketIsCopiedAtEveryNodeItPassesButNotAtItsSource) {
  std::mt19937_64 rng(test_seed());
  RouterBench b(rng());
  TorusHeader h;
  h.dst = {1, 0, 3};  // along y only
  h.deposit = true;
  h.deterministic = true;
  h.hints = 0b1000;  // y-
  h.src = {1, 3, 3};
  const Packet passing = make_torus_packet(rng, 7, h);
  b.send(2, kTrVcEscape, passing);  // arrives from the y+ neighbour
  b.run(200);
  ASSERT_EQ(b.delivered().size(), 2u);
  std::set<unsigned> ports;
  for (const auto& o : b.delivered()) {
    ports.insert(o.port);
    EXPECT_EQ(o.p.payload, passing.payload);
  }
  EXPECT_EQ(ports, (std::set<unsigned>{3, home_port(2)})) << "forwarded on y- and copied to reception";
  b.delivered().clear();
  h.src = {};
  h.hints = 0;
  b.inject(0, make_torus_packet(rng, 8, h));
  b.run(200);
  ASSERT_EQ(b.delivered().size(), 1u) << "the injecting node keeps no copy";
  EXPECT_LT(b.delivered()[0].port, 6u);
  EXPECT_EQ(b.errors(), 0u);
}

TEST(TR_ROUTER, PacketsThatCannotBeRoutedAreDiscardedWithTheirError) {
  std::mt19937_64 rng(test_seed());
  {
    RouterBench b(rng());
    TorusHeader h;
    h.dst = {9, 0, 0};  // outside the 4x4x4 torus
    b.inject(0, make_torus_packet(rng, 1, h));
    b.run(100);
    EXPECT_TRUE(b.delivered().empty());
    EXPECT_EQ(b.errors(), 1u << kTrErrBadDest);
  }
  {
    RouterBench b(rng());
    TorusHeader h;
    h.dst = {1, 0, 0};
    h.deposit = true;  // a deposit packet must be deterministic
    b.inject(0, make_torus_packet(rng, 1, h));
    b.run(100);
    EXPECT_TRUE(b.delivered().empty());
    EXPECT_EQ(b.errors(), 1u << kTrErrDeposit);
  }
  {
    RouterBench b(rng(), /*link_down=*/1u << 0);  // x+ is down
    TorusHeader h;
    h.dst = {2, 2, 3};
    h.deterministic = true;
    b.inject(0, make_torus_packet(rng, 1, h));
    b.run(100);
    EXPECT_TRUE(b.delivered().empty());
    EXPECT_EQ(b.errors(), 1u << kTrErrDownLink);
  }
}

TEST(TR_ROUTER, AdaptiveRoutingAvoidsALinkMarkedDown) {
  std::mt19937_64 rng(test_seed());
  RouterBench b(rng(), /*link_down=*/1u << 0);  // x+ is down
  TorusHeader h;
  h.dst = {2, 3, 3};  // x+ and y+ are both minimal
  for (uint64_t id = 1; id <= 20; ++id) b.inject(0, make_torus_packet(rng, id, h));
  b.run(2000);
  ASSERT_EQ(b.delivered().size(), 20u);
  for (const auto& o : b.delivered()) EXPECT_EQ(o.port, 2u) << "only y+ is up";
  EXPECT_EQ(b.errors(), 0u);
}

// The router's assertions on credits and VC ownership, each broken on purpose and its check
// seen to fire. A neighbour's extra credit comes in on the ports; what the router's own
// logic guarantees is broken by changing a register as a flipped bit would (public in this
// testbench's Verilation only, tb/tb_tr_router.vlt). After the change the bench's own
// checks are left out: the model is clocked with its inputs quiet.
constexpr unsigned kInj0 = 24;  // injection FIFO 0 as a source: after the 6 links' 4 VCs

void quiet_tick(RouterBench& b) {
  b->in_valid_i = 0;
  b->out_credit_i = 0;
  b->inj_push_i = 0;
  b->rcv_pop_i = 0;
  b.tick();
}

// Runs the bench until a header leaves on link 0 (x+); its VC.
unsigned until_header_on_x_plus(RouterBench& b) {
  for (int i = 0; i < 200; ++i) {
    b.step();
    if ((b->out_valid_o & 1) && (b->out_hdr_o & 1)) return b->out_vc_o & 3u;
  }
  ADD_FAILURE() << "no header left on x+";
  return 0;
}

// An adaptive packet of 8 chunks for the neighbour on x+, (2, 2, 3).
Packet long_packet_to_x_plus(std::mt19937_64& rng, uint64_t id) {
  TorusHeader h;
  h.dst = {2, 2, 3};
  h.chunks = 8;
  return make_torus_packet(rng, id, h);
}

TEST(TR_ROUTER_ASSERTIONS, CreditReturnedUnsentFires) {
  RouterBench b(test_seed());
  // The neighbour on x+ returns a dynamic VC 0 credit for a flit it was never sent.
  EXPECT_TRUE(b.trips("g_credits[0].g_vc[0].CreditReturnedUnsent", [&] {
    b->out_credit_i = 1;
    b.tick();
  }, "link 0 VC 0: a credit came back with all " + std::to_string(kDynFlits) + " held"));
}

TEST(TR_ROUTER_ASSERTIONS, TakeAtZeroFires) {
  std::mt19937_64 rng(test_seed());
  RouterBench b(rng());
  b.inject(0, long_packet_to_x_plus(rng, 1));
  const unsigned vc = until_header_on_x_plus(b);
  ASSERT_LT(vc, 2u) << "an adaptive packet takes a dynamic VC";
  auto& r = *b->rootp;
  EXPECT_TRUE(b.trips("u_credit.TakeAtZero", [&] {
    (vc == 0 ? r.tr_router__DOT__g_credits__BRA__0__KET____DOT__g_vc__BRA__0__KET____DOT__u_credit__DOT__count_q
             : r.tr_router__DOT__g_credits__BRA__0__KET____DOT__g_vc__BRA__1__KET____DOT__u_credit__DOT__count_q) = 0;
    quiet_tick(b);
  }, "a credit taken with none held"));
}

TEST(TR_ROUTER_ASSERTIONS, FlitOnOwnedVcFires) {
  std::mt19937_64 rng(test_seed());
  RouterBench b(rng());
  b.inject(0, long_packet_to_x_plus(rng, 1));
  const unsigned vc = until_header_on_x_plus(b);
  EXPECT_TRUE(b.trips("g_owner[0].FlitOnOwnedVc", [&] {
    b->rootp->tr_router__DOT__vc_q ^= uint64_t{1} << (2 * kInj0);  // the packet's next flits on the other dynamic VC
    quiet_tick(b);
  }, "link 0: a payload flit on VC " + std::to_string(vc ^ 1) + "; the packet on the link owns VC " +
         std::to_string(vc)));
}

TEST(TR_ROUTER_ASSERTIONS, OnePacketPerOutputFires) {
  std::mt19937_64 rng(test_seed());
  RouterBench b(rng());
  b.set_gaps(/*send_pct=*/90, 0, 100);
  b.send(1, 0, long_packet_to_x_plus(rng, 1));  // from x-, on to x+, a flit every ten cycles or so
  until_header_on_x_plus(b);
  b.inject(0, long_packet_to_x_plus(rng, 2));  // waits for x+, the only minimal link
  for (int i = 0; i < 200 && b.inj_free(0) != kInjFlits - 33u; ++i) b.step();
  ASSERT_EQ(b.inj_free(0), kInjFlits - 33u) << "the second packet waits whole in its FIFO";
  ASSERT_TRUE(b->rootp->tr_router__DOT__obusy_q & 1u) << "the first still holds x+";
  EXPECT_TRUE(b.trips("g_owner[0].OnePacketPerOutput", [&] {
    b->rootp->tr_router__DOT__obusy_q &= ~1u;  // x+ looks free while its packet still streams
    quiet_tick(b);
  }, "link 0: a packet started on VC"));
}

}  // namespace
}  // namespace collnet::tb
