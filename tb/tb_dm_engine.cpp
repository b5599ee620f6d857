// SPDX-License-Identifier: Apache-2.0
// dm_engine on its own: the torus DMA engine (docs/dma.md). The bench plays what surrounds
// it in a node: the router's injection and reception FIFOs, joined as a loopback (what the
// engine sends arrives back at it, one flit a cycle, as if sent to its own node; a test can
// cut the loop and look at the packets instead, or put packets of its own into the
// reception FIFO), and the node's memory behind the memory port, with a latency and a
// chance of granting a request that the tests choose. The bench is a fw::RegisterBus.
// Tests: the register table; the sizes; a put of every length around packet and row
// boundaries (the data, the packets' headers, DMA words and padding, the counters); the
// reception ring (whole packets, wrapping at its end, waiting for room, the event line);
// a remote get; descriptors and packets that break the rules; counters counted past zero;
// the memory latency hidden by reads in flight; the injection ring (descriptors read from
// memory, wrapping, its rules); and random traffic of all three kinds, queued by register
// or through the injection ring, against a model of the memory. Built with one FIFO each way (the default) and with
// TB_FIFOS (tb/CMakeLists.txt): each injection FIFO then loops back into the reception FIFO
// of the same number, and the engine must spread its packets over the injection FIFOs and
// take each packet whole from whichever reception FIFO holds one.
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "Vdm_engine.h"
#include "firmware/dma_descriptor.hpp"
#include "firmware/hardware_sizes.hpp"
#include "firmware/register_bus.hpp"
#include "firmware/regmap.hpp"
#include "firmware/torus_packet.hpp"
#include "tb/register_table_checks.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

using namespace fw::regmap;
using fw::DmaDescriptor;
using fw::DmaKind;
using fw::DmaWord;
using Vector = fw::RegisterBus::Vector;

#ifndef TB_FIFOS
#define TB_FIFOS 1
#endif
constexpr unsigned kFifos = TB_FIFOS;  // the engine's FIFOs each way (dm_engine Fifos)
constexpr unsigned kInjFlits = 128;  // each of the router's injection FIFOs (tr_pkg::TrInjFlits)
constexpr unsigned kRcvFlits = 256;  // each of its reception FIFOs
// Their free and held counts' widths (dm_engine InjFreeW, RcvCntW)
constexpr unsigned kInjCntW = fw::level_bits(kInjFlits), kRcvCntW = fw::level_bits(kRcvFlits);
// One test suite per build, so that the executables' tests have distinct CTest names.
#define DM_ENGINE COLLNET_TB_SUITE(DmEngine)
constexpr uint64_t bit(unsigned b) { return uint64_t{1} << b; }

// A word of memory never written: its address, marked.
constexpr uint64_t unwritten(uint64_t addr) { return 0x5eed000000000000ull ^ addr; }

class DmaBench : public ClockedHarness<Vdm_engine>, public BlockRegisterBus<DmaBench> {
 public:
  // The router's FIFOs: what the engine pushed and the router has not yet taken, and what
  // the router has delivered and the engine not yet taken (FIFO k loops back into
  // reception FIFO k). A test's own packets go into reception FIFO 0 (rcv).
  std::array<std::deque<uint64_t>, kFifos> injs, rcvs;
  std::deque<uint64_t>& rcv = rcvs[0];
  bool loopback = true;             // the router moves injected flits to reception
  unsigned drain_per_cycle = 1;     // flits a cycle it moves from each FIFO (a link's rate)
  int free_override = -1;           // a free count the router reports instead of the true one
  // The flits the router took from each injection FIFO, in order, and each packet's header
  // as (cycle, FIFO, index in that FIFO's flits).
  std::array<std::vector<uint64_t>, kFifos> sent;
  std::vector<std::tuple<uint64_t, unsigned, size_t>> headers;
  // Memory: written words, and the port's behaviour.
  std::map<uint64_t, uint64_t> mem;
  unsigned latency = 1;             // cycles from a read's grant to its data (at least 1)
  double grant_chance = 1.0;        // of granting a request in a cycle
  std::mt19937_64 rng{1};
  std::vector<std::pair<uint64_t, unsigned>> writes;  // (address, words) of each write granted
  uint64_t reads = 0;                                 // read requests granted
  uint64_t both = 0;                                  // cycles a read and a write were both granted

  DmaBench() { offer(); }

  uint64_t peek(uint64_t addr) const {
    const auto it = mem.find(addr);
    return it == mem.end() ? unwritten(addr) : it->second;
  }
  void fill(uint64_t addr, const std::vector<uint64_t>& words) {
    for (size_t i = 0; i < words.size(); ++i) mem[addr + 8 * i] = words[i];
  }
  std::vector<uint64_t> words_at(uint64_t addr, size_t n) const {
    std::vector<uint64_t> v;
    for (size_t i = 0; i < n; ++i) v.push_back(peek(addr + 8 * i));
    return v;
  }

  // ---------------------------------------------------------------- one cycle
  void step() {
    auto& m = model();
    offer();
    eval();
    // The read and the write side of the port are granted apart, each at grant_chance.
    const auto granted = [&](bool req) {
      return req && (grant_chance >= 1.0 || std::uniform_real_distribution<>(0, 1)(rng) < grant_chance);
    };
    const bool rd_grant = granted(m.mem_rd_req_o), wr_grant = granted(m.mem_wr_req_o);
    m.mem_rd_gnt_i = rd_grant;
    m.mem_wr_gnt_i = wr_grant;
    eval();
    // What the edge takes.
    const unsigned push = m.inj_push_o, pop = m.rcv_pop_o;
    const bool rvalid = m.mem_rd_valid_i;
    const unsigned push_n = m.inj_n_o, pop_n = m.rcv_n_o, rd_n = m.mem_rd_n_o, wr_n = m.mem_wr_n_o;
    const uint64_t rd_addr = m.mem_rd_addr_o, wr_addr = m.mem_wr_addr_o;
    std::array<uint64_t, 4> pushed{}, wdata{};
    for (unsigned j = 0; j < 4; ++j) {
      pushed[j] = wide_bits(m.inj_data_o.data(), 64 * j, 64);
      wdata[j] = wide_bits(m.mem_wr_data_o.data(), 64 * j, 64);
    }
    tick();
    m.mem_rd_gnt_i = 0;
    m.mem_wr_gnt_i = 0;
    EXPECT_LE(__builtin_popcount(push), 1) << "pushes into two injection FIFOs at once";
    EXPECT_LE(__builtin_popcount(pop), 1) << "pops from two reception FIFOs at once";
    for (unsigned k = 0; k < kFifos; ++k) {
      if (push >> k & 1) {
        EXPECT_GE(push_n, 1u);
        EXPECT_LE(push_n, 4u);
        EXPECT_LE(injs[k].size() + push_n, kInjFlits) << "a push into a full injection FIFO " << k;
        for (unsigned j = 0; j < push_n; ++j) injs[k].push_back(pushed[j]);
      }
      if (pop >> k & 1) {
        EXPECT_LE(pop_n, rcvs[k].size()) << "a pop of more flits than reception FIFO " << k << " holds";
        for (unsigned j = 0; j < pop_n && !rcvs[k].empty(); ++j) rcvs[k].pop_front();
      }
    }
    if (rvalid) responses.pop_front();
    for (const auto& [gnt, n, addr] : {std::tuple{rd_grant, rd_n, rd_addr}, std::tuple{wr_grant, wr_n, wr_addr}}) {
      if (!gnt) continue;
      EXPECT_GE(n, 1u);
      EXPECT_LE(n, 4u);
      EXPECT_EQ(addr % 8, 0u) << "a memory request at a byte address that is not a word's";
    }
    // A cycle's read reads memory before its write (the engine never reads what it is
    // writing in the same cycle: the two sides move different transfers' words).
    if (rd_grant) {
      Response r;
      for (unsigned j = 0; j < 4; ++j) r.data[j] = j < rd_n ? peek(rd_addr + 8 * j) : 0xdeadbeefdeadbeefull;
      r.due = std::max(cycles() - 1 + latency, responses.empty() ? 0 : responses.back().due + 1);
      responses.push_back(r);
      ++reads;
    }
    if (wr_grant) {
      for (unsigned j = 0; j < wr_n; ++j) mem[wr_addr + 8 * j] = wdata[j];
      writes.emplace_back(wr_addr, wr_n);
    }
    both += rd_grant && wr_grant;
    for (unsigned k = 0; k < kFifos; ++k) {
      auto& in = injs[k];
      for (unsigned j = 0; j < drain_per_cycle && !in.empty(); ++j) {
        if (loopback && rcvs[k].size() >= kRcvFlits) break;
        if (owed_[k] == 0) {
          headers.emplace_back(cycles(), k, sent[k].size());
          owed_[k] = 1 + 4 * fw::TorusHeader::decode(in.front()).chunks;
        }
        --owed_[k];
        sent[k].push_back(in.front());
        if (loopback) rcvs[k].push_back(in.front());
        in.pop_front();
      }
    }
  }
  bool nothing_injected() const {
    return std::all_of(injs.begin(), injs.end(), [](const auto& q) { return q.empty(); });
  }
  bool nothing_sent() const { return headers.empty(); }
  bool fifos_empty() const {
    return nothing_injected() && std::all_of(rcvs.begin(), rcvs.end(), [](const auto& q) { return q.empty(); });
  }
  // One cycle with the memory port's inputs as given, whatever the engine asked for.
  void raw_memory_cycle(bool rd_gnt, bool wr_gnt, bool rvalid) {
    auto& m = model();
    m.mem_rd_gnt_i = rd_gnt;
    m.mem_wr_gnt_i = wr_gnt;
    m.mem_rd_valid_i = rvalid;
    tick();
    m.mem_rd_gnt_i = 0;
    m.mem_wr_gnt_i = 0;
    m.mem_rd_valid_i = 0;
  }
  void run(unsigned cycles) {
    for (unsigned i = 0; i < cycles; ++i) step();
  }
  // Runs until `done` holds (checked every cycle), at most `limit` cycles; false if it never did.
  template <class Done>
  bool run_until(Done done, unsigned limit = 200000) {
    for (unsigned i = 0; i < limit; ++i) {
      if (done()) return true;
      step();
    }
    return done();
  }
  bool idle() {
    const uint64_t s = read(kRegDmStatus);
    return !(s & bit(kDmStatusInjBusyBit)) && !(s & bit(kDmStatusRcvBusyBit)) && fifos_empty() &&
           responses.empty() && get_field(s, kDmStatusDescFreeLsb, kDmStatusDescFreeW) == kDmDescSlots;
  }
  bool settle(unsigned limit = 200000) {
    return run_until([&] { return fifos_empty() && responses.empty() && idle(); }, limit);
  }

  // ---------------------------------------------------------------- the register bus
  // BlockRegisterBus (tb_harness.hpp): each access one step() of this bench.
  void post(const DmaDescriptor& d) {
    const auto w = d.encode();
    write_vector(kRegDmDesc, {w[0], w[1], w[2], w[3]});
  }
  void counter(unsigned k, uint64_t base, uint32_t count) {
    write(reg_dm_ctr_base(k), base);
    write(reg_dm_ctr_count(k), count);
  }
  uint64_t count(unsigned k) { return read(reg_dm_ctr_count(k)); }
  // The injection ring (RegDmIf*): `slots` descriptors from `start`.
  void ring(uint64_t start, unsigned slots) {
    ring_start_ = start;
    ring_end_ = start + kSlot * slots;
    ring_tail_ = start;
    write(kRegDmIfStart, start);
    write(kRegDmIfEnd, ring_end_);
  }
  // Writes a descriptor's words into the ring's next slot, once the engine has read what
  // was there (one slot always stays empty, so a full ring and an empty one differ), and
  // moves the tail past it. False if the engine never made room.
  bool post_ring(const std::array<uint64_t, 4>& w) {
    const uint64_t next = ring_tail_ + kSlot == ring_end_ ? ring_start_ : ring_tail_ + kSlot;
    if (!run_until([&] { return read(kRegDmIfHead) != next; })) return false;
    fill(ring_tail_, {w[0], w[1], w[2], w[3]});
    ring_tail_ = next;
    write(kRegDmIfTail, ring_tail_);
    return true;
  }
  bool post_ring(const DmaDescriptor& d) {
    const auto w = d.encode();
    return post_ring({w[0], w[1], w[2], w[3]});
  }
  static constexpr uint64_t kSlot = 8 * kDmDescWords;  // a descriptor's bytes
  uint64_t errors() { return read(kRegDmErr); }
  uint64_t zero() { return read(kRegDmZero); }

 private:
  struct Response {
    std::array<uint64_t, 4> data{};
    uint64_t due = 0;  // the cycle whose edge takes it
  };
  std::deque<Response> responses;
  uint64_t ring_start_ = 0, ring_end_ = 0, ring_tail_ = 0;
  std::array<unsigned, kFifos> owed_{};  // flits of the packet each injection FIFO is sending

  void offer() {
    auto& m = model();
    uint64_t free = 0, count = 0;
    for (unsigned k = 0; k < kFifos; ++k) {
      free |= uint64_t{free_override >= 0 ? unsigned(free_override) : kInjFlits - unsigned(injs[k].size())} << (kInjCntW * k);
      count |= uint64_t{rcvs[k].size()} << (kRcvCntW * k);
      for (unsigned j = 0; j < 4; ++j)
        set_wide_bits(m.rcv_data_i.data(), 256 * k + 64 * j, 64, j < rcvs[k].size() ? rcvs[k][j] : 0);
    }
    m.inj_free_i = static_cast<std::remove_reference_t<decltype(m.inj_free_i)>>(free);
    m.rcv_count_i = static_cast<std::remove_reference_t<decltype(m.rcv_count_i)>>(count);
    const bool due = !responses.empty() && responses.front().due <= cycles();
    m.mem_rd_valid_i = due;
    for (unsigned j = 0; j < 4; ++j) set_wide_bits(m.mem_rd_data_i.data(), 64 * j, 64, due ? responses.front().data[j] : 0);
  }
};

// The packets in a flit stream: header, then 4 flits per chunk.
struct Packet {
  fw::TorusHeader hdr;
  DmaWord word;
  std::vector<uint64_t> payload;  // every flit after the header
  unsigned fifo = 0;              // the injection FIFO it went through
};
std::vector<Packet> packets_of(const std::vector<uint64_t>& flits) {
  std::vector<Packet> out;
  size_t i = 0;
  while (i < flits.size()) {
    Packet p;
    p.hdr = fw::TorusHeader::decode(flits[i]);
    const size_t n = 4 * p.hdr.chunks;
    EXPECT_LE(i + 1 + n, flits.size()) << "a packet cut short";
    for (size_t j = 0; j < n && i + 1 + j < flits.size(); ++j) p.payload.push_back(flits[i + 1 + j]);
    p.word = DmaWord::decode(p.payload.empty() ? 0 : p.payload[0]);
    out.push_back(p);
    i += 1 + n;
  }
  return out;
}

// Every packet the router took, in the order their headers left the injection FIFOs
// (FIFO order within a cycle).
std::vector<Packet> sent_packets(const DmaBench& b) {
  std::array<std::vector<Packet>, kFifos> per;
  for (unsigned k = 0; k < kFifos; ++k) per[k] = packets_of(b.sent[k]);
  std::array<size_t, kFifos> next{};
  std::vector<Packet> out;
  for (const auto& [cycle, k, index] : b.headers) {
    (void)cycle;
    (void)index;
    if (next[k] >= per[k].size()) continue;
    out.push_back(per[k][next[k]++]);
    out.back().fifo = k;
  }
  return out;
}

std::vector<uint64_t> pattern(size_t n, uint64_t seed) {
  std::vector<uint64_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (seed << 32) ^ (0x9e3779b97f4a7c15ull * (i + 1));
  return v;
}

DmaDescriptor put(uint64_t from, uint32_t words, unsigned local, unsigned remote, uint64_t offset = 0) {
  DmaDescriptor d;
  d.dst = {1, 2, 3};
  d.kind = DmaKind::Put;
  d.addr = from;
  d.words = words;
  d.local_counter = local;
  d.remote_counter = remote;
  d.offset = offset;
  return d;
}

// A remote get as it arrives from the torus, asking the engine to run `d`: its header, its
// DMA word and `d`'s four words, the last chunk padded with zeros.
void receive_remote_get(DmaBench& b, const DmaDescriptor& d) {
  const auto w = d.encode();
  fw::TorusHeader h;
  h.chunks = 2;
  for (uint64_t f : {h.encode(), DmaWord{kDmKindGet, 4, 0, 0}.encode(), w[0], w[1], w[2], w[3], uint64_t{0},
                     uint64_t{0}, uint64_t{0}})
    b.rcv.push_back(f);
}

TEST(DM_ENGINE, RegisterTable) {
  DmaBench b;
  RegisterTableChecks checks(b, register_rows(in_win_dma));
  EXPECT_FALSE(checks.rows().empty());
  for (const std::string& f : checks.all()) ADD_FAILURE() << f;
  EXPECT_TRUE(b.nothing_injected()) << "a refused access sent something";
}

TEST(DM_ENGINE, SizesAsBuilt) {
  DmaBench b;
  const uint64_t s = b.read(kRegDmSizes);
  EXPECT_EQ(get_field(s, kDmSizesDescSlotsLsb, kDmSizesDescSlotsW), kDmDescSlots);
  EXPECT_EQ(get_field(s, kDmSizesGetSlotsLsb, kDmSizesGetSlotsW), kDmGetSlots);
  EXPECT_EQ(get_field(s, kDmSizesRowSlotsLsb, kDmSizesRowSlotsW), kDmRowSlots);
  EXPECT_EQ(get_field(s, kDmSizesCountersLsb, kDmSizesCountersW), kDmCounters);
}

// The read-write registers keep every bit of their fields and nothing else: ones and zeros
// in turn, read back masked (addresses to whole words and 48 bits, counts to 32 bits).
TEST(DM_ENGINE, ReadWriteRegistersKeepTheirFieldsBits) {
  DmaBench b;
  const uint64_t addr_mask = field_mask(kDmAddrW) & ~uint64_t{7};
  const uint64_t event_mask = field_mask(kDmCounters) | bit(kDmEventMemFifoBit);
  for (uint64_t v : {~uint64_t{0}, uint64_t{0}, uint64_t{0xa5a5a5a5a5a5a5a5ull}, uint64_t{0x5a5a5a5a5a5a5a5aull}, uint64_t{0}}) {
    for (unsigned k = 0; k < kDmCounters; ++k) {
      b.write(reg_dm_ctr_base(k), v ^ k);
      b.write(reg_dm_ctr_count(k), v ^ k);
    }
    for (unsigned k = 0; k < kDmCounters; ++k) {
      EXPECT_EQ(b.read(reg_dm_ctr_base(k)), (v ^ k) & addr_mask) << "counter " << k;
      EXPECT_EQ(b.read(reg_dm_ctr_count(k)), (v ^ k) & field_mask(kDmCountW)) << "counter " << k;
    }
    b.write(kRegDmEventEn, v);
    EXPECT_EQ(b.read(kRegDmEventEn), v & event_mask);
    b.write(kRegDmMfStart, v);
    b.write(kRegDmMfEnd, ~v);
    b.write(kRegDmMfHead, v ^ 0xff8);
    EXPECT_EQ(b.read(kRegDmMfStart), v & addr_mask);
    EXPECT_EQ(b.read(kRegDmMfEnd), ~v & addr_mask);
    EXPECT_EQ(b.read(kRegDmMfHead), (v ^ 0xff8) & addr_mask);
    EXPECT_EQ(b.read(kRegDmMfTail), v & addr_mask) << "the tail follows the start a cycle after it is written";
  }
  EXPECT_EQ(b.errors(), 0u);
}

// A put of n words from one region to another, for every n around the packet (31 data
// words) and row (3, then 4 words) boundaries: the data arrives, nothing else is written,
// both counters reach zero, and the packets are the fewest that hold it, each well formed.
TEST(DM_ENGINE, PutOfEveryLengthArrivesWhole) {
  for (uint32_t n : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 30u, 31u, 32u, 33u, 34u, 61u, 62u, 63u, 100u, 1000u}) {
    SCOPED_TRACE("words " + std::to_string(n));
    DmaBench b;
    const uint64_t src = 0x10000, dst = 0x80000, off = 0x40;
    const auto data = pattern(n, n);
    b.fill(src, data);
    b.counter(0, 0, n);      // local: words to go
    b.counter(1, dst, n);    // remote: words to come, written at dst + offset
    DmaDescriptor d = put(src, n, 0, 1, off);
    d.deterministic = true;
    b.post(d);
    ASSERT_TRUE(b.run_until([&] { return b.zero() == 0b11; })) << "the counters did not reach zero";
    ASSERT_TRUE(b.settle());
    EXPECT_EQ(b.words_at(dst + off, n), data);
    EXPECT_EQ(b.peek(dst + off - 8), unwritten(dst + off - 8));
    EXPECT_EQ(b.peek(dst + off + 8 * n), unwritten(dst + off + 8 * n));
    for (const auto& [a, k] : b.writes) {
      EXPECT_GE(a, dst + off);
      EXPECT_LE(a + 8 * k, dst + off + 8 * n);
    }
    EXPECT_EQ(b.count(0), 0u);
    EXPECT_EQ(b.count(1), 0u);
    EXPECT_EQ(b.errors(), 0u);
    const auto pk = sent_packets(b);
    ASSERT_EQ(pk.size(), (n + kDmMaxWords - 1) / kDmMaxWords);
    uint32_t words = 0;
    for (const Packet& p : pk) {
      EXPECT_EQ(p.fifo, (&p - pk.data()) % kFifos) << "the injection FIFOs in turn";
      EXPECT_EQ(p.hdr.dst, (std::array<unsigned, 3>{1, 2, 3}));
      EXPECT_EQ(p.hdr.sw_tag, kDmSwTag);
      EXPECT_TRUE(p.hdr.deterministic);
      EXPECT_FALSE(p.hdr.priority);
      EXPECT_FALSE(p.hdr.deposit);
      EXPECT_EQ(p.word.kind, kDmKindPut);
      EXPECT_EQ(p.word.counter, 1u);
      EXPECT_EQ(p.word.offset, off + 8 * words);
      EXPECT_EQ(p.word.words, std::min<uint32_t>(n - words, kDmMaxWords));
      EXPECT_EQ(p.hdr.chunks, fw::chunks_for(p.word.words)) << "not the fewest chunks";
      for (unsigned j = 0; j < p.word.words; ++j) EXPECT_EQ(p.payload[1 + j], data[words + j]);
      for (size_t j = 1 + p.word.words; j < p.payload.size(); ++j) EXPECT_EQ(p.payload[j], 0u) << "padding";
      words += p.word.words;
    }
  }
}

#if TB_FIFOS > 1
// With several reception FIFOs the engine takes a packet only once all of it is in its
// FIFO, whichever FIFO that is: a packet still arriving in FIFO 0 waits while whole ones
// in the others are written, and is written once its last flit is there.
TEST(DM_ENGINE, WholePacketsAreTakenFromWhicheverFifoHoldsOne) {
  DmaBench b;
  const auto data = pattern(31 * kFifos, 5);
  b.counter(1, 0x80000, 31 * kFifos);
  // Packet k of a put at offset 8*31*k, as a sending engine would make it.
  std::vector<std::vector<uint64_t>> pk;
  for (unsigned k = 0; k < kFifos; ++k) {
    std::vector<uint64_t> flits = {[&] {
      fw::TorusHeader h;
      h.dst = {0, 0, 0};
      h.chunks = 8;
      h.sw_tag = kDmSwTag;
      return h.encode();
    }(), DmaWord{kDmKindPut, 31, 1, 8 * 31 * k}.encode()};
    for (unsigned j = 0; j < 31; ++j) flits.push_back(data[31 * k + j]);
    pk.push_back(flits);
  }
  // FIFO 0 holds all but the last flit of packet 0; the others hold theirs whole.
  for (size_t j = 0; j + 1 < pk[0].size(); ++j) b.rcvs[0].push_back(pk[0][j]);
  for (unsigned k = 1; k < kFifos; ++k)
    for (uint64_t f : pk[k]) b.rcvs[k].push_back(f);
  ASSERT_TRUE(b.run_until([&] { return b.count(1) == 31; }, 2000)) << "the whole packets were not written";
  EXPECT_EQ(b.rcvs[0].size(), pk[0].size() - 1) << "a packet was taken before all of it was there";
  b.rcvs[0].push_back(pk[0].back());
  ASSERT_TRUE(b.run_until([&] { return b.zero() == 0b10; }, 2000));
  EXPECT_EQ(b.words_at(0x80000, 31 * kFifos), data);
  EXPECT_EQ(b.errors(), 0u);
}
#endif

// The ring takes whole packets, header and padding too, wraps at its end in the middle of
// a packet, moves its tail only past whole packets, waits for software to make room, and
// raises the event line while it holds a packet.
TEST(DM_ENGINE, MemoryFifoPacketsFillTheRing) {
  DmaBench b;
  const uint64_t src = 0x2000, ring = 0x100000;
  const uint32_t n = 40;  // two packets: 31 words (8 chunks, 33 flits) and 9 words (3 chunks, 13 flits)
  const auto data = pattern(n, 7);
  b.fill(src, data);
  // 40 words: the first packet (33) fits, the second (13) does not beside it (one word
  // always stays free), and once software has taken the first it wraps at the ring's end.
  const uint64_t ring_words = 40;
  b.write(kRegDmMfStart, ring);
  b.write(kRegDmMfEnd, ring + 8 * ring_words);
  b.write(kRegDmEventEn, bit(kDmEventMemFifoBit));
  EXPECT_EQ(b.read(kRegDmMfHead), ring);
  EXPECT_EQ(b.read(kRegDmMfTail), ring);
  EXPECT_FALSE(b->event_o);
  b.counter(0, 0, n);
  // The two packets as two descriptors, the second once the first is in the ring: with
  // several FIFOs the engine may take the packets of one descriptor in either order.
  DmaDescriptor d = put(src, 31, 0, 3, 0x18);
  d.kind = DmaKind::MemFifo;
  b.post(d);
  // The first packet arrives; the second waits for room.
  ASSERT_TRUE(b.run_until([&] { return b.read(kRegDmMfTail) == ring + 8 * 33; }));
  DmaDescriptor d2 = d;
  d2.addr = src + 8 * 31;
  d2.words = n - 31;
  d2.offset = 0x18 + 8 * 31;
  b.post(d2);
  b.run(300);
  EXPECT_EQ(b.read(kRegDmMfTail), ring + 8 * 33) << "a packet written without room for it";
  EXPECT_TRUE(b->event_o);
  EXPECT_EQ(b.zero(), 1u) << "the local counter counts words sent, whatever their kind";
  const auto first = packets_of(b.words_at(ring, 33));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].word.kind, kDmKindMemFifo);
  EXPECT_EQ(first[0].word.words, 31u);
  EXPECT_EQ(first[0].word.counter, 3u);
  EXPECT_EQ(first[0].word.offset, 0x18u);
  EXPECT_EQ(std::vector<uint64_t>(first[0].payload.begin() + 1, first[0].payload.end()),
            std::vector<uint64_t>(data.begin(), data.begin() + 31));
  // Software takes the first packet; the second goes in, wrapping at the ring's end.
  b.write(kRegDmMfHead, ring + 8 * 33);
  ASSERT_TRUE(b.run_until([&] { return b.read(kRegDmMfTail) == ring + 8 * (33 + 13 - ring_words); }));
  std::vector<uint64_t> second;
  for (uint64_t i = 0; i < 13; ++i) second.push_back(b.peek(ring + 8 * ((33 + i) % ring_words)));
  const auto p2 = packets_of(second);
  ASSERT_EQ(p2.size(), 1u);
  EXPECT_EQ(p2[0].word.words, 9u);
  EXPECT_EQ(p2[0].word.offset, 0x18u + 8 * 31);
  for (unsigned j = 0; j < 9; ++j) EXPECT_EQ(p2[0].payload[1 + j], data[31 + j]);
  for (const auto& [a, k] : b.writes) {
    EXPECT_GE(a, ring);
    EXPECT_LE(a + 8 * k, ring + 8 * ring_words) << "a write past the ring's end";
  }
  b.write(kRegDmMfHead, b.read(kRegDmMfTail));
  b.run(2);
  EXPECT_FALSE(b->event_o) << "the event line with the ring empty";
  EXPECT_EQ(b.errors(), 0u);
  // A ring too small for a packet drops it and says so.
  b.write(kRegDmMfEnd, ring + 8 * 16);
  b.counter(0, 0, 31);
  d.words = 31;
  b.post(d);
  ASSERT_TRUE(b.settle());
  EXPECT_EQ(b.errors(), bit(kDmErrMemFifo));
  EXPECT_EQ(b.read(kRegDmMfTail), ring);
}

// A remote get: the packet's words are a descriptor that the destination's engine runs
// (here the same engine: the loopback), sending the region it names back as a put.
TEST(DM_ENGINE, RemoteGetRunsTheDescriptorItCarries) {
  DmaBench b;
  const uint64_t region = 0x30000, dst = 0x90000, desc_at = 0x7000;
  const uint32_t n = 77;
  const auto data = pattern(n, 3);
  b.fill(region, data);
  const auto inner = put(region, n, 2, 4).encode();
  b.fill(desc_at, {inner[0], inner[1], inner[2], inner[3]});
  b.counter(1, 0, 4);     // the get's own packet: 4 words to go
  b.counter(2, 0, n);     // the inner put's words to go
  b.counter(4, dst, n);   // its words to come
  DmaDescriptor g;
  g.kind = DmaKind::Get;
  g.addr = desc_at;
  g.words = 4;
  g.local_counter = 1;
  b.post(g);
  ASSERT_TRUE(b.run_until([&] { return b.zero() == (bit(1) | bit(2) | bit(4)); }));
  ASSERT_TRUE(b.settle());
  EXPECT_EQ(b.words_at(dst, n), data);
  EXPECT_EQ(b.errors(), 0u);
  const auto pk = sent_packets(b);
  ASSERT_GE(pk.size(), 2u);
  EXPECT_EQ(pk[0].word.kind, kDmKindGet);
  EXPECT_EQ(pk[0].word.words, 4u);
  EXPECT_EQ(pk[1].word.kind, kDmKindPut);
}

// Remote gets that find their queue full wait in the reception FIFO, holding back what
// comes behind them; none is lost.
TEST(DM_ENGINE, RemoteGetsWaitForRoomInTheirQueue) {
  DmaBench b;
  b.loopback = false;
  b.drain_per_cycle = 0;  // the router takes nothing: the injection side stalls
  b.counter(0, 0, 100000);
  b.fill(0x1000, pattern(31, 5));
  // Each injection FIFO takes three of the puts they carry (33 flits each), the injection
  // side holds one more, the queue GetSlots more: the rest must wait.
  const unsigned gets = 3 * kFifos + 1 + kDmGetSlots + 4;
  for (unsigned k = 0; k < gets; ++k) receive_remote_get(b, put(0x1000, 31, 0, 1));
  b.run(500);
  EXPECT_EQ(get_field(b.read(kRegDmStatus), kDmStatusGetsLsb, kDmStatusGetsW), kDmGetSlots);
  EXPECT_FALSE(b.rcv.empty()) << "remote gets taken with their queue full";
  b.drain_per_cycle = 1;
  ASSERT_TRUE(b.settle());
  EXPECT_EQ(sent_packets(b).size(), gets) << "a remote get lost";
  EXPECT_EQ(b.errors(), 0u);
}

// The two queues take turns: a remote get's descriptor runs beside the descriptor in hand,
// not after everything software has queued.
TEST(DM_ENGINE, RemoteGetsTakeTurnsWithSoftwaresDescriptors) {
  DmaBench b;
  const uint32_t n = 200;
  b.fill(0x10000, pattern(n, 1));
  const auto inner = put(0x10000, 8, 0, 9).encode();
  b.fill(0x7000, {inner[0], inner[1], inner[2], inner[3]});
  b.counter(0, 0, 100000);
  for (unsigned k = 1; k <= 4; ++k) b.counter(k, 0x100000 * k, n);
  b.counter(9, 0x900000, 8);
  b.post(put(0x10000, n, 0, 1));
  DmaDescriptor g;
  g.kind = DmaKind::Get;
  g.addr = 0x7000;
  g.words = 4;
  b.post(g);
  for (unsigned k = 2; k <= 4; ++k) b.post(put(0x10000, n, 0, k));
  ASSERT_TRUE(b.run_until([&] { return b.zero() == 0x21e; }));
  // The packets in the order sent: software's first put, its get (both queued before the
  // get's descriptor came back), then the inner put before the last of software's.
  std::vector<unsigned> order;
  for (const Packet& p : sent_packets(b))
    if (order.empty() || order.back() != p.word.counter) order.push_back(p.word.counter);
  const auto at = [&](unsigned c) { return std::find(order.begin(), order.end(), c) - order.begin(); };
  EXPECT_LT(at(9), at(4)) << "the remote get's descriptor waited for all of software's";
}

// The two queues take turns a packet at a time: a short descriptor software queues while
// the engine answers another node's long remote get goes out after the packet in hand,
// not after the whole region (a receiver's get would otherwise wait for the put it serves).
TEST(DM_ENGINE, AShortDescriptorGoesOutBetweenALongOnesPackets) {
  DmaBench b;
  b.loopback = false;
  const uint32_t n = 13 * kDmMaxWords;
  b.fill(0x10000, pattern(n, 1));
  b.fill(0x20000, pattern(8, 2));
  b.counter(0, 0, 100000);
  receive_remote_get(b, put(0x10000, n, 0, 1));  // another node's get of the long region
  ASSERT_TRUE(b.run_until([&] { return !b.headers.empty(); })) << "the remote get's put never started";
  b.post(put(0x20000, 8, 0, 9));
  ASSERT_TRUE(b.settle());
  const auto pk = sent_packets(b);
  ASSERT_EQ(pk.size(), 14u);
  const auto nine = std::find_if(pk.begin(), pk.end(), [](const Packet& p) { return p.word.counter == 9; });
  ASSERT_NE(nine, pk.end()) << "software's put was not sent";
  const auto before = std::count_if(pk.begin(), nine, [](const Packet& p) { return p.word.counter == 1; });
  EXPECT_LE(before, 3) << "software's put waited for " << before << " of the long put's 13 packets";
  EXPECT_EQ(b.errors(), 0u);
}

// Each rule a descriptor can break: refused whole, nothing sent, the queue untouched.
TEST(DM_ENGINE, ADescriptorThatBreaksARuleIsRefused) {
  const auto good = put(0x1000, 8, 0, 1).encode();
  std::vector<std::pair<std::string, Vector>> bad;
  auto with = [&](unsigned word, uint64_t v) {
    Vector x{good[0], good[1], good[2], good[3]};
    x[word] = v;
    return x;
  };
  bad.emplace_back("kind 3", with(0, set_field(good[0], kDmDescKindLsb, kDmDescKindW, 3)));
  bad.emplace_back("an unused bit of word 0", with(0, good[0] | bit(63)));
  bad.emplace_back("no words", with(kDmDescWordsWord, 0));
  bad.emplace_back("words above 32 bits", with(kDmDescWordsWord, bit(40) | 8));
  bad.emplace_back("a misaligned address", with(kDmDescAddrWord, 0x1004));
  bad.emplace_back("an address above 48 bits", with(kDmDescAddrWord, bit(50)));
  bad.emplace_back("a misaligned offset", with(kDmDescOffsetWord, 3));
  Vector part_get = with(0, set_field(good[0], kDmDescKindLsb, kDmDescKindW, kDmKindGet));
  part_get[kDmDescWordsWord] = 6;
  bad.emplace_back("a remote get of part of a descriptor", part_get);
  for (const auto& [what, v] : bad) {
    SCOPED_TRACE(what);
    DmaBench b;
    b.write_vector(kRegDmDesc, v);
    EXPECT_EQ(b.errors(), bit(kDmErrBadDesc));
    EXPECT_EQ(get_field(b.read(kRegDmStatus), kDmStatusDescFreeLsb, kDmStatusDescFreeW), kDmDescSlots);
    b.run(50);
    EXPECT_TRUE(b.nothing_sent());
  }
  // The encoder refuses the same, naming the field.
  DmaDescriptor d = put(0x1004, 8, 0, 1);
  EXPECT_THROW(d.encode(), std::invalid_argument);
  d = put(0x1000, 6, 0, 1);
  d.kind = DmaKind::Get;
  EXPECT_THROW(d.encode(), std::invalid_argument);
  // A full queue refuses a good descriptor: the engine holds the first (which the router,
  // taking nothing, keeps from finishing), the queue the next DescSlots.
  DmaBench b;
  b.loopback = false;
  b.drain_per_cycle = 0;
  const auto big = put(0x1000, 5000, 0, 1).encode();
  b.counter(0, 0, 100000);
  for (unsigned i = 0; i < kDmDescSlots + 1; ++i) b.write_vector(kRegDmDesc, {big[0], big[1], big[2], big[3]});
  EXPECT_EQ(b.errors(), 0u);
  b.write_vector(kRegDmDesc, {big[0], big[1], big[2], big[3]});
  EXPECT_EQ(b.errors(), bit(kDmErrDescFull));
  EXPECT_EQ(get_field(b.read(kRegDmStatus), kDmStatusDescFreeLsb, kDmStatusDescFreeW), 0u);
}

// A packet whose DMA word breaks a rule is taken whole from the FIFO and dropped, and the
// packet after it is handled as usual.
TEST(DM_ENGINE, APacketThatBreaksARuleIsDropped) {
  auto packet = [](unsigned chunks, const DmaWord& w, uint64_t fill) {
    fw::TorusHeader h;
    h.chunks = chunks;
    std::vector<uint64_t> f{h.encode(), w.encode()};
    while (f.size() < 1 + 4 * chunks) f.push_back(fill + f.size());
    return f;
  };
  const std::vector<std::pair<std::string, std::vector<uint64_t>>> bad{
      {"kind 3", packet(1, {3, 3, 0, 0}, 1)},
      {"no words", packet(1, {kDmKindPut, 0, 0, 0}, 1)},
      {"more chunks than its words need", packet(2, {kDmKindPut, 3, 0, 0}, 1)},
      {"fewer chunks than its words need", packet(1, {kDmKindPut, 4, 0, 0}, 1)},
      {"a remote get of part of a descriptor", packet(1, {kDmKindGet, 3, 0, 0}, 1)},
  };
  for (const auto& [what, flits] : bad) {
    SCOPED_TRACE(what);
    DmaBench b;
    b.loopback = false;
    b.counter(0, 0x4000, 3);
    for (uint64_t f : flits) b.rcv.push_back(f);
    for (uint64_t f : packet(1, {kDmKindPut, 3, 0, 0x10}, 100)) b.rcv.push_back(f);
    ASSERT_TRUE(b.run_until([&] { return b.rcv.empty(); }, 1000));
    b.run(20);
    EXPECT_EQ(b.errors(), bit(kDmErrBadPacket));
    EXPECT_EQ(b.zero(), 1u) << "the good packet after the bad one";
    EXPECT_EQ(b.words_at(0x4010, 3), (std::vector<uint64_t>{102, 103, 104}));
    EXPECT_EQ(b.writes.size(), 1u) << "the dropped packet wrote";
  }
  // A remote get carrying a descriptor that breaks a rule: dropped, flagged, nothing sent.
  DmaBench b;
  b.loopback = false;
  auto inner = put(0x1000, 8, 0, 1).encode();
  inner[kDmDescWordsWord] = 0;
  fw::TorusHeader h;
  h.chunks = 2;
  for (uint64_t f : {h.encode(), DmaWord{kDmKindGet, 4, 0, 0}.encode(), inner[0], inner[1], inner[2], inner[3],
                     uint64_t{0}, uint64_t{0}, uint64_t{0}})
    b.rcv.push_back(f);
  ASSERT_TRUE(b.run_until([&] { return b.rcv.empty(); }, 1000));
  b.run(50);
  EXPECT_EQ(b.errors(), bit(kDmErrBadPacket));
  EXPECT_TRUE(b.nothing_sent());
}

// Counted past zero: the counter stops at zero, its zero bit is set, and so is the error.
// Counters, zero bits and the event line follow the registers.
TEST(DM_ENGINE, CountersZeroBitsAndTheEventLine) {
  DmaBench b;
  const uint64_t src = 0x1000;
  b.fill(src, pattern(10, 1));
  b.counter(0, 0, 100);     // plenty to go
  b.counter(5, 0x8000, 6);  // fewer to come than will
  b.write(kRegDmEventEn, bit(5));
  b.post(put(src, 10, 0, 5));
  ASSERT_TRUE(b.settle());
  EXPECT_EQ(b.count(0), 90u);
  EXPECT_EQ(b.count(5), 0u);
  EXPECT_EQ(b.zero(), bit(5));
  EXPECT_EQ(b.errors(), bit(kDmErrUnderflow));
  b.run(1);
  EXPECT_TRUE(b->event_o);
  b.write(kRegDmZeroClear, bit(5));
  b.run(1);
  EXPECT_EQ(b.zero(), 0u);
  EXPECT_FALSE(b->event_o);
  // Writing a count clears the counter's zero bit too.
  b.counter(5, 0x8000, 10);
  b.post(put(src, 10, 0, 5));
  ASSERT_TRUE(b.settle());
  EXPECT_EQ(b.zero(), bit(5));
  b.counter(5, 0x8000, 1);
  EXPECT_EQ(b.zero(), 0u);
  EXPECT_EQ(b.read(reg_dm_ctr_base(5)), 0x8000u);
  b.write(reg_dm_ctr_base(5), 0x8007);
  EXPECT_EQ(b.read(reg_dm_ctr_base(5)), 0x8000u) << "a base keeps word alignment";
}

// Reads in flight hide the memory's latency: with 20 cycles from a read to its data, a
// put of 31 packets streams at the loopback's rate of a flit a cycle (within a tenth),
// where one packet at a time would take 20 cycles more per packet.
TEST(DM_ENGINE, ReadsInFlightHideTheMemoryLatency) {
  DmaBench b;
  b.latency = 20;
  const uint32_t n = 31 * 31;
  b.fill(0x1000, pattern(n, 9));
  b.counter(0, 0, n);
  b.counter(1, 0x200000, n);
  const uint64_t start = b.cycles();
  b.post(put(0x1000, n, 0, 1));
  ASSERT_TRUE(b.run_until([&] { return b.zero() == 0b11; }));
  const uint64_t took = b.cycles() - start;
  const uint64_t flits = 31 * 33;
  std::printf("[ cycles   ] %llu for %llu flits at a latency of 20\n", static_cast<unsigned long long>(took),
              static_cast<unsigned long long>(flits));
  EXPECT_LE(took, flits + flits / 10);
  EXPECT_EQ(b.words_at(0x200000, n), pattern(n, 9));
}

// The assertions on what the engine's neighbours do: the memory port grants only a request
// and answers only a read in flight; the router's injection FIFO keeps the room the engine
// reserved (nothing else pushes into it).
TEST(DM_ENGINE, ProtocolAssertionsFire) {
  {
    DmaBench b;
    EXPECT_TRUE(b.trips("ReadGrantUnasked", [&] { b.raw_memory_cycle(true, false, false); }, "granted no read"));
  }
  {
    DmaBench b;
    EXPECT_TRUE(b.trips("WriteGrantUnasked", [&] { b.raw_memory_cycle(false, true, false); }, "granted no write"));
  }
  {
    DmaBench b;
    EXPECT_TRUE(b.trips("u_inject.ResponseUnasked", [&] { b.raw_memory_cycle(false, false, true); },
                        "no read in flight"));
  }
  {
    DmaBench b;
    b.loopback = false;
    b.drain_per_cycle = 0;
    b.counter(0, 0, 1000);
    b.post(put(0x1000, 100, 0, 1));
    b.run(3);  // a packet started: its flits reserved
    EXPECT_FALSE(b.assertion_failed());
    EXPECT_TRUE(b.trips("u_inject.g_resv[0].ReserveOverFree", [&] {
      b.free_override = 0;
      b.step();
    }, "flits reserved"));
  }
}

// Random descriptors of every kind, a random memory latency and grants, against the memory
// they should leave.
// The injection ring: descriptors software writes into memory are read in order and run,
// the ring wraps at its end, the head moves past each slot as it is read, and a series
// longer than software's queue needs one register write per descriptor, none to wait on
// the queue's room.
TEST(DM_ENGINE, InjectionRingFeedsTheQueue) {
  for (const unsigned latency : {1u, 20u}) {
    SCOPED_TRACE("latency " + std::to_string(latency));
    DmaBench b;
    b.latency = latency;
    // The highest ring of four slots: its end is the last 32-byte boundary of the 48-bit
    // space (RegDmIfEnd is an address too).
    const uint64_t ring = 0x200000, top = (uint64_t{1} << kDmAddrW) - 5 * DmaBench::kSlot;
    b.ring(ring, 4);
    EXPECT_EQ(b.read(kRegDmIfStart), ring);
    EXPECT_EQ(b.read(kRegDmIfEnd), ring + 4 * DmaBench::kSlot);
    EXPECT_EQ(b.read(kRegDmIfHead), ring);
    EXPECT_EQ(b.read(kRegDmIfTail), ring);
    // Twenty puts of 1 to 40 words, each to a counter of its own (1..15, then again once
    // they are done), through four slots.
    const unsigned puts = 20;
    std::vector<std::vector<uint64_t>> data;
    uint32_t total = 0;
    for (unsigned i = 0; i < puts; ++i) {
      data.push_back(pattern(1 + (7 * i) % 40, 100 + i));
      b.fill(0x10000 + 0x1000 * i, data.back());
      total += static_cast<uint32_t>(data.back().size());
    }
    b.counter(0, 0, total);
    for (unsigned half = 0; half < 2; ++half) {
      const unsigned from = half * 10, to = from + 10;
      // The second half through a ring at the top of the 48-bit space (every bit of its
      // bounds, head and tail set), the first and a last put through the low one.
      if (half == 1) b.ring(top, 4);
      for (unsigned i = from; i < to; ++i) b.counter(1 + i - from, 0x400000 + 0x1000 * i, static_cast<uint32_t>(data[i].size()));
      for (unsigned i = from; i < to; ++i)
        ASSERT_TRUE(b.post_ring(put(0x10000 + 0x1000 * i, static_cast<uint32_t>(data[i].size()), 0, 1 + i - from)));
      ASSERT_TRUE(b.run_until([&] { return (b.zero() & 0x7fe) == 0x7fe; })) << "zero bits 0x" << std::hex << b.zero();
    }
    ASSERT_TRUE(b.settle());
    for (unsigned i = 0; i < puts; ++i) EXPECT_EQ(b.words_at(0x400000 + 0x1000 * i, data[i].size()), data[i]) << "put " << i;
    EXPECT_EQ(b.count(0), 0u);
    EXPECT_EQ(b.errors(), 0u);
    // Ten descriptors through four slots at the top: the head went round twice and a half
    // and stands at the tail.
    EXPECT_EQ(b.read(kRegDmIfHead), b.read(kRegDmIfTail));
    EXPECT_EQ(b.read(kRegDmIfHead), top + (10 % 4) * DmaBench::kSlot);
    EXPECT_EQ(b.read(kRegDmIfEnd), (uint64_t{1} << kDmAddrW) - DmaBench::kSlot);
    // Back to the low ring for one more put.
    b.ring(ring, 4);
    b.fill(0x50000, pattern(3, 9));
    b.counter(0, 0, 3);
    b.counter(1, 0x600000, 3);
    ASSERT_TRUE(b.post_ring(put(0x50000, 3, 0, 1)));
    ASSERT_TRUE(b.run_until([&] { return (b.zero() & 0b11) == 0b11; }));
    EXPECT_EQ(b.words_at(0x600000, 3), pattern(3, 9));
    // With one injection FIFO the packets leave in the order the engine made them: the
    // descriptors' order. (With more, packets of different FIFOs leave side by side.)
    std::vector<unsigned> counters;
    for (const Packet& p : sent_packets(b))
      if (counters.empty() || counters.back() != p.word.counter) counters.push_back(p.word.counter);
    if (kFifos == 1)
      EXPECT_EQ(counters, (std::vector<unsigned>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1}))
          << "the descriptors ran in the order written";
  }
}

// The ring's rules: a tail outside it, or with no ring set, is refused (DmErrIfRing) and
// the tail stays; a descriptor in it that breaks a rule is dropped (DmErrBadDesc) and the
// next runs; writing the start or the end empties the ring.
TEST(DM_ENGINE, InjectionRingRules) {
  DmaBench b;
  b.write(kRegDmIfTail, 0x1000);
  EXPECT_EQ(b.errors(), bit(kDmErrIfRing)) << "a tail with no ring set";
  EXPECT_EQ(b.read(kRegDmIfTail), 0u);
  b.write(kRegDmErrClear, ~uint64_t{0});
  const uint64_t ring = 0x200000;
  b.ring(ring, 4);
  for (const uint64_t t : {ring - DmaBench::kSlot, ring + 4 * DmaBench::kSlot, uint64_t{0}}) {
    b.write(kRegDmIfTail, t);
    EXPECT_EQ(b.errors(), bit(kDmErrIfRing)) << "tail 0x" << std::hex << t;
    EXPECT_EQ(b.read(kRegDmIfTail), ring);
    b.write(kRegDmErrClear, ~uint64_t{0});
  }
  b.run(20);
  EXPECT_TRUE(b.nothing_sent());
  // A bad descriptor, then a good one: the first dropped, the second run.
  const auto good = put(0x10000, 5, 0, 1).encode();
  b.fill(0x10000, pattern(5, 7));
  b.counter(0, 0, 5);
  b.counter(1, 0x300000, 5);
  ASSERT_TRUE(b.post_ring({good[0] | bit(63), good[1], good[2], good[3]}));
  ASSERT_TRUE(b.post_ring({good[0], good[1], good[2], good[3]}));
  ASSERT_TRUE(b.run_until([&] { return b.zero() == 0b11; }));
  ASSERT_TRUE(b.settle());
  EXPECT_EQ(b.errors(), bit(kDmErrBadDesc));
  EXPECT_EQ(b.words_at(0x300000, 5), pattern(5, 7));
  EXPECT_EQ(sent_packets(b).size(), 1u);
  // The low five bits of the bounds and the tail are dropped (32-byte slots).
  b.write(kRegDmIfStart, ring + 0x1f);
  EXPECT_EQ(b.read(kRegDmIfStart), ring);
  EXPECT_EQ(b.read(kRegDmIfHead), ring) << "a write of the start empties the ring";
  EXPECT_EQ(b.read(kRegDmIfTail), ring);
  b.write(kRegDmIfTail, ring + DmaBench::kSlot + 7);
  EXPECT_EQ(b.read(kRegDmIfTail), ring + DmaBench::kSlot);
  b.write(kRegDmIfEnd, ring + 2 * DmaBench::kSlot);
  EXPECT_EQ(b.read(kRegDmIfTail), ring) << "a write of the end empties the ring";
  b.run(5);
  EXPECT_EQ(b.read(kRegDmIfHead), ring);
}

TEST(DM_ENGINE, RandomTrafficLeavesMemoryAsAModelSays) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    DmaBench b;
    b.rng.seed(rng());
    b.latency = 1 + static_cast<unsigned>(rng() % 30);
    b.grant_chance = 0.3 + 0.7 * std::uniform_real_distribution<>(0, 1)(rng);
    b.drain_per_cycle = 1 + static_cast<unsigned>(rng() % 2);
    std::map<uint64_t, uint64_t> want;
    uint32_t total = 0;
    // Distinct regions anywhere in the 48-bit space (every address bit used), one counter
    // each (1..8) at the destination; counter 0 counts everything sent, from a count whose
    // high bits are set.
    const uint64_t hi = (rng() & 0xffffull) << 32;
    const int puts = 8;
    std::vector<std::pair<uint64_t, uint32_t>> dsts;
    for (int i = 0; i < puts; ++i) {
      const uint32_t n = 1 + static_cast<uint32_t>(rng() % 200);
      const uint64_t src = hi + 0x100000 * (i + 1), dst = (hi ^ (0xffffull << 32)) + 0x4000000 + 0x100000 * i;
      const uint64_t off = 8 * (rng() % 16);
      const auto data = pattern(n, rng());
      b.fill(src, data);
      for (uint32_t j = 0; j < n; ++j) want[dst + off + 8 * j] = data[j];
      b.counter(1 + i, dst, n);
      dsts.emplace_back(dst + off, n);
      total += n;
    }
    const uint32_t left = 0xabcd0000u;
    b.counter(0, 0, left + total + 4);  // and one remote get's descriptor
    auto offset = [&](int k) { return dsts[k].first - ((hi ^ (0xffffull << 32)) + 0x4000000 + 0x100000 * k); };
    // Odd rounds queue the puts through an injection ring of three slots (so it wraps, and
    // its reads share the memory port with the puts' rows).
    const bool by_ring = round % 2 == 1;
    if (by_ring) b.ring(hi + 0xa000000, 3);
    int i = 0;
    for (; i < puts - 1; ++i) {
      const auto d = put(hi + 0x100000 * (i + 1), dsts[i].second, 0, 1 + i, offset(i));
      if (by_ring) ASSERT_TRUE(b.post_ring(d));
      else b.post(d);
    }
    // The last put as a remote get.
    const auto iw = put(hi + 0x100000 * (i + 1), dsts[i].second, 0, 1 + i, offset(i)).encode();
    b.fill(hi + 0x9000000, {iw[0], iw[1], iw[2], iw[3]});
    DmaDescriptor g;
    g.kind = DmaKind::Get;
    g.addr = hi + 0x9000000;
    g.words = 4;
    b.post(g);
    ASSERT_TRUE(b.run_until([&] { return b.zero() == 0x1fe; }, 400000)) << "zero bits 0x" << std::hex << b.zero();
    ASSERT_TRUE(b.settle());
    EXPECT_EQ(b.count(0), left);
    for (const auto& [a, v] : want) ASSERT_EQ(b.peek(a), v) << "at 0x" << std::hex << a;
    for (const auto& [a, k] : b.writes)
      for (unsigned j = 0; j < k; ++j) EXPECT_TRUE(want.count(a + 8 * j)) << "a stray write at 0x" << std::hex << a + 8 * j;
    EXPECT_EQ(b.errors(), 0u);
  }
}

}  // namespace
}  // namespace collnet::tb
