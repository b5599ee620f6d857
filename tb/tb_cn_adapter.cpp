// SPDX-License-Identifier: Apache-2.0
// cn_adapter as a leaf, an inner node and a root of a class: the blocks together, each of
// which has its own testbench (tb_cn_combine, tb_cn_bcast, tb_cn_regs, ...). Combining up
// through the ALU, identity injection, turnaround and broadcast, credit flow control under
// random back-pressure, reception back-pressure, the injection FIFOs' levels reaching the
// register block, vector (4-word) payload accesses through the real FIFOs, the two virtual
// channels sharing the links, and every error of the datapath reaching the register block.
#include <algorithm>
#include <array>
#include <deque>
#include <vector>

#include <gtest/gtest.h>

#include "Vcn_adapter.h"
#include "firmware/alu_model.hpp"
#include "firmware/hardware_sizes.hpp"
#include "firmware/packet.hpp"
#include "firmware/regmap.hpp"
#include "firmware/tree_firmware.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
using namespace collnet::fw;  // the ALU model (firmware/alu_model.hpp)
namespace {

using namespace fw::regmap;
using Payload = std::array<uint64_t, kPayloadFlits>;
using Vector = std::array<uint64_t, kVectorWords>;

// The adapter's sizes as Verilated (a build at other sizes passes its -G values as TB_*
// definitions too); the defaults are the catalogue's, which are the RTL's.
#ifndef TB_LINK_PACKETS
#define TB_LINK_PACKETS fw::size_default("tree.link_buffer_packets")
#endif
#ifndef TB_INJ_PACKETS
#define TB_INJ_PACKETS fw::size_default("tree.injection_fifo_packets")
#endif
#ifndef TB_RCV_PACKETS
#define TB_RCV_PACKETS fw::size_default("tree.reception_fifo_packets")
#endif
#ifndef TB_RETRY_FLITS
#define TB_RETRY_FLITS fw::size_default("tree.retransmission_flits")
#endif
#ifndef TB_USER_CLASSES
#define TB_USER_CLASSES fw::size_default("tree.class_routes")
#endif
constexpr unsigned kLinkPackets = TB_LINK_PACKETS, kInjPackets = TB_INJ_PACKETS, kRcvPackets = TB_RCV_PACKETS;
constexpr unsigned kRetryFlits = TB_RETRY_FLITS, kUserClasses = TB_USER_CLASSES;
// The class the tests call k (0..7, 12): k itself where the adapter has a route for it,
// else a system class (12 + k mod 4, its route written with the privileged bit), so that
// the classes one test uses stay distinct.
constexpr unsigned cls(unsigned k) { return k <= kUserClasses ? k : kFirstPrivClass + k % 4; }
// Cycles in which a link carries n packets, with room for the pipeline.
constexpr unsigned link_cycles(unsigned n) { return 200 + n * 2 * (kPayloadFlits + 1); }

struct Packet {
  uint32_t hdr = 0;
  Payload pl{};
  unsigned vc = 0;  // the VC it travelled on (packets the adapter sent)
};

uint32_t header(unsigned klass, unsigned op, unsigned tag, unsigned size_words = 4) {
  fw::Header h;
  h.cls = klass;
  h.op = static_cast<fw::AluOp>(op);
  h.tag = tag;
  h.size_words = size_words;
  return h.encode();
}

Payload random_payload(std::mt19937_64& rng) {
  Payload p;
  for (auto& w : p) w = (rng() % 4 == 0) ? (rng() & 0xff) : rng();
  return p;
}

// The testbench side of the three links: senders that respect the adapter's credits of
// each VC and receivers that return credits per VC (optionally late), plus the register
// bus. The senders interleave the VCs flit by flit at random, which a receiver must
// accept; the adapter itself switches VC only between packets, which the bench checks.
// The bench is a fw::RegisterBus, so the real firmware can drive the adapter through it.
class AdapterBench : public ClockedHarness<Vcn_adapter>, public fw::RegisterBus {
 public:
  explicit AdapterBench(uint64_t seed = 1) : rng_(seed) {
    for (auto& c : credits_) c.fill(kLinkPackets);
  }

  // ---------------------------------------------------------------- bus
  // The bus data ports are 256 bits (eight 32-bit words in the model): word k of a vector
  // in bits [64k +: 64]. An ordinary access uses word 0.
  void write_vector(uint32_t addr, const Vector& v, bool priv = false) override {
    model().bus_req_i = 1;
    model().bus_we_i = 1;
    model().bus_addr_i = addr;
    for (unsigned k = 0; k < kVectorWords; ++k) {
      model().bus_wdata_i[2 * k] = static_cast<uint32_t>(v[k]);
      model().bus_wdata_i[2 * k + 1] = static_cast<uint32_t>(v[k] >> 32);
    }
    model().bus_priv_i = priv;
    step();
    model().bus_req_i = 0;
  }
  void write(uint32_t addr, uint64_t data, bool priv = false) override { write_vector(addr, {data, 0, 0, 0}, priv); }
  Vector read_vector(uint32_t addr, bool priv = false) override {
    model().bus_req_i = 1;
    model().bus_we_i = 0;
    model().bus_addr_i = addr;
    model().bus_priv_i = priv;
    step();
    model().bus_req_i = 0;
    EXPECT_TRUE(model().bus_rvalid_o);
    Vector v;
    for (unsigned k = 0; k < kVectorWords; ++k)
      v[k] = (uint64_t{model().bus_rdata_o[2 * k + 1]} << 32) | model().bus_rdata_o[2 * k];
    return v;
  }
  // Every ordinary register answers in word 0 only.
  uint64_t read(uint32_t addr, bool priv = false) override {
    const Vector v = read_vector(addr, priv);
    EXPECT_EQ(v[1] | v[2] | v[3], 0u) << "bus data above word 0 reading register 0x" << std::hex << addr;
    return v[0];
  }
  // A FIFO register of VC `vc` (the system VC's are privileged).
  static uint32_t fifo(uint32_t addr, unsigned vc) { return vc == kVcSystem ? addr + kRegSysVcOffset : addr; }
  void route(unsigned klass, unsigned up, unsigned down, bool src, bool dst, bool priv = false) {
    fw::ClassRoute r;
    r.up_link = up;
    r.down_mask = down;
    r.local_source = src;
    r.local_destination = dst;
    write(reg_route_base(klass), r.encode(), priv || klass >= kFirstPrivClass);
  }
  void inject(const Packet& p, unsigned vc = kVcUser) {
    write(fifo(kRegInjHdr, vc), p.hdr, vc == kVcSystem);
    for (uint64_t w : p.pl) write(fifo(kRegInjData, vc), w, vc == kVcSystem);
  }
  // Reads one packet from VC `vc`'s reception, waiting for its words as they arrive.
  Packet receive(unsigned vc = kVcUser, unsigned max_cycles = 5000) {
    Packet p;
    p.vc = vc;
    const bool priv = vc == kVcSystem;
    unsigned waited = 0;
    while (get_field(read(fifo(kRegStatus, vc), priv), kStatusRcvHdrLsb, kStatusRcvHdrW) == 0) {
      if (++waited > max_cycles) {
        ADD_FAILURE() << "no packet arrived in reception of VC " << vc;
        return p;
      }
    }
    p.hdr = static_cast<uint32_t>(read(fifo(kRegRcvHdr, vc), priv));
    for (unsigned i = 0; i < kPayloadFlits;) {
      if (get_field(read(fifo(kRegStatus, vc), priv), kStatusRcvDataLsb, kStatusRcvDataW) == 0) {
        if (++waited > max_cycles) {
          ADD_FAILURE() << "payload word " << i << " never arrived";
          return p;
        }
        continue;
      }
      p.pl[i++] = read(fifo(kRegRcvData, vc), priv);
    }
    return p;
  }
  uint64_t errors() { return read(kRegErr); }
  uint64_t status(unsigned vc = kVcUser) { return read(fifo(kRegStatus, vc), vc == kVcSystem); }
  unsigned inj_data_free(unsigned vc = kVcUser) { return get_field(status(vc), kStatusInjDataFreeLsb, kStatusInjDataFreeW); }
  // Polls VC `vc`'s status (a read a cycle) until its injection FIFO has a header slot and
  // `words` payload words free; fails the test after `max_cycles`.
  void wait_for_room(unsigned words, unsigned vc = kVcUser, unsigned max_cycles = link_cycles(2)) {
    for (unsigned c = 0; c < max_cycles; ++c) {
      const uint64_t st = status(vc);
      if (get_field(st, kStatusInjHdrFreeLsb, kStatusInjHdrFreeW) > 0 &&
          get_field(st, kStatusInjDataFreeLsb, kStatusInjDataFreeW) >= words)
        return;
    }
    ADD_FAILURE() << "VC " << vc << "'s injection FIFO had no room for a header and " << words << " words in "
                  << max_cycles << " cycles";
  }
  unsigned rcv_data(unsigned vc = kVcUser) { return get_field(status(vc), kStatusRcvDataLsb, kStatusRcvDataW); }
  unsigned rcv_hdrs(unsigned vc = kVcUser) { return get_field(status(vc), kStatusRcvHdrLsb, kStatusRcvHdrW); }

  // ---------------------------------------------------------------- links
  void send(unsigned link, const Packet& p, unsigned vc = kVcUser) { send(link, p, 0, kPayloadFlits, vc); }
  // Part of a packet: its header if `first` is 0, then payload flits [first, last).
  void send(unsigned link, const Packet& p, unsigned first, unsigned last, unsigned vc = kVcUser) {
    if (first == 0) tx_[link][vc].push_back({true, p.hdr});
    for (unsigned i = first; i < last; ++i) tx_[link][vc].push_back({false, p.pl[i]});
  }
  // Probability (percent) that a sender idles in a cycle / a receiver holds a credit back.
  void set_send_gaps(unsigned percent) { gap_percent_ = percent; }
  void set_credit_delay(unsigned percent) { credit_hold_percent_ = percent; }
  void hold_credits(unsigned link, bool hold, unsigned vc = kVcUser) { hold_[link][vc] = hold; }

  // Packets the adapter sent on `link` (both VCs, in the order they completed), complete ones only.
  std::vector<Packet>& sent_on(unsigned link) { return rx_packets_[link]; }
  std::vector<Packet> sent_on(unsigned link, unsigned vc) const {
    std::vector<Packet> out;
    for (const Packet& p : rx_packets_[link])
      if (p.vc == vc) out.push_back(p);
    return out;
  }
  unsigned sender_credits(unsigned link, unsigned vc = kVcUser) const { return credits_[link][vc]; }

  void step() {
    auto& m = model();
    uint8_t valid = 0, vcs = 0, hdr = 0, credit = 0;
    for (unsigned l = 0; l < 3; ++l) {
      // Sender: a header needs a credit of its VC; payload flits follow, possibly with
      // gaps, and the two VCs' flits interleave at random.
      if (rng_() % 100 >= gap_percent_) {
        std::array<bool, kNumVcs> ready{};
        unsigned n_ready = 0;
        for (unsigned v = 0; v < kNumVcs; ++v) {
          ready[v] = !tx_[l][v].empty() && (!tx_[l][v].front().first || credits_[l][v] > 0);
          n_ready += ready[v];
        }
        if (n_ready > 0) {
          unsigned v = ready[0] ? 0 : 1;
          if (n_ready == 2) v = rng_() % 2;
          const auto f = tx_[l][v].front();
          tx_[l][v].pop_front();
          valid |= 1u << l;
          vcs |= v << l;
          if (f.first) {
            hdr |= 1u << l;
            --credits_[l][v];
          }
          m.link_in_data_i[2 * l] = static_cast<uint32_t>(f.second);
          m.link_in_data_i[2 * l + 1] = static_cast<uint32_t>(f.second >> 32);
        }
      }
      // Receiver: return one owed credit per VC, unless held back.
      for (unsigned v = 0; v < kNumVcs; ++v)
        if (owed_[l][v] > 0 && !hold_[l][v] && rng_() % 100 >= credit_hold_percent_) {
          credit |= 1u << (2 * l + v);
          --owed_[l][v];
        }
    }
    m.link_in_valid_i = valid;
    m.link_in_vc_i = vcs;
    m.link_in_hdr_i = hdr;
    m.link_out_credit_i = credit;
    tick();
    for (unsigned l = 0; l < 3; ++l) {
      for (unsigned v = 0; v < kNumVcs; ++v)
        if (m.link_in_credit_o & (1u << (2 * l + v))) ++credits_[l][v];
      if (m.link_out_valid_o & (1u << l)) {
        const uint64_t d = (uint64_t{m.link_out_data_o[2 * l + 1]} << 32) | m.link_out_data_o[2 * l];
        const unsigned v = (m.link_out_vc_o >> l) & 1;
        if (m.link_out_hdr_o & (1u << l)) {
          EXPECT_EQ(partial_[l].size(), 0u) << "header inside a packet on link " << l;
          partial_[l].clear();
          cur_[l].hdr = static_cast<uint32_t>(d);
          cur_[l].vc = v;
          partial_[l].push_back(d);
        } else {
          EXPECT_GT(partial_[l].size(), 0u) << "payload outside a packet on link " << l;
          EXPECT_EQ(v, cur_[l].vc) << "the adapter switched VC inside a packet on link " << l;
          if (!partial_[l].empty()) cur_[l].pl[partial_[l].size() - 1] = d;
          partial_[l].push_back(d);
        }
        if (partial_[l].size() == kPayloadFlits + 1) {
          rx_packets_[l].push_back(cur_[l]);
          partial_[l].clear();
          const unsigned pv = cur_[l].vc;
          ++owed_[l][pv];
          ++received_[l][pv];
          EXPECT_LE(received_[l][pv] - returned(l, pv), kLinkPackets)
              << "adapter overran its credits of VC " << pv << " on link " << l;
        }
      }
    }
  }
  void run(unsigned cycles) {
    for (unsigned i = 0; i < cycles; ++i) step();
  }
  // Steps until `n` packets were sent on `link` (fails after max_cycles).
  void run_until_sent(unsigned link, size_t n, unsigned max_cycles = 20000) {
    for (unsigned i = 0; i < max_cycles && sent_on(link).size() < n; ++i) step();
    ASSERT_GE(sent_on(link).size(), n) << "link " << link << " sent " << sent_on(link).size() << " packets";
  }
  bool senders_idle() const {
    for (const auto& link : tx_)
      for (const auto& q : link)
        if (!q.empty()) return false;
    return true;
  }

 private:
  unsigned returned(unsigned l, unsigned v) const { return received_[l][v] - owed_[l][v]; }

  using PerVc = std::array<unsigned, kNumVcs>;
  std::mt19937_64 rng_;
  std::array<std::array<std::deque<std::pair<bool, uint64_t>>, kNumVcs>, 3> tx_;
  std::array<PerVc, 3> credits_{};
  std::array<PerVc, 3> owed_{}, received_{};
  std::array<std::array<bool, kNumVcs>, 3> hold_{};
  std::array<std::vector<uint64_t>, 3> partial_;
  std::array<Packet, 3> cur_;
  std::array<std::vector<Packet>, 3> rx_packets_;
  unsigned gap_percent_ = 0, credit_hold_percent_ = 0;
};

Payload combine(unsigned op, const Payload& a, const Payload& b, const Payload& c) {
  Payload r;
  for (unsigned i = 0; i < kPayloadFlits; ++i) r[i] = ref_alu(op, a[i], b[i], c[i]);
  return r;
}
Payload identity_payload(unsigned op) {
  Payload p;
  p.fill(ref_identity(op));
  return p;
}

const unsigned kOps[] = {kOpOr, kOpAnd, kOpXor, kOpMin, kOpMax, kOpAdd};

// ------------------------------------------------------------------ the real firmware
// fw::TreeFirmware drives the adapter through the bench's register bus, as it drives a
// node of the machine: probe, a root's class route, a packet injected and received back
// on each VC (the root's turnaround), and the status it decodes.
TEST(COLLNET_TB_SUITE(CnAdapterFirmware), TheNodesFirmwareDrivesAPacketThroughTheRoot) {
  AdapterBench b;
  fw::Personality me;  // rank 0 of a one-node machine: the root, no links
  for (fw::Vc vc : {fw::Vc::User, fw::Vc::System}) {
    fw::TreeFirmware tree(b, me, vc);
    tree.probe();
    fw::ClassRoute root;
    root.up_link = fw::ClassRoute::kNoUpLink;
    root.local_source = root.local_destination = true;
    tree.configure_class_route(vc == fw::Vc::System ? 12 : cls(5), root, vc == fw::Vc::System || cls(5) >= kFirstPrivClass);
    fw::Header h;
    h.cls = vc == fw::Vc::System ? 12 : cls(5);
    h.op = fw::AluOp::Add;
    h.tag = 77;
    std::vector<uint64_t> words(kPayloadFlits), got(kPayloadFlits);
    for (unsigned i = 0; i < kPayloadFlits; ++i) words[i] = 0x1000 * (unsigned(vc) + 1) + i;
    EXPECT_EQ(tree.status().inj_hdr_free, kInjPackets);
    tree.push_header(h);
    tree.push_words(words.data(), words.size());
    for (int i = 0; i < 200 && tree.status().rcv_data < kPayloadFlits; ++i) b.step();
    ASSERT_EQ(tree.status().rcv_hdrs, 1u);
    EXPECT_EQ(tree.pop_header(), h);
    tree.pop_words(got.data(), got.size());
    EXPECT_EQ(got, words) << "one contributor: the sum is its own words";
    tree.check_errors();
  }
  EXPECT_FALSE(b.assertion_failed());
}

// RegSizes reports the sizes the adapter was built with: what the firmware reads instead of
// assuming the defaults (firmware/hardware_sizes.hpp).
TEST(COLLNET_TB_SUITE(CnAdapterFirmware), RegSizesReportsTheSizesItWasBuiltWith) {
  AdapterBench b;
  const fw::HardwareSizes hw = fw::HardwareSizes::decode(b.read(kRegSizes), 0);
  EXPECT_EQ(hw.get("tree.link_buffer_packets"), kLinkPackets);
  EXPECT_EQ(hw.get("tree.injection_fifo_packets"), kInjPackets);
  EXPECT_EQ(hw.get("tree.reception_fifo_packets"), kRcvPackets);
  EXPECT_EQ(hw.get("tree.retransmission_flits"), kRetryFlits);
  EXPECT_EQ(hw.get("tree.class_routes"), kUserClasses);
  EXPECT_EQ(b.errors(), 0u);
}

// The classes with a route: the world's (0), the user classes 1..UserClasses, the system's.
// Another class's route register is unmapped (ErrBadAddr, nothing written, zero read) and a
// packet of that class is not routed here (ErrBadRoute, nothing delivered).
TEST(COLLNET_TB_SUITE(CnAdapterFirmware), OnlyTheClassesBuiltHaveRoutes) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  const uint64_t bad_addr = 1ull << kErrBadAddr;
  for (unsigned c = 0; c < kNumClasses; ++c) {
    const bool built = c <= kUserClasses || c >= kFirstPrivClass;
    b.route(c, 0, 0b110, true, true);
    EXPECT_EQ(b.errors(), built ? 0u : bad_addr) << "class " << c << "'s route written";
    b.write(kRegErrClear, ~0ull);
    fw::ClassRoute want;
    want.up_link = 0;
    want.down_mask = 0b110;
    want.local_source = want.local_destination = true;
    EXPECT_EQ(b.read(reg_route_base(c)), built ? want.encode() : 0u) << "class " << c << "'s route read";
    EXPECT_EQ(b.errors(), built ? 0u : bad_addr) << "class " << c << "'s route read";
    b.write(kRegErrClear, ~0ull);
  }
  if (kUserClasses < kUserClassesMax) {
    b.send(1, {header(kUserClasses + 1, kOpAdd, 1), random_payload(rng)});
    b.run(100);
    EXPECT_EQ(b.errors(), 1u << kErrBadRoute) << "a packet of a class without a route";
    EXPECT_TRUE(b.sent_on(0).empty());
  }
}

// ------------------------------------------------------------------ leaf
TEST(COLLNET_TB_SUITE(CnAdapterLeaf), SendsItsContributionUpAndReceivesTheResult) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b;
  b.route(cls(0), 0, 0, true, true);  // leaf: up on link 0, no children
  for (unsigned op : kOps) {
    Packet p{header(cls(0), op, op), random_payload(rng)};
    const size_t before = b.sent_on(0).size();
    b.inject(p);
    b.run_until_sent(0, before + 1);
    const Packet& up = b.sent_on(0).back();
    EXPECT_EQ(up.hdr, p.hdr);
    EXPECT_EQ(up.pl, p.pl) << "a leaf's combine must pass its contribution (children are identity) for op " << op;

    Packet down{p.hdr, random_payload(rng)};
    b.send(0, down);
    const Packet got = b.receive();
    EXPECT_EQ(got.hdr, down.hdr);
    EXPECT_EQ(got.pl, down.pl);
  }
  b.run(10);
  EXPECT_EQ(b.sender_credits(0), kLinkPackets) << "every received packet returns its credit";
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

// The injection FIFOs' real levels reach the register block: behind an up link that
// returns no credits, exactly the link's buffers and the FIFOs' depth are taken, and the
// next header or word is refused.
TEST(COLLNET_TB_SUITE(CnAdapterLeaf), AStalledUpLinkFillsInjectionToItsDepthAndThenPushesAreRefused) {
  AdapterBench b;
  // Class 5 is a leaf whose up link never returns credits, so injection cannot drain
  // past what the link buffers hold.
  b.route(cls(5), 0, 0, true, true);
  b.hold_credits(0, true);
  const uint64_t overflow = 1ull << kErrInjOverflow;
  Packet p{header(cls(5), kOpAdd, 0), {}};
  for (unsigned i = 0; i < kLinkPackets + kInjPackets; ++i) {
    // Each packet once its FIFO has room for it (a small FIFO drains into the link as it
    // is written).
    b.wait_for_room(kPayloadFlits);
    b.inject(p);
  }
  b.run(link_cycles(kLinkPackets));
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_EQ(b.sent_on(0).size(), kLinkPackets);
  EXPECT_EQ(get_field(b.read(kRegStatus), kStatusInjHdrFreeLsb, kStatusInjHdrFreeW), 0u);
  EXPECT_EQ(b.inj_data_free(), 0u);
  b.write(kRegInjHdr, header(cls(5), kOpAdd, 99));
  EXPECT_EQ(b.errors(), overflow);
  EXPECT_EQ(get_field(b.read(kRegStatus), kStatusInjHdrFreeLsb, kStatusInjHdrFreeW), 0u);
  b.write(kRegErrClear, ~0ull);
  b.write(kRegInjData, 1);
  EXPECT_EQ(b.errors(), overflow);
  b.hold_credits(0, false);
  b.run_until_sent(0, kLinkPackets + kInjPackets, link_cycles(kLinkPackets + kInjPackets));
  b.run(link_cycles(1));
  EXPECT_EQ(b.sent_on(0).size(), kLinkPackets + kInjPackets) << "the refused pushes added nothing";
}

// ------------------------------------------------------------------ inner node
TEST(COLLNET_TB_SUITE(CnAdapterInner), CombinesBothChildrenAndItselfForEveryOpcode) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.set_send_gaps(30);
  b.route(cls(2), 0, 0b110, true, true);
  unsigned n = 0;
  for (unsigned op : kOps) {
    for (int rep = 0; rep < 3; ++rep, ++n) {
      const uint32_t h = header(cls(2), op, n);
      Packet c1{h, random_payload(rng)}, c2{h, random_payload(rng)}, me{h, random_payload(rng)};
      b.send(1, c1);
      b.send(2, c2);
      b.inject(me);
      b.run_until_sent(0, n + 1);
      const Packet& up = b.sent_on(0).back();
      EXPECT_EQ(up.hdr, h);
      EXPECT_EQ(up.pl, combine(op, me.pl, c1.pl, c2.pl)) << "opcode " << op;
    }
  }
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST(COLLNET_TB_SUITE(CnAdapterInner), BroadcastsWhatComesFromAboveToChildrenAndItself) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(1), 0, 0b110, true, true);
  for (unsigned i = 0; i < 6; ++i) {
    Packet p{header(cls(1), kOpOr, i), random_payload(rng)};
    b.send(0, p);
    b.run_until_sent(1, i + 1);
    b.run_until_sent(2, i + 1);
    EXPECT_EQ(b.sent_on(1).back().pl, p.pl);
    EXPECT_EQ(b.sent_on(2).back().pl, p.pl);
    const Packet got = b.receive();
    EXPECT_EQ(got.hdr, p.hdr);
    EXPECT_EQ(got.pl, p.pl);
  }
  EXPECT_TRUE(b.sent_on(0).empty()) << "nothing goes back up";
  EXPECT_EQ(b.errors(), 0u);
}

TEST(COLLNET_TB_SUITE(CnAdapterInner), KeepsEveryPacketIntactUnderRandomBackPressure) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.set_send_gaps(40);
  b.set_credit_delay(85);
  b.route(cls(3), 0, 0b110, true, true);
  std::vector<Payload> want;
  constexpr unsigned kPackets = 60;
  for (unsigned i = 0; i < kPackets; ++i) {
    const unsigned op = kOps[rng() % 6];
    const uint32_t h = header(cls(3), op, i);
    Packet c1{h, random_payload(rng)}, c2{h, random_payload(rng)}, me{h, random_payload(rng)};
    b.send(1, c1);
    b.send(2, c2);
    b.wait_for_room(kPayloadFlits, kVcUser, 20000);
    b.inject(me);
    want.push_back(combine(op, me.pl, c1.pl, c2.pl));
  }
  b.run_until_sent(0, kPackets, 200000);
  ASSERT_EQ(b.sent_on(0).size(), kPackets);
  for (unsigned i = 0; i < kPackets; ++i) {
    EXPECT_EQ(fw::Header::decode(b.sent_on(0)[i].hdr).tag, i) << "packets left out of order";
    EXPECT_EQ(b.sent_on(0)[i].pl, want[i]) << "packet " << i;
  }
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

// ------------------------------------------------------------------ root
TEST(COLLNET_TB_SUITE(CnAdapterRoot), TurnsTheResultAroundToChildrenAndItself) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.set_send_gaps(20);
  b.route(cls(0), kRouteUpNone, 0b110, true, true);
  unsigned n = 0;
  for (unsigned op : kOps) {
    const uint32_t h = header(cls(0), op, n++);
    Packet c1{h, random_payload(rng)}, c2{h, random_payload(rng)}, me{h, random_payload(rng)};
    b.send(1, c1);
    b.send(2, c2);
    b.inject(me);
    const Payload want = combine(op, me.pl, c1.pl, c2.pl);
    const Packet got = b.receive();
    EXPECT_EQ(got.hdr, h);
    EXPECT_EQ(got.pl, want) << "root reception, opcode " << op;
    b.run_until_sent(1, n);
    b.run_until_sent(2, n);
    EXPECT_EQ(b.sent_on(1).back().pl, want) << "down link 1, opcode " << op;
    EXPECT_EQ(b.sent_on(2).back().pl, want) << "down link 2, opcode " << op;
  }
  EXPECT_TRUE(b.sent_on(0).empty());
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST(COLLNET_TB_SUITE(CnAdapterRoot), AFullReceptionFifoBackPressuresAndLosesNothing) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, false, true);  // a leaf that only receives
  constexpr unsigned kPackets = kRcvPackets + kLinkPackets + 4;  // more than reception and the link hold
  std::vector<Packet> sent;
  for (unsigned i = 0; i < kPackets; ++i) {
    sent.push_back({header(cls(0), kOpOr, i), random_payload(rng)});
    b.send(0, sent.back());
  }
  b.run(link_cycles(kPackets));
  const uint64_t s = b.read(kRegStatus);
  EXPECT_EQ(get_field(s, kStatusRcvHdrLsb, kStatusRcvHdrW), kRcvPackets) << "reception holds its depth";
  EXPECT_FALSE(b.senders_idle()) << "the sender must be held back by credits";
  for (unsigned i = 0; i < kPackets; ++i) {
    const Packet got = b.receive();
    EXPECT_EQ(got.hdr, sent[i].hdr) << "packet " << i;
    EXPECT_EQ(got.pl, sent[i].pl) << "packet " << i;
  }
  EXPECT_EQ(b.errors(), 0u);
}

// ------------------------------------------------------------------ identity injection
TEST(COLLNET_TB_SUITE(CnAdapterIdentity), OneWriteInjectsKIdentityPacketsInOrderWithWrittenOnes) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(7), 0, 0b110, true, true);
  // Packet 0 written, packets 1..3 identity (one register write), packet 4 written.
  std::vector<unsigned> ops = {kOpAdd, kOpMin, kOpMin, kOpMin, kOpAnd};
  std::vector<Packet> mine(5), c1(5), c2(5);
  for (unsigned i = 0; i < 5; ++i) {
    const uint32_t h = header(cls(7), ops[i], i == 0 || i == 4 ? i : 1);
    mine[i] = {h, random_payload(rng)};
    c1[i] = {h, random_payload(rng)};
    c2[i] = {h, random_payload(rng)};
  }
  // With room for the three entries (packet 0, the identity entry, packet 4) they wait
  // together for the children; a smaller FIFO gets the children's packets first and takes
  // each entry once it has room.
  const bool room_for_all = kInjPackets >= 3;
  const auto send_children = [&] {
    for (unsigned i = 0; i < 5; ++i) {
      b.send(1, c1[i]);
      b.send(2, c2[i]);
    }
  };
  if (!room_for_all) send_children();
  b.inject(mine[0]);
  b.wait_for_room(0);
  b.write(kRegInjIdentity, (uint64_t{3} << kInjIdentityCountLsb) | mine[1].hdr);
  if (room_for_all)
    EXPECT_EQ(get_field(b.read(kRegStatus), kStatusInjHdrFreeLsb, kStatusInjHdrFreeW), kInjPackets - 2)
        << "packet 0 takes a slot, the three identity packets one between them";
  b.wait_for_room(kPayloadFlits);
  b.inject(mine[4]);
  if (room_for_all) send_children();
  b.run_until_sent(0, 5);
  for (unsigned i = 0; i < 5; ++i) {
    const bool identity = i >= 1 && i <= 3;
    const Payload local = identity ? identity_payload(ops[i]) : mine[i].pl;
    EXPECT_EQ(b.sent_on(0)[i].hdr, mine[i].hdr) << "packet " << i;
    EXPECT_EQ(b.sent_on(0)[i].pl, combine(ops[i], local, c1[i].pl, c2[i].pl)) << "packet " << i;
  }
  EXPECT_EQ(get_field(b.read(kRegStatus), kStatusInjDataFreeLsb, kStatusInjDataFreeW), kInjPackets * kPayloadFlits)
      << "no payload was written";
  EXPECT_EQ(b.errors(), 0u);
}

TEST(COLLNET_TB_SUITE(CnAdapterIdentity), ALeafGathersByOrWithoutWritingPayload) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, true, true);
  b.write(kRegInjIdentity, (uint64_t{40} << kInjIdentityCountLsb) | header(cls(0), kOpOr, 9));
  b.run_until_sent(0, 40, 50000);
  for (const Packet& p : b.sent_on(0)) EXPECT_EQ(p.pl, identity_payload(kOpOr));
  EXPECT_EQ(b.errors(), 0u);
}

// ------------------------------------------------------------------ vector accesses
Vector vector_at(const Payload& p, unsigned v) { return {p[4 * v], p[4 * v + 1], p[4 * v + 2], p[4 * v + 3]}; }

TEST(COLLNET_TB_SUITE(CnAdapterVector), EightVectorWritesCarryAPacketWordZeroFirst) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, true, true);  // leaf
  Packet p{header(cls(0), kOpAdd, 1), random_payload(rng)};
  b.write(kRegInjHdr, p.hdr);
  for (unsigned v = 0; v < kPayloadFlits / kVectorWords; ++v) b.write_vector(kRegInjVector, vector_at(p.pl, v));
  b.run_until_sent(0, 1);
  EXPECT_EQ(b.sent_on(0).back().hdr, p.hdr);
  EXPECT_EQ(b.sent_on(0).back().pl, p.pl);
  // Vector and single-word writes mix freely within a packet.
  Packet q{header(cls(0), kOpAdd, 2), random_payload(rng)};
  b.write(kRegInjHdr, q.hdr);
  unsigned i = 0;
  for (; i < 3; ++i) b.write(kRegInjData, q.pl[i]);
  for (; i + kVectorWords <= kPayloadFlits; i += kVectorWords)
    b.write_vector(kRegInjVector, {q.pl[i], q.pl[i + 1], q.pl[i + 2], q.pl[i + 3]});
  for (; i < kPayloadFlits; ++i) b.write(kRegInjData, q.pl[i]);
  b.run_until_sent(0, 2);
  EXPECT_EQ(b.sent_on(0).back().pl, q.pl);
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST(COLLNET_TB_SUITE(CnAdapterVector), EightVectorReadsTakeAPacketWordZeroInTheLowBits) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, false, true);  // a leaf that only receives
  Packet p{header(cls(0), kOpOr, 3), random_payload(rng)};
  b.send(0, p);
  b.run(100);
  ASSERT_EQ(b.rcv_data(), kPayloadFlits);
  EXPECT_EQ(static_cast<uint32_t>(b.read(kRegRcvHdr)), p.hdr);
  for (unsigned v = 0; v < kPayloadFlits / kVectorWords; ++v) {
    EXPECT_EQ(b.read_vector(kRegRcvVector), vector_at(p.pl, v)) << "vector " << v;
    EXPECT_EQ(b.rcv_data(), kPayloadFlits - kVectorWords * (v + 1)) << "a vector read pops four words";
  }
  // Mixed with single-word reads.
  Packet q{header(cls(0), kOpOr, 4), random_payload(rng)};
  b.send(0, q);
  b.run(100);
  EXPECT_EQ(static_cast<uint32_t>(b.read(kRegRcvHdr)), q.hdr);
  EXPECT_EQ(b.read(kRegRcvData), q.pl[0]);
  for (unsigned i = 1; i + kVectorWords <= kPayloadFlits; i += kVectorWords)
    EXPECT_EQ(b.read_vector(kRegRcvVector), (Vector{q.pl[i], q.pl[i + 1], q.pl[i + 2], q.pl[i + 3]})) << "word " << i;
  for (unsigned i = kPayloadFlits - 3; i < kPayloadFlits; ++i) EXPECT_EQ(b.read(kRegRcvData), q.pl[i]);
  EXPECT_EQ(b.rcv_data(), 0u);
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST(COLLNET_TB_SUITE(CnAdapterVector), AVectorWriteWithFewerThanFourFreeWordsIsRefusedWhole) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, true, true);
  // Payload without headers stays in the injection FIFO: fill it to 3 free words.
  constexpr unsigned kDepthWords = kInjPackets * kPayloadFlits;
  std::vector<uint64_t> want;
  for (unsigned i = 0; i + kVectorWords <= kDepthWords - 3; i += kVectorWords) {
    const Vector v{rng(), rng(), rng(), rng()};
    b.write_vector(kRegInjVector, v);
    want.insert(want.end(), v.begin(), v.end());
  }
  want.push_back(rng());
  b.write(kRegInjData, want.back());
  ASSERT_EQ(b.inj_data_free(), 3u);
  EXPECT_EQ(b.errors(), 0u);

  b.write_vector(kRegInjVector, {0xbad0, 0xbad1, 0xbad2, 0xbad3});
  EXPECT_EQ(b.errors(), 1u << kErrInjOverflow);
  EXPECT_EQ(b.inj_data_free(), 3u) << "a refused vector pushes nothing";
  b.write(kRegErrClear, ~0ull);
  for (unsigned i = 0; i < 3; ++i) {
    want.push_back(rng());
    b.write(kRegInjData, want.back());
  }
  EXPECT_EQ(b.inj_data_free(), 0u);
  EXPECT_EQ(b.errors(), 0u) << "the last three words fit one by one";

  // Headers release the payload: a FIFO's depth of packets, exactly the words written.
  for (unsigned p = 0; p < kInjPackets; ++p) b.write(kRegInjHdr, header(cls(0), kOpAdd, p));
  b.run_until_sent(0, kInjPackets, link_cycles(kInjPackets));
  for (unsigned p = 0; p < kInjPackets; ++p)
    for (unsigned i = 0; i < kPayloadFlits; ++i)
      ASSERT_EQ(b.sent_on(0)[p].pl[i], want[p * kPayloadFlits + i]) << "packet " << p << " word " << i;
  EXPECT_FALSE(b.assertion_failed());
}

TEST(COLLNET_TB_SUITE(CnAdapterVector), AVectorReadWithFewerThanFourWordsWaitingIsRefusedWhole) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, false, true);  // a leaf that only receives
  Packet p{header(cls(0), kOpOr, 5), random_payload(rng)};
  b.send(0, p, 0, 3);  // the header and three words, the rest later
  b.run(50);
  ASSERT_EQ(b.rcv_hdrs(), 1u);
  ASSERT_EQ(b.rcv_data(), 3u);
  EXPECT_EQ(static_cast<uint32_t>(b.read(kRegRcvHdr)), p.hdr);

  EXPECT_EQ(b.read_vector(kRegRcvVector), (Vector{0, 0, 0, 0}));
  EXPECT_EQ(b.errors(), 1u << kErrRcvUnderflow);
  EXPECT_EQ(b.rcv_data(), 3u) << "a refused vector pops nothing";
  b.write(kRegErrClear, ~0ull);

  b.send(0, p, 3, kPayloadFlits);
  b.run(100);
  ASSERT_EQ(b.rcv_data(), kPayloadFlits);
  for (unsigned v = 0; v < kPayloadFlits / kVectorWords; ++v)
    EXPECT_EQ(b.read_vector(kRegRcvVector), vector_at(p.pl, v)) << "vector " << v;
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

// ------------------------------------------------------------------ virtual channels
TEST(COLLNET_TB_SUITE(CnAdapterVc), EachVcHasItsOwnFifoStacks) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, false, true);  // receives only
  const Packet u{header(cls(0), kOpOr, 1), random_payload(rng)}, sy{header(cls(0), kOpOr, 2), random_payload(rng)};
  b.send(0, sy, kVcSystem);
  b.send(0, u, kVcUser);
  b.run(200);
  EXPECT_EQ(b.rcv_hdrs(kVcUser), 1u);
  EXPECT_EQ(b.rcv_hdrs(kVcSystem), 1u);
  const Packet got_u = b.receive(kVcUser), got_s = b.receive(kVcSystem);
  EXPECT_EQ(got_u.hdr, u.hdr);
  EXPECT_EQ(got_u.pl, u.pl);
  EXPECT_EQ(got_s.hdr, sy.hdr);
  EXPECT_EQ(got_s.pl, sy.pl);
  EXPECT_EQ(b.errors(), 0u);
}

// Both VCs combine the same class at once, with the two VCs' flits interleaved at random
// on every input link, random gaps, and receivers that return credits late on every link.
TEST(COLLNET_TB_SUITE(CnAdapterVc), BothVcsCombineIntactUnderRandomBackPressureOnEveryLink) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.set_send_gaps(30);
  b.set_credit_delay(80);
  b.route(cls(3), 0, 0b110, true, true);
  constexpr unsigned kPackets = 24;  // per VC
  std::array<std::vector<Payload>, kNumVcs> want;
  for (unsigned i = 0; i < kPackets; ++i) {
    for (unsigned vc = 0; vc < kNumVcs; ++vc) {
      const unsigned op = kOps[rng() % 6];
      const uint32_t h = header(cls(3), op, i + 100 * vc);
      Packet c1{h, random_payload(rng)}, c2{h, random_payload(rng)}, me{h, random_payload(rng)};
      b.send(1, c1, vc);
      b.send(2, c2, vc);
      b.wait_for_room(kPayloadFlits, vc, 20000);
      b.inject(me, vc);
      want[vc].push_back(combine(op, me.pl, c1.pl, c2.pl));
    }
  }
  b.run_until_sent(0, 2 * kPackets, 400000);
  for (unsigned vc = 0; vc < kNumVcs; ++vc) {
    const std::vector<Packet> got = b.sent_on(0, vc);
    ASSERT_EQ(got.size(), kPackets) << "VC " << vc;
    for (unsigned i = 0; i < kPackets; ++i) {
      EXPECT_EQ(fw::Header::decode(got[i].hdr).tag, i + 100 * vc) << "VC " << vc << " out of order";
      EXPECT_EQ(got[i].pl, want[vc][i]) << "VC " << vc << " packet " << i;
    }
  }
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST(COLLNET_TB_SUITE(CnAdapterVc), AVcWithoutCreditsDoesNotHoldTheOtherBack) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, true, true);  // leaf
  b.hold_credits(0, true, kVcUser);
  // The link's buffers' worth of packets, and more waiting behind them in the FIFO.
  constexpr unsigned kWaiting = std::min(2u, kInjPackets), kUser = kLinkPackets + kWaiting;
  for (unsigned i = 0; i < kUser; ++i) {
    b.wait_for_room(kPayloadFlits);
    b.inject({header(cls(0), kOpAdd, i), random_payload(rng)}, kVcUser);
  }
  b.run(link_cycles(kUser));
  EXPECT_EQ(b.sent_on(0, kVcUser).size(), kLinkPackets) << "the user VC stops when its credits run out";
  const Packet sys{header(cls(0), kOpMax, 50), random_payload(rng)};
  b.inject(sys, kVcSystem);
  b.run(200);
  ASSERT_EQ(b.sent_on(0, kVcSystem).size(), 1u) << "the system VC must pass a stalled user VC";
  EXPECT_EQ(b.sent_on(0, kVcSystem)[0].pl, sys.pl);
  b.hold_credits(0, false, kVcUser);
  b.run_until_sent(0, kUser + 1);
  EXPECT_EQ(b.sent_on(0, kVcUser).size(), kUser);
  EXPECT_EQ(b.errors(), 0u);
}

TEST(COLLNET_TB_SUITE(CnAdapterVc), AFullReceptionFifoOfOneVcDoesNotBlockTheOther) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, false, true);  // receives only
  for (unsigned i = 0; i < kRcvPackets + kLinkPackets; ++i) b.send(0, {header(cls(0), kOpOr, i), random_payload(rng)});
  b.run(link_cycles(kRcvPackets + kLinkPackets));
  EXPECT_EQ(b.rcv_hdrs(kVcUser), kRcvPackets);
  const Packet sys{header(cls(0), kOpOr, 77), random_payload(rng)};
  b.send(0, sys, kVcSystem);
  const Packet got = b.receive(kVcSystem);
  EXPECT_EQ(got.hdr, sys.hdr);
  EXPECT_EQ(got.pl, sys.pl);
  for (unsigned i = 0; i < kRcvPackets + kLinkPackets; ++i)
    EXPECT_EQ(fw::Header::decode(b.receive(kVcUser).hdr).tag, i) << "user packet lost or reordered";
  EXPECT_EQ(b.errors(), 0u);
}

// Two classes funnel into up link 0: the user VC's from child link 2, the system VC's
// from child link 1, each arriving at the full link rate. Link 0 can carry only one
// of them at a time; fair arbitration alternates packet by packet.
TEST(COLLNET_TB_SUITE(CnAdapterVc), TwoVcsShareALinkPacketByPacket) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(1), 0, 0b010, false, false);
  b.route(cls(2), 0, 0b100, false, false);
  constexpr unsigned kPackets = 30;  // per VC
  for (unsigned i = 0; i < kPackets; ++i) {
    b.send(1, {header(cls(1), kOpOr, i), random_payload(rng)}, kVcSystem);
    b.send(2, {header(cls(2), kOpOr, i), random_payload(rng)}, kVcUser);
  }
  b.run_until_sent(0, 2 * kPackets, 20000);
  const std::vector<Packet>& order = b.sent_on(0);
  unsigned longest_run = 0, run = 0, last = 2, in_first_half[kNumVcs] = {};
  for (size_t i = 0; i < order.size(); ++i) {
    run = order[i].vc == last ? run + 1 : 1;
    last = order[i].vc;
    longest_run = std::max(longest_run, run);
    if (i < kPackets) ++in_first_half[order[i].vc];
    EXPECT_EQ(fw::Header::decode(order[i].hdr).cls, order[i].vc == kVcUser ? cls(2) : cls(1)) << "packet on the wrong VC";
  }
  EXPECT_LE(longest_run, 1u) << "under contention the VCs must alternate";
  EXPECT_EQ(in_first_half[kVcUser], kPackets / 2);
  EXPECT_EQ(in_first_half[kVcSystem], kPackets / 2);
  // Alternating costs nothing: the link stays busy one flit per cycle.
  EXPECT_EQ(b.sent_on(0, kVcUser).size(), kPackets);
  EXPECT_EQ(b.sent_on(0, kVcSystem).size(), kPackets);
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_FALSE(b.assertion_failed());
}

TEST(COLLNET_TB_SUITE(CnAdapterVc), AHeaderErrorHaltsOnlyItsVcAndNamesIt) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0b110, true, true);
  const uint32_t h1 = header(cls(0), kOpAdd, 7), h2 = header(cls(0), kOpAdd, 8);
  b.send(1, {h1, random_payload(rng)}, kVcSystem);
  b.send(2, {h2, random_payload(rng)}, kVcSystem);
  b.inject({h1, random_payload(rng)}, kVcSystem);
  b.run(300);
  EXPECT_EQ(b.errors(), 1u << kErrHdrMismatch);
  EXPECT_EQ(b.read(kRegErrSource), (1u << kErrSourceVcBit) | 3u) << "link 2 on the system VC";
  EXPECT_TRUE(b.sent_on(0).empty());
  // The user VC keeps combining.
  const uint32_t h = header(cls(0), kOpXor, 9);
  Packet c1{h, random_payload(rng)}, c2{h, random_payload(rng)}, me{h, random_payload(rng)};
  b.send(1, c1);
  b.send(2, c2);
  b.inject(me);
  b.run_until_sent(0, 1);
  EXPECT_EQ(b.sent_on(0, kVcUser).at(0).pl, combine(kOpXor, me.pl, c1.pl, c2.pl));
  EXPECT_TRUE(b.sent_on(0, kVcSystem).empty());
}

TEST(COLLNET_TB_SUITE(CnAdapterVc), ACreditForAVcThatTookNoneIsALinkProtocolError) {
  AdapterBench b;
  b->link_out_credit_i = 1u << (2 * 1 + kVcSystem);  // link 1, system VC: all its credits are home
  b.tick();
  b->link_out_credit_i = 0;
  b.run(3);
  EXPECT_EQ(b.errors(), 1u << kErrLinkProto);
}

// ------------------------------------------------------------------ errors
TEST(COLLNET_TB_SUITE(CnAdapterErrors), ChildrenWithDifferentHeadersRaiseAnErrorAndDeliverNothing) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0b110, true, true);
  const uint32_t h1 = header(cls(0), kOpAdd, 7), h2 = header(cls(0), kOpAdd, 8);
  b.send(1, {h1, random_payload(rng)});
  b.send(2, {h2, random_payload(rng)});
  b.inject({h1, random_payload(rng)});
  b.run(300);
  EXPECT_TRUE(b.sent_on(0).empty()) << "a mismatched combine must not be delivered";
  EXPECT_EQ(b.errors(), 1u << kErrHdrMismatch);
  const uint64_t info = b.read(kRegErrInfo);
  EXPECT_EQ(static_cast<uint32_t>(info), h1) << "expected header";
  EXPECT_EQ(static_cast<uint32_t>(info >> 32), h2) << "offending header";
  EXPECT_EQ(b.read(kRegErrSource), 3u) << "source 3 = link 2";
}

TEST(COLLNET_TB_SUITE(CnAdapterErrors), ThePacketOfAClassThatDoesNotListTheLinkIsFlagged) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(6), 0, 0b010, true, true);  // only link 1 is a child
  b.send(2, {header(cls(6), kOpAdd, 1), random_payload(rng)});
  b.run(100);
  EXPECT_EQ(b.errors(), 1u << kErrBadRoute);
  EXPECT_EQ(b.read(kRegErrSource), 3u);
  EXPECT_TRUE(b.sent_on(0).empty());
}

TEST(COLLNET_TB_SUITE(CnAdapterErrors), TheReservedOpcodeIsFlaggedAndNotCombined) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, true, true);
  b.inject({header(cls(0), 7, 1), random_payload(rng)});
  b.run(100);
  EXPECT_EQ(b.errors(), 1u << kErrBadOpcode);
  EXPECT_TRUE(b.sent_on(0).empty());
}

TEST(COLLNET_TB_SUITE(CnAdapterErrors), AnOperandSizeTheAluCannotCutIsFlagged) {
  std::mt19937_64 rng(test_seed());
  AdapterBench b(rng());
  b.route(cls(0), 0, 0, true, true);
  const uint32_t h = header(cls(0), kOpAdd, 1, 3);  // 48-bit operands
  b.inject({h, random_payload(rng)});
  b.run(100);
  EXPECT_EQ(b.errors(), 1u << kErrBadSize);
  EXPECT_EQ(static_cast<uint32_t>(b.read(kRegErrInfo)), h);
  EXPECT_TRUE(b.sent_on(0).empty());
}

TEST(COLLNET_TB_SUITE(CnAdapterErrors), APayloadFlitOutsideAPacketIsALinkProtocolError) {
  AdapterBench b;
  b.route(cls(0), 0, 0b110, true, true);
  b->link_in_valid_i = 0b010;
  b->link_in_hdr_i = 0;
  b.tick();
  b->link_in_valid_i = 0;
  b.run(3);
  EXPECT_EQ(b.errors(), 1u << kErrLinkProto);
}

}  // namespace
}  // namespace collnet::tb
