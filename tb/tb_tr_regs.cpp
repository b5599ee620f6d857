// SPDX-License-Identifier: Apache-2.0
// tr_regs on its own: the torus router's register block. The bench is a fw::RegisterBus on
// the block's bus ports, so the real firmware (fw::TorusFirmware) and the generated
// register map (firmware/regmap.hpp) drive it, and plays the router's FIFOs behind it as
// queues of tr_pkg's depths. Covered: every register of the generated register table
// (firmware/regmap_table.hpp) in the router's window with its reset value and access kind
// (tb/register_table_checks.hpp); RegTrConfig showing the coordinate, size and link-down
// pins; writes turned into pushes into the addressed injection FIFO (a header one word, a
// chunk four) and reads into pops of the addressed reception FIFO, by the firmware sending
// and receiving whole packets; a push without room and a read of more than a FIFO holds
// refused with nothing moved and their error bit set; unmapped addresses; sticky error bits
// (the router's pulses and the block's own) and their clearing; RegTrStatus and status_o;
// the bus timing; 20,000 random accesses against a model of the register map. Built twice:
// with one normal reception FIFO (the default) and with TB_RCV_FIFOS of them, where
// RegTrStatus's RcvMore bits, RegTrRcvLevels and the reception slots between the last
// normal FIFO and the high-priority one (unmapped) have something to show.
#include <array>
#include <deque>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "Vtr_regs.h"
#include "firmware/personality.hpp"
#include "firmware/hardware_sizes.hpp"
#include "firmware/regmap.hpp"
#include "firmware/torus_firmware.hpp"
#include "firmware/torus_packet.hpp"
#include "firmware/tree_firmware.hpp"
#include "tb/register_table_checks.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

using namespace fw::regmap;
using Vector = fw::RegisterBus::Vector;

// The widths of the FIFO level inputs (tr_regs's InjCntW and RcvCntW).
constexpr unsigned kInjCntW = fw::level_bits(kTrInjFlits), kRcvCntW = fw::level_bits(kTrRcvFlits);
#ifndef TB_RCV_FIFOS
#define TB_RCV_FIFOS fw::size_default("torus.reception_fifos")
#endif
// One test suite per build, so that the executables' tests have distinct CTest names.
#define TR_REGS COLLNET_TB_SUITE(TrRegs)
// The model's normal reception FIFOs (its RcvFifos) and all its reception FIFOs, the
// high-priority one last.
constexpr unsigned kRcvFifos = TB_RCV_FIFOS, kNumRcv = kRcvFifos + 1;
// The register slot of the model's reception FIFO k.
constexpr unsigned slot_of(unsigned k) { return k < kRcvFifos ? k : kTrRcvPrio; }
// RegTrSizes of the model: the table's reset value with its reception FIFO count.
uint64_t sizes_word() {
  return set_field(table_reset(kRegTrSizes), kTrSizesRcvFifosLsb, kTrSizesRcvFifosW, kRcvFifos);
}

constexpr uint64_t bit(unsigned b) { return uint64_t{1} << b; }
constexpr uint64_t kAllErrors = field_mask(kTrErrBits);
constexpr uint64_t kJunk = 0xbadbadbadbadbadbull;

// RegTrStatus for these FIFO levels (reception: the model's FIFOs) and error state:
// normal FIFO 0's and the high-priority FIFO's levels, a RcvMore bit per other normal FIFO
// holding flits.
uint64_t status_word(const std::array<unsigned, kTrInjFifos>& inj_free, const std::array<unsigned, kNumRcv>& rcv,
                     bool error) {
  uint64_t s = 0;
  for (unsigned k = 0; k < kTrInjFifos; ++k)
    s = set_field(s, kTrStatusInjFreeLsb + kTrStatusInjFreeStride * k, kTrStatusInjFreeW, inj_free[k]);
  s = set_field(s, kTrStatusRcvCountLsb, kTrStatusRcvCountW, rcv[0]);
  s = set_field(s, kTrStatusRcvCountLsb + kTrStatusRcvCountStride, kTrStatusRcvCountW, rcv[kRcvFifos]);
  for (unsigned k = 1; k < kRcvFifos; ++k) s = set_field(s, kTrStatusRcvMoreLsb + k - 1, 1, rcv[k] != 0);
  return set_field(s, kTrStatusErrBit, 1, error);
}

// RegTrRcvLevels for these levels of the model's reception FIFOs.
uint64_t levels_word(const std::array<unsigned, kNumRcv>& rcv) {
  uint64_t w = 0;
  for (unsigned k = 1; k < kRcvFifos; ++k)
    w = set_field(w, kTrRcvLevelsCountLsb + kTrRcvLevelsCountStride * (k - 1), kTrRcvLevelsCountW, rcv[k]);
  return w;
}

// RegTrConfig for these pins.
uint64_t config_word(const std::array<unsigned, 3>& coord, const std::array<unsigned, 3>& dims, unsigned down) {
  uint64_t w = 0;
  for (unsigned k = 0; k < 3; ++k) {
    w = set_field(w, kTrConfigCoordLsb + k * kCoordW, kCoordW, coord[k]);
    w = set_field(w, kTrConfigSizeLsb + k * kCoordW, kCoordW, dims[k]);
  }
  return set_field(w, kTrConfigDownLsb, kTrConfigDownW, down);
}

uint32_t pack3(const std::array<unsigned, 3>& c) { return c[0] | c[1] << 8 | c[2] << 16; }

fw::TorusHeader header(unsigned chunks, unsigned tag, bool priority = false) {
  fw::TorusHeader h;
  h.dst = {tag % 4, 1, 2};
  h.src = {3, 0, 1};
  h.chunks = chunks;
  h.sw_tag = tag % 16;
  h.priority = priority;
  return h;
}

class TrRegsBench : public ClockedHarness<Vtr_regs>, public BlockRegisterBus<TrRegsBench> {
 public:
  // The router's FIFOs behind the block: what was pushed into injection FIFO k (the router
  // takes nothing unless a test drains it) and what reception FIFO k holds.
  std::array<std::deque<uint64_t>, kTrInjFifos> inj;
  // Reception FIFO k of the router (kRcvFifos normal ones, then the high-priority one),
  // which answers at register slot slot_of(k).
  std::array<std::deque<uint64_t>, kNumRcv> rcv;

  // What one cycle moved between the block and the FIFOs.
  struct Moves {
    int push_fifo = -1;  // the injection FIFO pushed, -1 if none
    std::vector<uint64_t> pushed;
    int pop_fifo = -1;  // the reception FIFO popped
    unsigned popped = 0;
    bool operator==(const Moves& o) const {
      return push_fifo == o.push_fifo && pushed == o.pushed && pop_fifo == o.pop_fifo && popped == o.popped;
    }
    bool none() const { return *this == Moves{}; }
  };
  Moves moved;  // by the last cycle

  TrRegsBench() {
    pins({1, 2, 3}, {4, 4, 4}, 0);
    offer();
    eval();
  }

  // The configuration pins (RegTrConfig).
  void pins(const std::array<unsigned, 3>& coord, const std::array<unsigned, 3>& dims, unsigned down) {
    model().my_i = pack3(coord);
    model().dims_i = pack3(dims);
    model().link_down_i = static_cast<uint8_t>(down);
  }

  // ---------------------------------------------------------------- bus
  // BlockRegisterBus (tb_harness.hpp): each access one step() of this bench.
  uint64_t errors() { return read(kRegTrErr); }
  void clear_errors() { write(kRegTrErrClear, ~0ull); }
  uint64_t status() { return read(kRegTrStatus); }
  // The status these FIFOs should show.
  uint64_t want_status(bool error) const {
    std::array<unsigned, kTrInjFifos> f{};
    for (unsigned k = 0; k < kTrInjFifos; ++k) f[k] = kTrInjFlits - static_cast<unsigned>(inj[k].size());
    return status_word(f, rcv_levels(), error);
  }
  std::array<unsigned, kNumRcv> rcv_levels() const {
    std::array<unsigned, kNumRcv> c{};
    for (unsigned k = 0; k < kNumRcv; ++k) c[k] = static_cast<unsigned>(rcv[k].size());
    return c;
  }

  // Error pulses of the router in the next cycle.
  void router_error(unsigned bits) {
    model().router_err_i = static_cast<uint8_t>(bits);
    step();
    model().router_err_i = 0;
  }

  // The FIFOs' levels and heads on the block's inputs.
  void offer() {
    auto& m = model();
    m.inj_free_i = 0;
    m.rcv_count_i = 0;
    for (unsigned k = 0; k < kTrInjFifos; ++k) {
      EXPECT_LE(inj[k].size(), kTrInjFlits);
      m.inj_free_i = static_cast<uint32_t>(
          set_field(m.inj_free_i, k * kInjCntW, kInjCntW, kTrInjFlits - inj[k].size()));
    }
    for (unsigned k = 0; k < kNumRcv; ++k) {
      EXPECT_LE(rcv[k].size(), kTrRcvFlits);
      m.rcv_count_i = static_cast<std::remove_reference_t<decltype(m.rcv_count_i)>>(set_field(m.rcv_count_i, k * kRcvCntW, kRcvCntW, rcv[k].size()));
      // The head's four words; what the FIFO holds no more of reads as junk, which the
      // block must not pass on.
      for (unsigned j = 0; j < kVectorWords; ++j)
        set_wide_bits(m.rcv_data_i.data(), 256 * k + 64 * j, 64, j < rcv[k].size() ? rcv[k][j] : kJunk);
    }
  }

  // One clock cycle: offers the FIFOs' levels and heads, then moves at the edge what the
  // block pushed and popped.
  void step() {
    auto& m = model();
    offer();
    eval();
    Moves mv;
    auto which = [](unsigned mask, unsigned n, const char* what) {
      EXPECT_TRUE(mask == 0 || (mask & (mask - 1)) == 0) << what << " into two FIFOs at once: " << mask;
      for (unsigned k = 0; k < n; ++k)
        if (mask >> k & 1) return static_cast<int>(k);
      return -1;
    };
    mv.push_fifo = which(m.inj_push_o, kTrInjFifos, "pushes");
    mv.pop_fifo = which(m.rcv_pop_o, kNumRcv, "pops");
    if (mv.push_fifo >= 0) {
      EXPECT_TRUE(m.inj_n_o == 1 || m.inj_n_o == kVectorWords) << "a push of " << unsigned(m.inj_n_o) << " words";
      for (unsigned j = 0; j < m.inj_n_o && j < kVectorWords; ++j) mv.pushed.push_back(wide_bits(m.inj_data_o.data(), 64 * j, 64));
    }
    if (mv.pop_fifo >= 0) {
      mv.popped = m.rcv_n_o;
      EXPECT_TRUE(mv.popped == 1 || mv.popped == kVectorWords) << "a pop of " << mv.popped << " words";
    }
    const uint64_t status_wire = m.status_o;
    const bool error_before = m.err_o != 0;
    EXPECT_EQ(status_wire, want_status(error_before)) << "status_o";
    tick();
    if (mv.push_fifo >= 0) {
      auto& q = inj[mv.push_fifo];
      EXPECT_LE(q.size() + mv.pushed.size(), kTrInjFlits) << "pushed beyond injection FIFO " << mv.push_fifo << "'s room";
      q.insert(q.end(), mv.pushed.begin(), mv.pushed.end());
    }
    if (mv.pop_fifo >= 0) {
      auto& q = rcv[mv.pop_fifo];
      EXPECT_LE(mv.popped, q.size()) << "popped beyond what reception FIFO " << mv.pop_fifo << " holds";
      for (unsigned j = 0; j < mv.popped && !q.empty(); ++j) q.pop_front();
    }
    moved = mv;
  }
  void run(unsigned cycles) {
    for (unsigned i = 0; i < cycles; ++i) step();
  }

  // A packet into reception FIFO k, as the router would deliver it.
  void deliver(unsigned k, const fw::TorusHeader& h, const std::vector<uint64_t>& payload) {
    rcv[k].push_back(h.encode());
    rcv[k].insert(rcv[k].end(), payload.begin(), payload.end());
  }
};

std::vector<uint64_t> payload_of(std::mt19937_64& rng, const fw::TorusHeader& h) {
  std::vector<uint64_t> p(kChunkFlits * h.chunks);
  for (auto& w : p) w = rng();
  return p;
}

// The generated register table's checks over the router's window, asking after every
// refused access whether a FIFO moved.
// RegTrSizes's row reads the model's reception FIFO count.
RegisterTableChecks table_checks(TrRegsBench& b) {
  RegisterRows rows = register_rows(in_win_tr);
  for (RegisterInfo& r : rows)
    if (r.addr == kRegTrSizes) r.reset = sizes_word();
  return RegisterTableChecks(b, std::move(rows),
                             [&b](const RegisterInfo&) { return b.moved.none() ? "" : "a FIFO moved"; });
}

// ------------------------------------------------------------------ reset
// Every register's value after reset: the register table's (RegTrStatus: every injection
// FIFO's TrInjFlits free; RegTrErr: 0), the same on status_o; RegTrConfig the pins.
TEST(TR_REGS, EveryRegisterHasItsResetValue) {
  TrRegsBench b;
  EXPECT_EQ(b->err_o, 0u);
  EXPECT_FALSE(b->rvalid_o);
  EXPECT_EQ(wide_bits(b->rdata_o.data(), 0, 64), 0u);
  EXPECT_EQ(b->status_o, status_word({kTrInjFlits, kTrInjFlits, kTrInjFlits}, {}, false));
  RegisterTableChecks check = table_checks(b);
  EXPECT_EQ(check.reset_values(), std::vector<std::string>{});
  EXPECT_GT(check.rows().size(), 2 * (kTrInjFifos + kTrRcvFifos)) << "the table holds the router's registers";
  EXPECT_EQ(b.read(kRegTrConfig), config_word({1, 2, 3}, {4, 4, 4}, 0));
  EXPECT_EQ(b.errors(), 0u) << "reading every readable register is no error";
  EXPECT_TRUE(b.moved.none());
  // As the firmware reads them.
  fw::Personality me;
  fw::TorusFirmware fw(b, me);
  const fw::TorusStatus s = fw.status();
  for (unsigned k = 0; k < kTrInjFifos; ++k) EXPECT_EQ(s.inj_free[k], kTrInjFlits) << "injection FIFO " << k;
  for (unsigned k = 0; k < kTrRcvFifos; ++k) EXPECT_EQ(s.rcv[k], 0u) << "reception slot " << k;
  EXPECT_EQ(s.more, 0u);
  EXPECT_FALSE(s.error);
  EXPECT_EQ(fw.errors(), 0u);
  EXPECT_NO_THROW(fw.check());
  EXPECT_FALSE(fw.try_receive(0).has_value());
  for (unsigned k = 0; k < kNumRcv; ++k) EXPECT_FALSE(fw.try_receive(slot_of(k)).has_value()) << "reception FIFO " << k;
  EXPECT_EQ(b.errors(), 0u) << "the firmware looks before it reads";
}

// A reset clears the error bits and the read data.
TEST(TR_REGS, ResetClearsTheErrorBits) {
  TrRegsBench b;
  b.router_error(0b1111);
  b.read(0x980);
  // Every bit but the FIFO ones and the link layer's (its input is low here).
  EXPECT_EQ(b->err_o, kAllErrors & ~(bit(kTrErrInjFull) | bit(kTrErrRcvEmpty) | bit(kTrErrLinkDown)));
  b.read(kRegTrConfig);
  b.reset();
  EXPECT_EQ(b->err_o, 0u);
  EXPECT_FALSE(b->rvalid_o);
  EXPECT_EQ(wide_bits(b->rdata_o.data(), 0, 64), 0u);
  EXPECT_EQ(b.errors(), 0u);
}

// ------------------------------------------------------------------ configuration
TEST(TR_REGS, ConfigShowsTheNodesPlaceTheTorusSizeAndItsDownLinks) {
  std::mt19937_64 rng(test_seed());
  TrRegsBench b;
  for (int i = 0; i < 200; ++i) {
    fw::Personality me;
    for (unsigned k = 0; k < 3; ++k) {
      me.shape[k] = 1 + static_cast<unsigned>(rng() % 255);
      me.coord[k] = static_cast<unsigned>(rng() % me.shape[k]);
    }
    me.torus_links_down = static_cast<unsigned>(rng() % 64);
    if (i == 0) {  // every field at its widest
      me.shape = {255, 255, 255};
      me.coord = {254, 0, 128};
      me.torus_links_down = 0b111111;
    }
    b.pins(me.coord, me.shape, me.torus_links_down);
    const uint64_t w = b.read(kRegTrConfig);
    for (unsigned k = 0; k < 3; ++k) {
      EXPECT_EQ(get_field(w, kTrConfigCoordLsb + k * kCoordW, kCoordW), me.coord[k]) << "coordinate " << k;
      EXPECT_EQ(get_field(w, kTrConfigSizeLsb + k * kCoordW, kCoordW), me.shape[k]) << "size " << k;
    }
    EXPECT_EQ(get_field(w, kTrConfigDownLsb, kTrConfigDownW), me.torus_links_down);
    EXPECT_EQ(w >> (kTrConfigDownLsb + kTrConfigDownW), 0u) << "bits above the fields";
    for (unsigned d = 0; d < kNumDirs; ++d)
      EXPECT_EQ(get_field(w, kTrConfigDownLsb + d, 1), me.torus_links_down >> d & 1) << "link " << d;
  }
  // A write does not change it, and is refused.
  b.pins({1, 2, 3}, {4, 5, 6}, 0b100001);
  b.write(kRegTrConfig, 0);
  EXPECT_EQ(b.errors(), bit(kTrErrBadAccess));
  EXPECT_EQ(b.read(kRegTrConfig), config_word({1, 2, 3}, {4, 5, 6}, 0b100001));
  // A link marked down one cycle shows in the next read.
  b.pins({1, 2, 3}, {4, 5, 6}, 0b000010);
  EXPECT_EQ(get_field(b.read(kRegTrConfig), kTrConfigDownLsb, kTrConfigDownW), 0b000010u);
}

// ------------------------------------------------------------------ addresses
// A write to a read-only register of the register table changes nothing (a write of ones to
// RegTrErr clears nothing) but TrErrBadAccess, whatever error state and FIFO levels it meets.
TEST(TR_REGS, ReadOnlyRegistersIgnoreWrites) {
  TrRegsBench b;
  b.router_error(static_cast<unsigned>(bit(kTrErrDownLink)));
  for (unsigned k = 0; k < kNumRcv; ++k) b.rcv[k] = {1 + k, 2, 3, 4, 5};
  b.inj[1] = {7, 7};
  const uint64_t config = b.read(kRegTrConfig);
  EXPECT_EQ(table_checks(b).read_only_ignore_writes(), std::vector<std::string>{});
  EXPECT_EQ(b.errors(), bit(kTrErrDownLink));
  EXPECT_EQ(b.read(kRegTrConfig), config);
  EXPECT_EQ(b.status(), b.want_status(true));
  for (unsigned k = 0; k < kNumRcv; ++k) EXPECT_EQ(b.rcv[k].size(), 5u);
  EXPECT_EQ(b.inj[1].size(), 2u);
}

// A read of a write-only register of the register table answers zero with TrErrBadAccess
// and pushes nothing.
TEST(TR_REGS, WriteOnlyRegistersReadAsZero) {
  TrRegsBench b;
  EXPECT_EQ(table_checks(b).write_only_read_as_zero(), std::vector<std::string>{});
  EXPECT_EQ(b.errors(), 0u);
  for (const auto& q : b.inj) EXPECT_TRUE(q.empty());
}

// Holes in the window (a fourth injection FIFO, addresses inside a register, past the last
// register, where the reception FIFOs answered before register map 1.5, the slot after the
// high-priority FIFO's), and addresses outside it: refused for reads and writes alike, nothing moved.
TEST(TR_REGS, FlagsUnmappedAddresses) {
  TrRegsBench b;
  for (auto& q : b.rcv) q.assign(8, 0x1234);
  const uint32_t unmapped[] = {reg_tr_inj_hdr(kTrInjFifos),   reg_tr_inj_chunk(kTrInjFifos), kRegTrStatus + 4,
                               kRegTrErr + 1,                  reg_tr_inj_hdr(1) + 4,         reg_tr_inj_chunk(2) + 2,
                               reg_tr_rcv_hdr(0) + 4,          reg_tr_rcv_chunk(1) + 7,       kRegTrSizes + 4,
                               0x890,                          0x8f8,                         0x980,
                               0x860,                          0x870,                         0x938,
                               0xbf8,                          0x7f8,                         0x000,
                               0xff8};
  for (uint32_t a : unmapped) {
    for (bool we : {false, true}) {
      const Vector r = b.access(we, a, {0x11, 0x22, 0x33, 0x44});
      if (!we) EXPECT_EQ(r, (Vector{0, 0, 0, 0})) << "a read of 0x" << std::hex << a;
      EXPECT_TRUE(b.moved.none()) << (we ? "a write of 0x" : "a read of 0x") << std::hex << a;
      EXPECT_EQ(b.errors(), bit(kTrErrBadAccess)) << (we ? "a write of 0x" : "a read of 0x") << std::hex << a;
      b.clear_errors();
    }
  }
  for (const auto& q : b.inj) EXPECT_TRUE(q.empty());
  for (const auto& q : b.rcv) EXPECT_EQ(q.size(), 8u);
}

// ------------------------------------------------------------------ injection
// The firmware sends a packet through each injection FIFO: a header push of one word, then a
// vector push of four words per chunk, into that FIFO only.
TEST(TR_REGS, TheFirmwareSendsAPacketIntoEachInjectionFifo) {
  std::mt19937_64 rng(test_seed());
  TrRegsBench b;
  fw::Personality me;
  fw::TorusFirmware fw(b, me);
  for (unsigned k = 0; k < kTrInjFifos; ++k) {
    const fw::TorusHeader h = header(1 + k * 3, k, k == 2);
    const std::vector<uint64_t> p = payload_of(rng, h);
    fw.send(h, p, k);
    std::vector<uint64_t> want{h.encode()};
    want.insert(want.end(), p.begin(), p.end());
    EXPECT_EQ(std::vector<uint64_t>(b.inj[k].begin(), b.inj[k].end()), want) << "injection FIFO " << k;
    for (unsigned o = 0; o < kTrInjFifos; ++o)
      if (o > k) EXPECT_TRUE(b.inj[o].empty()) << "injection FIFO " << o << " after a send into " << k;
    EXPECT_EQ(fw.status().inj_free[k], kTrInjFlits - h.flits());
  }
  EXPECT_NO_THROW(fw.check());
  // Access by access: a header is one word, a chunk four, word 0 first.
  b.write(reg_tr_inj_hdr(1), 0xabc);
  EXPECT_EQ(b.moved.push_fifo, 1);
  EXPECT_EQ(b.moved.pushed, std::vector<uint64_t>{0xabc});
  b.write_vector(reg_tr_inj_chunk(2), {5, 6, 7, 8});
  EXPECT_EQ(b.moved.push_fifo, 2);
  EXPECT_EQ(b.moved.pushed, (std::vector<uint64_t>{5, 6, 7, 8}));
  EXPECT_EQ(b.errors(), 0u);
}

// A header needs one free flit and a chunk four: otherwise nothing is pushed and
// TrErrInjFull is set, which the firmware reports by name.
TEST(TR_REGS, RefusesAPushIntoAnInjectionFifoWithoutRoom) {
  TrRegsBench b;
  fw::Personality me;
  me.rank = 5;
  fw::TorusFirmware fw(b, me);
  for (unsigned k = 0; k < kTrInjFifos; ++k) {
    b.inj[k].assign(kTrInjFlits, 0);
    b.write(reg_tr_inj_hdr(k), 1);
    EXPECT_TRUE(b.moved.none()) << "a header into full injection FIFO " << k;
    EXPECT_EQ(b.errors(), bit(kTrErrInjFull));
    b.clear_errors();
    b.inj[k].assign(kTrInjFlits - 3, 0);  // 3 free
    b.write_vector(reg_tr_inj_chunk(k), {1, 2, 3, 4});
    EXPECT_TRUE(b.moved.none()) << "a chunk into injection FIFO " << k << " with 3 free flits";
    EXPECT_EQ(b.errors(), bit(kTrErrInjFull));
    b.clear_errors();
    b.write(reg_tr_inj_hdr(k), 9);  // a header fits
    EXPECT_EQ(b.moved.push_fifo, int(k));
    EXPECT_EQ(b.errors(), 0u);
    b.inj[k].pop_front();
    b.inj[k].pop_front();  // 4 free
    b.write_vector(reg_tr_inj_chunk(k), {1, 2, 3, 4});
    EXPECT_EQ(b.moved.push_fifo, int(k));
    EXPECT_EQ(b.inj[k].size(), kTrInjFlits);
    EXPECT_EQ(b.inj[k].back(), 4u);
    EXPECT_EQ(fw.status().inj_free[k], 0u);
    EXPECT_EQ(b.errors(), 0u);
  }
  // The firmware writing a packet without looking: the header fits, the chunks do not.
  b.inj[0].assign(kTrInjFlits - 2, 0);
  fw.inject(header(2, 1), std::vector<uint64_t>(8, 3), 0);
  EXPECT_EQ(b.inj[0].size(), kTrInjFlits - 1) << "only the header went in";
  try {
    fw.check();
    ADD_FAILURE() << "no error reported";
  } catch (const fw::HardwareError& e) {
    EXPECT_EQ(e.bits(), bit(kTrErrInjFull));
    EXPECT_EQ(e.node(), 5u);
    EXPECT_NE(std::string(e.what()).find("injection FIFO full"), std::string::npos) << e.what();
  }
  fw.clear_errors(bit(kTrErrInjFull));
  EXPECT_NO_THROW(fw.check());
}

// ------------------------------------------------------------------ reception
TEST(TR_REGS, TheFirmwareReceivesPacketsFromEachReceptionFifo) {
  std::mt19937_64 rng(test_seed());
  TrRegsBench b;
  fw::Personality me;
  fw::TorusFirmware fw(b, me);
  for (unsigned k = 0; k < kNumRcv; ++k) {
    const unsigned other = (k + 1) % kNumRcv;
    b.rcv[other] = {0x77, 0x78, 0x79, 0x7a, 0x7b};
    std::vector<std::pair<fw::TorusHeader, std::vector<uint64_t>>> sent;
    for (unsigned i = 0; i < 4; ++i) {
      const fw::TorusHeader h = header(1 + (i * 5 + k) % 8, i, k == kRcvFifos);
      sent.emplace_back(h, payload_of(rng, h));
      b.deliver(k, h, sent.back().second);
    }
    const auto first = fw.try_receive(slot_of(k));
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->header.encode(), sent[0].first.encode());
    EXPECT_EQ(first->payload, sent[0].second);
    const std::vector<fw::TorusPacket> rest = fw.receive_available(slot_of(k));
    ASSERT_EQ(rest.size(), 3u);
    for (unsigned i = 0; i < 3; ++i) {
      EXPECT_EQ(rest[i].header.encode(), sent[1 + i].first.encode()) << "packet " << 1 + i;
      EXPECT_EQ(rest[i].payload, sent[1 + i].second) << "packet " << 1 + i;
    }
    EXPECT_TRUE(b.rcv[k].empty());
    EXPECT_EQ(b.rcv[other].size(), 5u) << "the other reception FIFO";
    b.rcv[other].clear();
  }
  EXPECT_NO_THROW(fw.check());
}

// A packet whose chunks are still arriving: the firmware reads its header and waits; no
// read of what is not there.
TEST(TR_REGS, TheFirmwareWaitsForTheRestOfAPacket) {
  std::mt19937_64 rng(test_seed());
  TrRegsBench b;
  fw::Personality me;
  fw::TorusFirmware fw(b, me);
  const fw::TorusHeader h = header(3, 9);
  const std::vector<uint64_t> p = payload_of(rng, h);
  b.rcv[0].push_back(h.encode());
  b.rcv[0].insert(b.rcv[0].end(), p.begin(), p.begin() + 6);  // a chunk and a half
  EXPECT_FALSE(fw.try_receive(0).has_value());
  EXPECT_TRUE(fw.mid_packet(0));
  EXPECT_EQ(b.rcv[0].size(), 6u) << "the header was read, no chunk";
  b.rcv[0].insert(b.rcv[0].end(), p.begin() + 6, p.end());
  const auto got = fw.try_receive(0);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->header.encode(), h.encode());
  EXPECT_EQ(got->payload, p);
  EXPECT_EQ(b.errors(), 0u);
}

// A header read needs one flit in the FIFO and a chunk read four: otherwise nothing is
// popped, the read answers zero (never the FIFO's stale words) and TrErrRcvEmpty is set.
TEST(TR_REGS, RefusesAReadOfMoreThanAReceptionFifoHolds) {
  TrRegsBench b;
  for (unsigned k = 0; k < kNumRcv; ++k) {
    const unsigned other = (k + 1) % kNumRcv;
    b.rcv[other] = {0x42, 0x43, 0x44, 0x45};  // the other FIFO's words are not this one's
    EXPECT_EQ(b.read(reg_tr_rcv_hdr(slot_of(k))), 0u);
    EXPECT_TRUE(b.moved.none());
    EXPECT_EQ(b.errors(), bit(kTrErrRcvEmpty));
    b.clear_errors();
    b.rcv[k] = {10, 11, 12};
    EXPECT_EQ(b.read_vector(reg_tr_rcv_chunk(slot_of(k))), (Vector{0, 0, 0, 0}));
    EXPECT_TRUE(b.moved.none()) << "a chunk read of reception FIFO " << k << " holding 3 flits";
    EXPECT_EQ(b.errors(), bit(kTrErrRcvEmpty));
    b.clear_errors();
    EXPECT_EQ(b.read(reg_tr_rcv_hdr(slot_of(k))), 10u);
    EXPECT_EQ(b.moved.pop_fifo, int(k));
    EXPECT_EQ(b.moved.popped, 1u);
    b.rcv[k].push_back(13);
    b.rcv[k].push_back(14);
    EXPECT_EQ(b.read_vector(reg_tr_rcv_chunk(slot_of(k))), (Vector{11, 12, 13, 14})) << "the oldest word in word 0";
    EXPECT_EQ(b.moved.pop_fifo, int(k));
    EXPECT_EQ(b.moved.popped, 4u);
    EXPECT_TRUE(b.rcv[k].empty());
    EXPECT_EQ(b.rcv[other].size(), 4u);
    EXPECT_EQ(b.errors(), 0u);
    b.rcv[other].clear();
  }
}

// The reception slots between the model's last normal FIFO and the high-priority one name
// no FIFO: a read there is an unmapped access (TrErrBadAccess) that pops nothing.
TEST(TR_REGS, ReceptionSlotsWithoutAFifoAreUnmapped) {
  TrRegsBench b;
  for (auto& q : b.rcv) q = {1, 2, 3, 4, 5};
  unsigned tried = 0;
  for (unsigned slot = kRcvFifos; slot < kTrRcvPrio; ++slot, ++tried) {
    EXPECT_EQ(b.read(reg_tr_rcv_hdr(slot)), 0u);
    EXPECT_TRUE(b.moved.none()) << "slot " << slot;
    EXPECT_EQ(b.errors(), bit(kTrErrBadAccess)) << "slot " << slot;
    b.clear_errors();
    EXPECT_EQ(b.read_vector(reg_tr_rcv_chunk(slot)), (Vector{0, 0, 0, 0}));
    EXPECT_TRUE(b.moved.none()) << "slot " << slot;
    EXPECT_EQ(b.errors(), bit(kTrErrBadAccess)) << "slot " << slot;
    b.clear_errors();
  }
  EXPECT_EQ(tried, kTrRcvNormalMax - kRcvFifos);
  for (const auto& q : b.rcv) EXPECT_EQ(q.size(), 5u);
  // The firmware refuses a slot beyond the map.
  fw::Personality me;
  fw::TorusFirmware fw(b, me);
  EXPECT_THROW(fw.try_receive(kTrRcvFifos), std::invalid_argument);
}

TEST(TR_REGS, StatusShowsEveryFifosLevel) {
  std::mt19937_64 rng(test_seed());
  TrRegsBench b;
  fw::Personality me;
  fw::TorusFirmware fw(b, me);
  for (int round = 0; round < 100; ++round) {
    for (auto& q : b.inj) q.assign(rng() % 3 == 0 ? (rng() % 2) * kTrInjFlits : rng() % (kTrInjFlits + 1), 0);
    for (auto& q : b.rcv) q.assign(rng() % 3 == 0 ? (rng() % 2) * kTrRcvFlits : rng() % (kTrRcvFlits + 1), 0);
    const fw::TorusStatus s = fw.status();  // step() checks status_o as well
    for (unsigned k = 0; k < kTrInjFifos; ++k) EXPECT_EQ(s.inj_free[k], kTrInjFlits - b.inj[k].size()) << k;
    for (unsigned k = 0; k < kNumRcv; ++k) EXPECT_EQ(s.rcv[slot_of(k)], b.rcv[k].size()) << k;
    for (unsigned k = 1; k < kRcvFifos; ++k) EXPECT_EQ(s.more >> (k - 1) & 1u, !b.rcv[k].empty()) << k;
    EXPECT_EQ(s.more >> (kRcvFifos - 1), 0u) << "RcvMore bits of FIFOs not built";
    EXPECT_EQ(b.read(kRegTrRcvLevels), levels_word(b.rcv_levels()));
    EXPECT_FALSE(s.error);
  }
  b.router_error(static_cast<unsigned>(bit(kTrErrBadDest)));
  EXPECT_TRUE(fw.status().error);
  EXPECT_EQ(b->status_o >> kTrStatusErrBit, 1u);
}

// ------------------------------------------------------------------ errors
TEST(TR_REGS, ErrorBitsLatchUntilClearedByWritingOnes) {
  TrRegsBench b;
  fw::Personality me;
  fw::TorusFirmware fw(b, me);
  // The router's pulses, each bit on its own.
  for (unsigned e = 0; e < kTrRouterErrBits; ++e) {
    b.router_error(1u << e);
    b.run(3);
    EXPECT_EQ(b->err_o, bit(e)) << "bit " << e << " after its pulse";
    EXPECT_EQ(fw.errors(), bit(e));
    EXPECT_TRUE(fw.status().error);
    fw.clear_errors(~bit(e));  // every other bit: this one stays
    EXPECT_EQ(fw.errors(), bit(e));
    fw.clear_errors(bit(e));
    EXPECT_EQ(fw.errors(), 0u);
    EXPECT_FALSE(fw.status().error);
  }
  // The block's own: each refusal sets its bit, which stays.
  b.write(reg_tr_inj_hdr(0) + kTrInjFifos * kRegTrInjHdrStride, 0);  // a fourth injection FIFO: unmapped
  b.read(reg_tr_rcv_hdr(kTrRcvPrio));                                 // empty
  b.inj[2].assign(kTrInjFlits, 0);
  b.write(reg_tr_inj_hdr(2), 0);  // full
  b.run(2);
  EXPECT_EQ(fw.errors(), bit(kTrErrBadAccess) | bit(kTrErrRcvEmpty) | bit(kTrErrInjFull));
  try {
    fw.check();
    ADD_FAILURE() << "no error reported";
  } catch (const fw::HardwareError& e) {
    EXPECT_EQ(e.bits(), bit(kTrErrBadAccess) | bit(kTrErrRcvEmpty) | bit(kTrErrInjFull));
    for (const char* name : {"injection FIFO full", "reception FIFO empty", "bad register access"})
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
  // Bits accumulate; a clear takes only the bits written as ones.
  b.router_error(static_cast<unsigned>(bit(kTrErrLinkProto) | bit(kTrErrDeposit)));
  fw.clear_errors(bit(kTrErrRcvEmpty) | bit(kTrErrDeposit));
  EXPECT_EQ(fw.errors(), bit(kTrErrBadAccess) | bit(kTrErrInjFull) | bit(kTrErrLinkProto));
  // An error in the cycle its bit is cleared stays set: a router pulse, and the clear's own
  // cycle cannot refuse anything else.
  b->router_err_i = static_cast<uint8_t>(bit(kTrErrLinkProto));
  fw.clear_errors(kAllErrors);
  b->router_err_i = 0;
  EXPECT_EQ(fw.errors(), bit(kTrErrLinkProto));
  // Bits above RegTrErr's are not there to clear or read.
  fw.clear_errors(~kAllErrors);
  EXPECT_EQ(fw.errors(), bit(kTrErrLinkProto));
  EXPECT_EQ(b->err_o, bit(kTrErrLinkProto));
  fw.clear_errors(kAllErrors);
  EXPECT_EQ(b->err_o, 0u);
}

// ------------------------------------------------------------------ bus timing
TEST(TR_REGS, ReadDataComesTheCycleAfterTheReadAndOnlyThen) {
  TrRegsBench b;
  b.pins({9, 8, 7}, {10, 10, 10}, 0b10);
  b->req_i = 1;
  b->we_i = 0;
  b->addr_i = kRegTrConfig;
  b.eval();
  EXPECT_FALSE(b->rvalid_o) << "not in the read's own cycle";
  b.step();
  EXPECT_TRUE(b->rvalid_o);
  EXPECT_EQ(wide_bits(b->rdata_o.data(), 0, 64), config_word({9, 8, 7}, {10, 10, 10}, 0b10));
  b->req_i = 0;
  b.step();
  EXPECT_FALSE(b->rvalid_o) << "one cycle per read";
  b.write(kRegTrErrClear, 0);
  EXPECT_FALSE(b->rvalid_o) << "a write returns nothing";
  // Reads back to back, each answered the cycle after it, a pop's data the head it popped.
  b.rcv[kRcvFifos] = {100, 101, 102, 103, 104, 105};
  EXPECT_EQ(b.read(reg_tr_rcv_hdr(kTrRcvPrio)), 100u);
  EXPECT_EQ(b.read(reg_tr_rcv_hdr(kTrRcvPrio)), 101u);
  EXPECT_EQ(b.read_vector(reg_tr_rcv_chunk(kTrRcvPrio)), (Vector{102, 103, 104, 105}));
  EXPECT_EQ(b.read(kRegTrErr), 0u);
  // The push happens at the write's own edge: the status read next shows it.
  b.write(reg_tr_inj_hdr(0), 1);
  EXPECT_EQ(b.moved.push_fifo, 0);
  EXPECT_EQ(get_field(b.status(), kTrStatusInjFreeLsb, kTrStatusInjFreeW), kTrInjFlits - 1);
}

// ------------------------------------------------------------------ random
// The register map as regmap/collnet.json describes it, for the random test.
struct TrRegsModel {
  uint64_t err = 0;

  Vector access(bool we, uint32_t addr, const Vector& wdata, const TrRegsBench& b, TrRegsBench::Moves& mv,
                unsigned router, uint64_t config) {
    Vector r{};
    uint64_t raised = router, clear = 0;
    bool mapped = false;
    for (unsigned k = 0; k < kTrInjFifos; ++k) {
      const size_t free = kTrInjFlits - b.inj[k].size();
      if (addr == reg_tr_inj_hdr(k) || addr == reg_tr_inj_chunk(k)) {
        mapped = we;
        const unsigned n = addr == reg_tr_inj_hdr(k) ? 1 : kVectorWords;
        if (we && free < n) {
          raised |= bit(kTrErrInjFull);
        } else if (we) {
          mv.push_fifo = static_cast<int>(k);
          mv.pushed.assign(wdata.begin(), wdata.begin() + n);
        }
      }
    }
    for (unsigned k = 0; k < kNumRcv; ++k) {
      const unsigned slot = slot_of(k);
      if (addr == reg_tr_rcv_hdr(slot) || addr == reg_tr_rcv_chunk(slot)) {
        mapped = !we;
        const unsigned n = addr == reg_tr_rcv_hdr(slot) ? 1 : kVectorWords;
        if (!we && b.rcv[k].size() < n) {
          raised |= bit(kTrErrRcvEmpty);
        } else if (!we) {
          mv.pop_fifo = static_cast<int>(k);
          mv.popped = n;
          for (unsigned j = 0; j < n; ++j) r[j] = b.rcv[k][j];
        }
      }
    }
    if (we && addr == kRegTrErrClear) {
      mapped = true;
      clear = wdata[0] & kAllErrors;
    }
    if (!we && addr == kRegTrStatus) mapped = true, r[0] = b.want_status(err != 0);
    if (!we && addr == kRegTrErr) mapped = true, r[0] = err;
    if (!we && addr == kRegTrConfig) mapped = true, r[0] = config;
    if (!we && addr == kRegTrSizes) mapped = true, r[0] = sizes_word();
    if (!we && addr == kRegTrRcvLevels) mapped = true, r[0] = levels_word(b.rcv_levels());
    if (!mapped) raised |= bit(kTrErrBadAccess);
    err = (err & ~clear) | raised;
    return r;
  }
};

TEST(TR_REGS, RandomAccessesMatchTheRegisterMap) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  TrRegsBench b;
  TrRegsModel model;
  std::vector<uint32_t> mapped;
  for (const RegisterInfo& r : register_rows(in_win_tr)) mapped.push_back(r.addr);
  unsigned reads = 0, pushes = 0, pops = 0, refused = 0;
  // How fast the router drains injection and fills reception behind the block's back,
  // changed now and then, and now and then new FIFO levels: nearly empty, nearly full or
  // any, so that every access meets empty, full and in-between FIFOs.
  unsigned drain = 0, fill = 0;
  auto level = [&](unsigned depth) { return random_fifo_level(rng, depth); };
  std::array<unsigned, 3> coord{1, 2, 3}, dims{4, 4, 4};
  unsigned down = 0;
  for (int i = 0; i < 20000; ++i) {
    if (i % 200 == 0) {
      drain = static_cast<unsigned>(rng() % 4) * 2;
      fill = static_cast<unsigned>(rng() % 4) * 2;
      for (auto& q : b.inj) q.resize(level(kTrInjFlits), 0);
      for (auto& q : b.rcv) {
        q.resize(level(kTrRcvFlits));
        for (auto& w : q) w = rng();
      }
      for (unsigned k = 0; k < 3; ++k) {
        dims[k] = 1 + static_cast<unsigned>(rng() % 255);
        coord[k] = static_cast<unsigned>(rng() % dims[k]);
      }
      down = static_cast<unsigned>(rng() % 64);
      b.pins(coord, dims, down);
    }
    for (auto& q : b.inj)
      for (unsigned k = drain ? rng() % drain : 0; k > 0 && !q.empty(); --k) q.pop_front();
    for (auto& q : b.rcv)
      for (unsigned k = fill ? rng() % fill : 0; k > 0 && q.size() < kTrRcvFlits; --k) q.push_back(rng());
    // An access: the mapped registers, aligned and misaligned addresses in the window, any
    // address.
    uint32_t addr;
    switch (rng() % 8) {
      case 0: addr = kWinTrBase + static_cast<uint32_t>(rng() % 0x100); break;
      case 1: addr = static_cast<uint32_t>(rng() % (1u << kBusAddrBits)) & ~7u; break;
      default: addr = mapped[rng() % mapped.size()]; break;
    }
    const bool we = rng() % 2;
    Vector wdata{rng(), rng(), rng(), rng()};
    if (rng() % 2) wdata[0] = rng() % (2 * kAllErrors + 2);  // shaped like an error clear
    // Router pulses, but not in the cycle of a clear (ErrorBitsLatchUntilClearedByWritingOnes
    // has that case).
    unsigned router = 0;
    if (rng() % 16 == 0 && !(we && addr == kRegTrErrClear)) router = 1u << (rng() % kTrRouterErrBits);
    TrRegsBench::Moves want;
    const Vector want_r = model.access(we, addr, wdata, b, want, router, config_word(coord, dims, down));
    b->router_err_i = static_cast<uint8_t>(router);
    const Vector r = b.access(we, addr, wdata);
    b->router_err_i = 0;
    ASSERT_TRUE(b.moved == want) << "access " << i << ": " << (we ? "write" : "read") << " of 0x" << std::hex << addr
                                 << " moved the wrong FIFO or words";
    if (!we) ASSERT_EQ(r, want_r) << "access " << i << ": read of 0x" << std::hex << addr;
    ASSERT_EQ(b->err_o, model.err) << "access " << i << ": " << (we ? "write" : "read") << " of 0x" << std::hex << addr;
    reads += !we;
    pushes += want.push_fifo >= 0;
    pops += want.pop_fifo >= 0;
    refused += model.err != 0;
    // Clear now and then, so that refusals keep showing.
    if (rng() % 8 == 0) {
      b.write(kRegTrErrClear, kAllErrors);
      model.err = 0;
    }
  }
  EXPECT_GT(reads, 5000u);
  EXPECT_GT(pushes, 1000u);
  EXPECT_GT(pops, 1000u);
  EXPECT_GT(refused, 1000u);
  EXPECT_FALSE(b.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
