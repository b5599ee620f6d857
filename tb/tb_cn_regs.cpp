// SPDX-License-Identifier: Apache-2.0
// cn_regs on its own: the adapter's register block. The bench is a fw::RegisterBus on the
// block's bus ports, so the real firmware (fw::TreeFirmware) and the generated register map
// (firmware/regmap.hpp) drive it, and plays the FIFOs behind it (cn_vc's in the adapter) as
// queues of the block's default depths. Covered: identification, and every register of
// the generated register table (firmware/regmap_table.hpp) with its reset value, access
// kind and privilege (tb/register_table_checks.hpp); the class routes (privilege, tree
// shape, stray bits, every class driven on routes_o), writes turned into pushes and reads
// into pops of the addressed VC's FIFOs (single words, vectors of four words all or none,
// identity requests), the system VC's privileged window, refused accesses that change
// nothing but their error bit, sticky error bits and their clearing, the details of the
// first header error, the bus timing; 20,000 random accesses against a model of the
// register map.
#include <array>
#include <deque>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vcn_regs.h"
#include "firmware/packet.hpp"
#include "firmware/hardware_sizes.hpp"
#include "firmware/regmap.hpp"
#include "firmware/tree_firmware.hpp"
#include "tb/register_table_checks.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

using namespace fw::regmap;
using Vector = fw::RegisterBus::Vector;

constexpr unsigned kInjPackets = 8;  // cn_regs default InjPackets
constexpr unsigned kRcvPackets = 8;  // cn_regs default RcvPackets
constexpr unsigned kInjWords = kInjPackets * kPayloadFlits;
constexpr unsigned kRcvWords = kRcvPackets * kPayloadFlits;
// The widths of the FIFO level inputs (cn_regs's localparams).
constexpr unsigned kInjHdrCntW = fw::level_bits(kInjPackets), kInjPlCntW = fw::level_bits(kInjWords);
constexpr unsigned kRcvHdrCntW = fw::level_bits(kRcvPackets), kRcvPlCntW = fw::level_bits(kRcvWords);

constexpr uint64_t bit(unsigned b) { return uint64_t{1} << b; }
constexpr uint64_t kAllErrors = field_mask(kErrBits);
constexpr uint64_t kHeaderErrors = bit(kErrHdrMismatch) | bit(kErrBadRoute) | bit(kErrBadOpcode) | bit(kErrBadSize);

// A FIFO register of VC `vc`: the system VC's answer in its window.
uint32_t fifo_reg(uint32_t addr, unsigned vc) { return vc == kVcSystem ? addr + kRegSysVcOffset : addr; }

// An injection header FIFO entry (cn_inj_source): [31:0] header, [32] identity, [48:33] packets.
uint64_t entry(uint32_t hdr, bool identity, unsigned packets) {
  return uint64_t{hdr} | uint64_t{identity} << 32 | uint64_t{packets} << 33;
}

uint32_t header(unsigned cls, fw::AluOp op, unsigned tag) {
  fw::Header h;
  h.cls = cls;
  h.op = op;
  h.tag = tag;
  return h.encode();
}

uint64_t route(unsigned up, unsigned down, bool src, bool dst) {
  fw::ClassRoute r;
  r.up_link = up;
  r.down_mask = down;
  r.local_source = src;
  r.local_destination = dst;
  return r.encode();
}

// A value into bits [lsb, lsb + width) of a narrow port.
template <class T>
void put(T& port, unsigned lsb, unsigned width, uint64_t v) {
  port = static_cast<T>(set_field(port, lsb, width, v));
}

class RegsBench : public ClockedHarness<Vcn_regs>, public BlockRegisterBus<RegsBench> {
 public:
  // The FIFOs of one VC behind the block, as queues.
  struct Fifos {
    std::deque<uint64_t> inj_entries;  // see entry()
    std::deque<uint64_t> inj_words;
    std::deque<uint32_t> rcv_hdrs;
    std::deque<uint64_t> rcv_words;
  };
  std::array<Fifos, kNumVcs> fifo;

  // What one cycle moved between the block and the FIFOs.
  struct Moves {
    int entry_vc = -1;  // the VC a header entry was pushed into, -1 if none
    uint64_t entry = 0;
    int words_vc = -1;  // payload words pushed
    std::vector<uint64_t> words;
    int hdr_pop_vc = -1;  // a received header popped
    int words_pop_vc = -1;  // received payload words popped
    unsigned words_popped = 0;
    bool operator==(const Moves& o) const {
      return entry_vc == o.entry_vc && entry == o.entry && words_vc == o.words_vc && words == o.words &&
             hdr_pop_vc == o.hdr_pop_vc && words_pop_vc == o.words_pop_vc && words_popped == o.words_popped;
    }
    bool none() const { return *this == Moves{}; }
  };
  Moves moved;  // by the last cycle

  // ---------------------------------------------------------------- bus
  // BlockRegisterBus (tb_harness.hpp): each access one step() of this bench, priv_i driven.
  uint64_t errors() { return read(kRegErr); }
  void clear_errors() { write(kRegErrClear, ~0ull); }
  uint64_t status(unsigned vc = kVcUser) { return read(fifo_reg(kRegStatus, vc), vc == kVcSystem); }
  uint64_t route_of(unsigned cls) { return wide_bits(model().routes_o.data(), cls * kRouteBits, kRouteBits); }

  // The errors the combine engines and links report in the next cycle (a pulse).
  void report(uint64_t bits, uint32_t expected = 0, uint32_t got = 0, unsigned source = 0) {
    auto& m = model();
    m.err_set_i = static_cast<uint16_t>(bits);
    m.err_expected_i = expected;
    m.err_got_i = got;
    m.err_source_i = static_cast<uint8_t>(source);
    step();
    m.err_set_i = 0;
  }

  // One clock cycle: offers the FIFOs' levels and heads, then moves at the edge what the
  // block pushed and popped.
  void step() {
    auto& m = model();
    m.inj_hdr_full_i = 0;
    m.inj_hdr_count_i = m.inj_pl_count_i = m.rcv_hdr_count_i = m.rcv_pl_count_i = 0;
    m.rcv_hdr_i = 0;
    for (unsigned v = 0; v < kNumVcs; ++v) {
      const Fifos& f = fifo[v];
      EXPECT_LE(f.inj_entries.size(), kInjPackets);
      EXPECT_LE(f.inj_words.size(), kInjWords);
      EXPECT_LE(f.rcv_hdrs.size(), kRcvPackets);
      EXPECT_LE(f.rcv_words.size(), kRcvWords);
      put(m.inj_hdr_full_i, v, 1, f.inj_entries.size() >= kInjPackets);
      put(m.inj_hdr_count_i, v * kInjHdrCntW, kInjHdrCntW, f.inj_entries.size());
      put(m.inj_pl_count_i, v * kInjPlCntW, kInjPlCntW, f.inj_words.size());
      put(m.rcv_hdr_count_i, v * kRcvHdrCntW, kRcvHdrCntW, f.rcv_hdrs.size());
      put(m.rcv_pl_count_i, v * kRcvPlCntW, kRcvPlCntW, f.rcv_words.size());
      // The heads; what a FIFO holds no more of reads as junk, which the block must not pass on.
      put(m.rcv_hdr_i, v * 32, 32, f.rcv_hdrs.empty() ? 0xdeadbeefu : f.rcv_hdrs.front());
      for (unsigned k = 0; k < kVectorWords; ++k)
        set_wide_bits(m.rcv_pl_i.data(), (v * kVectorWords + k) * 64, 64,
                      k < f.rcv_words.size() ? f.rcv_words[k] : 0xbadbadbadbadbadbull);
    }
    eval();
    Moves mv;
    auto vc_of = [](unsigned mask, const char* what) {
      EXPECT_LE(mask, 2u) << what << " into both VCs at once";
      return mask == 0 ? -1 : mask == 1 ? 0 : 1;
    };
    mv.entry_vc = vc_of(m.inj_hdr_push_o, "header pushes");
    mv.words_vc = vc_of(m.inj_pl_push_o, "payload pushes");
    mv.hdr_pop_vc = vc_of(m.rcv_hdr_pop_o, "header pops");
    mv.words_pop_vc = vc_of(m.rcv_pl_pop_o, "payload pops");
    if (mv.entry_vc >= 0) mv.entry = m.inj_entry_o;
    if (mv.words_vc >= 0)
      for (unsigned k = 0; k < m.inj_pl_n_o; ++k) mv.words.push_back(wide_bits(m.inj_data_o.data(), 64 * k, 64));
    if (mv.words_pop_vc >= 0) mv.words_popped = m.rcv_pl_n_o;
    EXPECT_TRUE(m.ready_o) << "every access completes in its cycle";
    tick();
    if (mv.entry_vc >= 0) {
      auto& q = fifo[mv.entry_vc].inj_entries;
      EXPECT_LT(q.size(), kInjPackets) << "a header pushed into a full FIFO";
      q.push_back(mv.entry);
    }
    if (mv.words_vc >= 0) {
      auto& q = fifo[mv.words_vc].inj_words;
      EXPECT_LE(q.size() + mv.words.size(), kInjWords) << "payload pushed beyond the FIFO's depth";
      q.insert(q.end(), mv.words.begin(), mv.words.end());
    }
    if (mv.hdr_pop_vc >= 0) {
      auto& q = fifo[mv.hdr_pop_vc].rcv_hdrs;
      EXPECT_FALSE(q.empty()) << "a header popped from an empty FIFO";
      if (!q.empty()) q.pop_front();
    }
    if (mv.words_pop_vc >= 0) {
      auto& q = fifo[mv.words_pop_vc].rcv_words;
      EXPECT_LE(mv.words_popped, q.size()) << "payload popped beyond what the FIFO holds";
      for (unsigned k = 0; k < mv.words_popped && !q.empty(); ++k) q.pop_front();
    }
    moved = mv;
  }
  void run(unsigned cycles) {
    for (unsigned i = 0; i < cycles; ++i) step();
  }
};

// The generated register table's checks over the adapter's rows (its window, the system VC's
// inside it), asking after every refused access whether a FIFO moved.
RegisterTableChecks table_checks(RegsBench& b) {
  return RegisterTableChecks(b, register_rows(in_win_cn),
                             [&b](const RegisterInfo&) { return b.moved.none() ? "" : "a FIFO moved"; });
}

// ------------------------------------------------------------------ identification and reset
TEST(CnRegs, IdentifiesItself) {
  RegsBench b;
  EXPECT_EQ(b.read(kRegId), kRegIdValue);
  EXPECT_EQ(b.errors(), 0u);
  fw::TreeFirmware tree(b, fw::Personality{});
  EXPECT_NO_THROW(tree.probe());
}

// The reset value of every register that has one, from the register table; the routes on
// routes_o too.
TEST(CnRegs, EveryRegisterHasItsResetValue) {
  RegsBench b;
  EXPECT_EQ(b->err_o, 0u);
  EXPECT_FALSE(b->rvalid_o);
  RegisterTableChecks check = table_checks(b);
  EXPECT_EQ(check.reset_values(), std::vector<std::string>{});
  EXPECT_GT(check.rows().size(), kNumClasses) << "the table holds the adapter's registers";
  for (unsigned c = 0; c < kNumClasses; ++c) EXPECT_EQ(b.route_of(c), 0u) << "class " << c << " on routes_o";
  EXPECT_EQ(b.errors(), 0u) << "reading every register is no error";
  EXPECT_TRUE(b.moved.none());
}

TEST(CnRegs, ReportsEmptyFifosAfterReset) {
  RegsBench b;
  for (unsigned vc = 0; vc < kNumVcs; ++vc) {
    const uint64_t s = b.status(vc);
    EXPECT_EQ(get_field(s, kStatusInjHdrFreeLsb, kStatusInjHdrFreeW), kInjPackets) << "VC " << vc;
    EXPECT_EQ(get_field(s, kStatusInjDataFreeLsb, kStatusInjDataFreeW), kInjWords) << "VC " << vc;
    EXPECT_EQ(get_field(s, kStatusRcvHdrLsb, kStatusRcvHdrW), 0u) << "VC " << vc;
    EXPECT_EQ(get_field(s, kStatusRcvDataLsb, kStatusRcvDataW), 0u) << "VC " << vc;
    EXPECT_EQ(get_field(s, kStatusErrBit, 1), 0u) << "VC " << vc;
  }
}

TEST(CnRegs, OrdinaryRegistersAnswerInWordZeroOfTheWideBus) {
  RegsBench b;
  b.report(bit(kErrHdrMismatch), 0x11111111, 0x22222222, 0b101);
  EXPECT_EQ(b.read_vector(kRegId), (Vector{kRegIdValue, 0, 0, 0}));
  for (uint32_t addr : {kRegStatus, kRegErr, kRegErrInfo, kRegErrSource}) {
    const Vector v = b.read_vector(addr);
    EXPECT_NE(v[0], 0u) << "register 0x" << std::hex << addr;
    EXPECT_EQ(v[1] | v[2] | v[3], 0u) << "register 0x" << std::hex << addr;
  }
  b.write(reg_route_base(4), route(0, 0b110, true, true));
  EXPECT_EQ(b.read_vector(reg_route_base(4)), (Vector{route(0, 0b110, true, true), 0, 0, 0}));
  b.fifo[kVcUser].rcv_hdrs.push_back(0x12345678);
  EXPECT_EQ(b.read_vector(kRegRcvHdr), (Vector{0x12345678, 0, 0, 0}));
  // The upper words of an ordinary write are ignored: a route with them set is still a route.
  b.write_vector(reg_route_base(5), {route(1, 0b001, true, false), ~0ull, ~0ull, ~0ull});
  EXPECT_EQ(b.read(reg_route_base(5)), route(1, 0b001, true, false));
  EXPECT_EQ(b.errors(), bit(kErrHdrMismatch));
}

// ------------------------------------------------------------------ class routes
TEST(CnRegs, EveryClassRouteIsStoredAndDriven) {
  std::mt19937_64 rng(test_seed());
  RegsBench b;
  std::array<uint64_t, kNumClasses> want{};
  for (unsigned c = 0; c < kNumClasses; ++c) {
    const unsigned up = static_cast<unsigned>(rng() % 4);
    unsigned down = static_cast<unsigned>(rng() % 8) & ~(up < 3 ? 1u << up : 0u);
    if (down == 7) down = 3;
    want[c] = route(up, down, rng() % 2, rng() % 2);
    b.write(reg_route_base(c), want[c], c >= kFirstPrivClass);
  }
  for (unsigned c = 0; c < kNumClasses; ++c) {
    EXPECT_EQ(b.read(reg_route_base(c)), want[c]) << "class " << c;
    EXPECT_EQ(b.route_of(c), want[c]) << "class " << c << " on routes_o";
  }
  fw::TreeFirmware tree(b, fw::Personality{});
  for (unsigned c = 0; c < kNumClasses; ++c)
    EXPECT_EQ(tree.read_class_route(c).encode(), want[c]) << "class " << c << " read by the firmware";
  EXPECT_EQ(b.errors(), 0u);
}

TEST(CnRegs, SystemClassRoutesNeedThePrivilegedBit) {
  RegsBench b;
  const uint64_t r = route(0, 0b110, true, true);
  b.write(reg_route_base(12), r, /*priv=*/false);
  EXPECT_EQ(b.read(reg_route_base(12)), 0u) << "unprivileged write changed a system class";
  EXPECT_EQ(b.errors(), bit(kErrPriv));
  EXPECT_EQ(get_field(b.status(), kStatusErrBit, 1), 1u);
  b.clear_errors();
  EXPECT_EQ(b.errors(), 0u);
  b.write(reg_route_base(12), r, /*priv=*/true);
  EXPECT_EQ(fw::ClassRoute::decode(b.read(reg_route_base(12))).down_mask, 0b110u);
  b.write(reg_route_base(11), r, /*priv=*/false);  // a user class needs no privilege
  EXPECT_EQ(fw::ClassRoute::decode(b.read(reg_route_base(11))).down_mask, 0b110u);
  EXPECT_EQ(b.errors(), 0u);
  for (unsigned c = kFirstPrivClass; c < kNumClasses; ++c) {
    b.write(reg_route_base(c), route(1, 0b001, false, true));
    EXPECT_EQ(b.errors(), bit(kErrPriv)) << "class " << c;
    EXPECT_EQ(b.read(reg_route_base(c)), c == 12 ? r : 0u) << "class " << c;
    b.clear_errors();
  }
  // The firmware reports the refusal and clears it.
  fw::TreeFirmware tree(b, fw::Personality{});
  try {
    tree.configure_class_route(13, fw::ClassRoute::decode(r));
    ADD_FAILURE() << "an unprivileged write to class 13 was not refused";
  } catch (const fw::HardwareError& e) {
    EXPECT_EQ(e.bits(), bit(kErrPriv));
  }
  EXPECT_EQ(b.errors(), 0u);
  EXPECT_NO_THROW(tree.configure_class_route(13, fw::ClassRoute::decode(r), /*privileged=*/true));
  EXPECT_EQ(b.read(reg_route_base(13)), r);
}

TEST(CnRegs, RefusesRoutesThatAreNotTrees) {
  RegsBench b;
  b.write(reg_route_base(3), route(1, 0b010, true, true));  // up link is also a down link
  EXPECT_EQ(b.read(reg_route_base(3)), 0u);
  EXPECT_EQ(b.errors(), bit(kErrBadRouteCfg));
  b.clear_errors();
  b.write(reg_route_base(3), route(kRouteUpNone, 0b111, true, true));  // three children: the ALU has two child inputs
  EXPECT_EQ(b.read(reg_route_base(3)), 0u);
  EXPECT_EQ(b.errors(), bit(kErrBadRouteCfg));
  b.clear_errors();
  b.write(reg_route_base(3), 1ull << 40);  // stray bits
  EXPECT_EQ(b.errors(), bit(kErrBadRouteCfg));
  EXPECT_EQ(b.read(reg_route_base(3)), 0u);
}

// All 128 values of a route, and each with a stray bit above it: taken exactly when the up
// link is not a down link and at most two links go down; a refused write keeps the old
// route. A system class without privilege is refused for privilege, not for its shape.
TEST(CnRegs, TakesExactlyTheTreeRoutes) {
  RegsBench b;
  const uint64_t old = route(2, 0b011, true, false);
  b.write(reg_route_base(7), old);
  unsigned taken = 0;
  for (uint64_t v = 0; v < (1u << kRouteBits); ++v) {
    const fw::ClassRoute r = fw::ClassRoute::decode(v);
    const bool tree = (r.up_link == kRouteUpNone || !(r.down_mask >> r.up_link & 1)) && r.down_mask != 0b111;
    b.write(reg_route_base(7), v);
    EXPECT_EQ(b.read(reg_route_base(7)), tree ? v : old) << "route 0x" << std::hex << v;
    EXPECT_EQ(b.errors(), tree ? 0 : bit(kErrBadRouteCfg)) << "route 0x" << std::hex << v;
    b.clear_errors();
    taken += tree;
    b.write(reg_route_base(7), old);
    b.write(reg_route_base(7), v | bit(kRouteBits + static_cast<unsigned>(v % (64 - kRouteBits))));
    EXPECT_EQ(b.read(reg_route_base(7)), old) << "route 0x" << std::hex << v << " with a stray bit";
    EXPECT_EQ(b.errors(), bit(kErrBadRouteCfg));
    b.clear_errors();
    b.write(reg_route_base(14), v);  // unprivileged
    EXPECT_EQ(b.errors(), bit(kErrPriv)) << "route 0x" << std::hex << v;
    b.clear_errors();
  }
  EXPECT_EQ(taken, 4u * (7 + 3 * 4)) << "per source/destination pair: 7 down masks at the root, 4 below each up link";
  EXPECT_EQ(b.read(reg_route_base(14)), 0u);
}

// ------------------------------------------------------------------ addresses
TEST(CnRegs, FlagsUnmappedAddresses) {
  RegsBench b;
  b.write(0x7f8, 1);
  EXPECT_EQ(b.errors(), bit(kErrBadAddr));
  b.clear_errors();
  EXPECT_EQ(b.read(0x070), 0u);
  EXPECT_EQ(b.errors(), bit(kErrBadAddr));
  b.clear_errors();
  EXPECT_EQ(b.read(kRegSizes), table_reset(kRegSizes));  // the sizes the block was built with
  EXPECT_EQ(b.errors(), 0u);
  b.write(kRegSizes, 0);  // read-only
  EXPECT_EQ(b.errors(), bit(kErrBadAddr));
  EXPECT_EQ(b.read(kRegSizes), table_reset(kRegSizes));
  b.clear_errors();
  b.write_vector(kRegRcvVector, {1, 2, 3, 4});  // read-only
  EXPECT_EQ(b.errors(), bit(kErrBadAddr));
  b.clear_errors();
  EXPECT_EQ(b.read(kRegInjVector), 0u);  // write-only
  EXPECT_EQ(b.errors(), bit(kErrBadAddr));
  b.clear_errors();
  // A route register's address is aligned; the bytes inside one are unmapped.
  b.write(reg_route_base(2) + 4, route(0, 0, true, true));
  EXPECT_EQ(b.errors(), bit(kErrBadAddr));
  EXPECT_EQ(b.read(reg_route_base(2)), 0u);
  b.clear_errors();
  EXPECT_EQ(b.read(reg_route_base(2) + 1), 0u);
  EXPECT_EQ(b.errors(), bit(kErrBadAddr));
  b.clear_errors();
  for (uint32_t addr : {0x070u, 0x078u, 0x180u, 0x200u, 0xff8u}) {
    EXPECT_EQ(b.read(addr), 0u) << std::hex << addr;
    EXPECT_EQ(b.errors(), bit(kErrBadAddr)) << std::hex << addr;
    b.clear_errors();
  }
  EXPECT_TRUE(b.moved.none());
}

// A write to a read-only register (in the register table) changes nothing (no register, no
// FIFO) but ErrBadAddr, whatever error state and FIFO levels it meets.
TEST(CnRegs, ReadOnlyRegistersIgnoreWrites) {
  RegsBench b;
  b.report(bit(kErrBadRoute), 0xaaaa5555, 0x5555aaaa, 0b110);
  const uint64_t info = b.read(kRegErrInfo), source = b.read(kRegErrSource);
  for (unsigned vc = 0; vc < kNumVcs; ++vc) {
    b.fifo[vc].rcv_hdrs = {0x1000u + vc, 0x2000u + vc};
    b.fifo[vc].rcv_words = {1, 2, 3, 4, 5, 6};
  }
  const uint64_t status = b.status(), sys_status = b.status(kVcSystem);
  EXPECT_EQ(table_checks(b).read_only_ignore_writes(), std::vector<std::string>{});
  EXPECT_EQ(b.errors(), bit(kErrBadRoute));
  EXPECT_EQ(b.read(kRegId), kRegIdValue);
  EXPECT_EQ(b.read(kRegErrInfo), info);
  EXPECT_EQ(b.read(kRegErrSource), source);
  EXPECT_EQ(b.status(), status);
  EXPECT_EQ(b.status(kVcSystem), sys_status);
  for (unsigned vc = 0; vc < kNumVcs; ++vc) {
    EXPECT_EQ(b.fifo[vc].rcv_hdrs.size(), 2u);
    EXPECT_EQ(b.fifo[vc].rcv_words.size(), 6u);
  }
}

// A read of a write-only register (in the register table) answers zero with ErrBadAddr and
// pushes nothing.
TEST(CnRegs, WriteOnlyRegistersReadAsZero) {
  RegsBench b;
  EXPECT_EQ(table_checks(b).write_only_read_as_zero(), std::vector<std::string>{});
  EXPECT_EQ(b.errors(), 0u);
  for (const auto& f : b.fifo) EXPECT_TRUE(f.inj_entries.empty() && f.inj_words.empty());
}

// Every register the table marks privileged (the system classes' routes, the system VC's
// window) refuses an access without the privileged bit with ErrPriv alone, moving nothing.
TEST(CnRegs, PrivilegedRegistersRefuseUnprivilegedAccesses) {
  RegsBench b;
  for (auto& f : b.fifo) {
    f.rcv_hdrs = {0x1234};
    f.rcv_words = {1, 2, 3, 4};
  }
  EXPECT_EQ(table_checks(b).privileged_refuse_unprivileged(), std::vector<std::string>{});
  EXPECT_EQ(b.errors(), 0u);
  for (const auto& f : b.fifo) {
    EXPECT_EQ(f.rcv_hdrs.size(), 1u);
    EXPECT_EQ(f.rcv_words.size(), 4u);
  }
}

// ------------------------------------------------------------------ FIFO registers
// The firmware of each VC writes a packet (header, payload by vectors and single words) and
// an identity request, and reads a received packet back: each access moves exactly its
// VC's FIFO.
TEST(CnRegs, TheFirmwareMovesEachVcsFifosOnly) {
  std::mt19937_64 rng(test_seed());
  RegsBench b;
  for (fw::Vc vc : {fw::Vc::User, fw::Vc::System}) {
    const unsigned v = static_cast<unsigned>(vc), other = 1 - v;
    fw::TreeFirmware tree(b, fw::Personality{}, vc);
    fw::Header h;
    h.cls = vc == fw::Vc::System ? 12 : 5;
    h.op = fw::AluOp::Max;
    h.tag = 40 + v;
    std::vector<uint64_t> words(kPayloadFlits + 3);  // 8 vector writes, then 3 single words
    for (auto& w : words) w = rng();
    tree.push_header(h);
    ASSERT_EQ(b.fifo[v].inj_entries.size(), 1u) << "VC " << v;
    EXPECT_EQ(b.fifo[v].inj_entries.back(), entry(h.encode(), false, 1));
    tree.push_words(words.data(), words.size());
    EXPECT_EQ(std::vector<uint64_t>(b.fifo[v].inj_words.begin(), b.fifo[v].inj_words.end()), words);
    tree.push_identity(h, 300);
    ASSERT_EQ(b.fifo[v].inj_entries.size(), 2u);
    EXPECT_EQ(b.fifo[v].inj_entries.back(), entry(h.encode(), true, 300));
    const fw::TreeStatus s = tree.status();
    EXPECT_EQ(s.inj_hdr_free, kInjPackets - 2);
    EXPECT_EQ(s.inj_data_free, kInjWords - words.size());
    EXPECT_TRUE(b.fifo[other].inj_entries.empty() && b.fifo[other].inj_words.empty()) << "the other VC's FIFOs";

    // A received packet.
    b.fifo[v].rcv_hdrs.push_back(h.encode());
    for (uint64_t w : words) b.fifo[v].rcv_words.push_back(w);
    b.fifo[other].rcv_hdrs.push_back(0x77777777);
    b.fifo[other].rcv_words.assign(8, 0x7777);
    EXPECT_EQ(tree.status().rcv_hdrs, 1u);
    EXPECT_EQ(tree.status().rcv_data, words.size());
    EXPECT_EQ(tree.pop_header(), h);
    std::vector<uint64_t> got(words.size());
    tree.pop_words(got.data(), got.size());
    EXPECT_EQ(got, words);
    EXPECT_TRUE(b.fifo[v].rcv_hdrs.empty() && b.fifo[v].rcv_words.empty());
    EXPECT_EQ(b.fifo[other].rcv_hdrs.size(), 1u) << "the other VC's FIFOs";
    EXPECT_EQ(b.fifo[other].rcv_words.size(), 8u);
    EXPECT_NO_THROW(tree.check_errors());
    b.fifo = {};
  }
}

TEST(CnRegs, StatusReportsTheAddressedVcsLevels) {
  std::mt19937_64 rng(test_seed());
  RegsBench b;
  for (int round = 0; round < 50; ++round) {
    for (auto& f : b.fifo) {
      f.inj_entries.assign(rng() % (kInjPackets + 1), 0);
      f.inj_words.assign(rng() % (kInjWords + 1), 0);
      f.rcv_hdrs.assign(rng() % (kRcvPackets + 1), 0);
      f.rcv_words.assign(rng() % (kRcvWords + 1), 0);
    }
    for (unsigned vc = 0; vc < kNumVcs; ++vc) {
      const fw::TreeStatus s = fw::TreeStatus::decode(b.status(vc));
      const auto& f = b.fifo[vc];
      EXPECT_EQ(s.inj_hdr_free, kInjPackets - f.inj_entries.size()) << "VC " << vc;
      EXPECT_EQ(s.inj_data_free, kInjWords - f.inj_words.size()) << "VC " << vc;
      EXPECT_EQ(s.rcv_hdrs, f.rcv_hdrs.size()) << "VC " << vc;
      EXPECT_EQ(s.rcv_data, f.rcv_words.size()) << "VC " << vc;
      EXPECT_FALSE(s.error);
    }
  }
  b.report(bit(kErrLinkProto));
  for (unsigned vc = 0; vc < kNumVcs; ++vc) EXPECT_TRUE(fw::TreeStatus::decode(b.status(vc)).error) << "VC " << vc;
}

TEST(CnRegs, TheSystemVcRegistersNeedThePrivilegedBit) {
  RegsBench b;
  b.write(kRegSysVcOffset + kRegInjHdr, header(0, fw::AluOp::Or, 1), /*priv=*/false);
  EXPECT_TRUE(b.moved.none()) << "an unprivileged push into the system VC";
  EXPECT_EQ(b.errors(), bit(kErrPriv));
  b.clear_errors();
  b.fifo[kVcSystem].rcv_hdrs.push_back(0x1234);
  b.fifo[kVcSystem].rcv_words.assign(4, 0x5678);
  EXPECT_EQ(b.read(kRegSysVcOffset + kRegStatus, /*priv=*/false), 0u) << "a refused read answers zero";
  EXPECT_EQ(b.errors(), bit(kErrPriv)) << "an unprivileged read of the system VC";
  b.clear_errors();
  for (uint32_t addr : {kRegInjData, kRegInjIdentity, kRegInjVector}) {
    b.write_vector(kRegSysVcOffset + addr, {1ull << 32 | 5, 2, 3, 4}, false);
    EXPECT_TRUE(b.moved.none()) << std::hex << addr;
    EXPECT_EQ(b.errors(), bit(kErrPriv));
    b.clear_errors();
  }
  for (uint32_t addr : {kRegRcvHdr, kRegRcvData, kRegRcvVector}) {
    EXPECT_EQ(b.read_vector(kRegSysVcOffset + addr, false), (Vector{0, 0, 0, 0})) << std::hex << addr;
    EXPECT_TRUE(b.moved.none()) << "a refused read popped 0x" << std::hex << addr;
    EXPECT_EQ(b.errors(), bit(kErrPriv));
    b.clear_errors();
  }
  EXPECT_EQ(get_field(b.status(kVcSystem), kStatusInjHdrFreeLsb, kStatusInjHdrFreeW), kInjPackets)
      << "the refused push changed the FIFO";
  EXPECT_TRUE(b.fifo[kVcSystem].inj_entries.empty() && b.fifo[kVcSystem].inj_words.empty());
  // Privileged, the window holds only the FIFO registers; the rest are unmapped.
  for (uint32_t addr : {kRegId, kRegErr, kRegErrInfo, kRegErrSource}) {
    EXPECT_EQ(b.read(kRegSysVcOffset + addr, /*priv=*/true), 0u);
    EXPECT_EQ(b.errors(), bit(kErrBadAddr)) << std::hex << addr;
    b.clear_errors();
  }
  b.report(bit(kErrHdrMismatch));
  b.write(kRegSysVcOffset + kRegErrClear, ~0ull, /*priv=*/true);
  EXPECT_EQ(b.errors(), bit(kErrHdrMismatch) | bit(kErrBadAddr)) << "RegErrClear is not in the window";
  b.clear_errors();
  // The privileged bit outside the window changes nothing.
  b.write(kRegInjHdr, 0x99, /*priv=*/true);
  EXPECT_EQ(b.moved.entry_vc, int(kVcUser));
  EXPECT_EQ(b.errors(), 0u);
}

TEST(CnRegs, RefusesAPushIntoAFullInjectionFifo) {
  RegsBench b;
  for (unsigned vc = 0; vc < kNumVcs; ++vc) {
    const bool priv = vc == kVcSystem;
    for (unsigned i = 0; i < kInjPackets; ++i) b.write(fifo_reg(kRegInjHdr, vc), header(5, fw::AluOp::Add, i), priv);
    EXPECT_EQ(b.errors(), 0u);
    EXPECT_EQ(get_field(b.status(vc), kStatusInjHdrFreeLsb, kStatusInjHdrFreeW), 0u);
    b.write(fifo_reg(kRegInjHdr, vc), header(5, fw::AluOp::Add, 99), priv);
    EXPECT_EQ(b.moved.entry_vc, -1) << "VC " << vc;
    EXPECT_EQ(b.errors(), bit(kErrInjOverflow));
    b.clear_errors();
    b.write(fifo_reg(kRegInjIdentity, vc), uint64_t{2} << kInjIdentityCountLsb | 7, priv);  // an identity request too
    EXPECT_EQ(b.moved.entry_vc, -1) << "VC " << vc;
    EXPECT_EQ(b.errors(), bit(kErrInjOverflow));
    b.clear_errors();
    ASSERT_EQ(b.fifo[vc].inj_entries.size(), kInjPackets);
    EXPECT_EQ(get_field(b.fifo[vc].inj_entries.back(), 0, 32), header(5, fw::AluOp::Add, kInjPackets - 1));
    // Payload words: full at the depth.
    b.fifo[vc].inj_words.assign(kInjWords - 1, 0);
    b.write(fifo_reg(kRegInjData, vc), 0xabc, priv);
    EXPECT_EQ(b.errors(), 0u);
    ASSERT_EQ(b.fifo[vc].inj_words.size(), kInjWords);
    EXPECT_EQ(b.fifo[vc].inj_words.back(), 0xabcu);
    b.write(fifo_reg(kRegInjData, vc), 0xdef, priv);
    EXPECT_EQ(b.moved.words_vc, -1);
    EXPECT_EQ(b.errors(), bit(kErrInjOverflow));
    EXPECT_EQ(b.fifo[vc].inj_words.size(), kInjWords);
    b.clear_errors();
  }
}

TEST(CnRegs, ReadingAnEmptyReceptionFifoReturnsZeroAndFlags) {
  RegsBench b;
  EXPECT_EQ(b.read(kRegRcvData), 0u);
  EXPECT_EQ(b.errors(), bit(kErrRcvUnderflow));
  b.clear_errors();
  b.fifo[kVcSystem].rcv_hdrs.push_back(0x42);  // the other VC's data is not this one's
  b.fifo[kVcSystem].rcv_words.push_back(0x43);
  for (uint32_t addr : {kRegRcvHdr, kRegRcvData}) {
    EXPECT_EQ(b.read(addr), 0u) << std::hex << addr;
    EXPECT_TRUE(b.moved.none());
    EXPECT_EQ(b.errors(), bit(kErrRcvUnderflow));
    b.clear_errors();
  }
  b.fifo[kVcUser].rcv_hdrs.push_back(0x44);
  EXPECT_EQ(b.read(kRegRcvData), 0u) << "a header waiting is no payload word";
  EXPECT_EQ(b.errors(), bit(kErrRcvUnderflow));
  b.clear_errors();
  EXPECT_EQ(b.read(kRegRcvHdr), 0x44u);
  EXPECT_EQ(b.moved.hdr_pop_vc, int(kVcUser));
  EXPECT_EQ(b.read(kRegSysVcOffset + kRegRcvData, true), 0x43u);
  EXPECT_EQ(b.moved.words_pop_vc, int(kVcSystem));
  EXPECT_EQ(b.moved.words_popped, 1u);
  EXPECT_EQ(b.errors(), 0u);
}

// A vector push needs four free words and a vector pop four waiting words: otherwise
// nothing moves, the read answers zero, and the error bit is set.
TEST(CnRegs, AVectorAccessMovesFourWordsOrNone) {
  RegsBench b;
  for (unsigned vc = 0; vc < kNumVcs; ++vc) {
    const bool priv = vc == kVcSystem;
    auto& f = b.fifo[vc];
    f.inj_words.assign(kInjWords - 3, 0);
    b.write_vector(fifo_reg(kRegInjVector, vc), {1, 2, 3, 4}, priv);
    EXPECT_TRUE(b.moved.none()) << "VC " << vc;
    EXPECT_EQ(b.errors(), bit(kErrInjOverflow));
    b.clear_errors();
    f.inj_words.assign(kInjWords - 4, 0);
    b.write_vector(fifo_reg(kRegInjVector, vc), {1, 2, 3, 4}, priv);
    EXPECT_EQ(b.moved.words_vc, int(vc));
    EXPECT_EQ(b.moved.words, (std::vector<uint64_t>{1, 2, 3, 4})) << "word 0 first";
    EXPECT_EQ(b.errors(), 0u);

    f.rcv_words = {10, 11, 12};
    EXPECT_EQ(b.read_vector(fifo_reg(kRegRcvVector, vc), priv), (Vector{0, 0, 0, 0}));
    EXPECT_TRUE(b.moved.none());
    EXPECT_EQ(b.errors(), bit(kErrRcvUnderflow));
    b.clear_errors();
    f.rcv_words.push_back(13);
    f.rcv_words.push_back(14);
    EXPECT_EQ(b.read_vector(fifo_reg(kRegRcvVector, vc), priv), (Vector{10, 11, 12, 13}))
        << "the oldest word in word 0";
    EXPECT_EQ(b.moved.words_popped, 4u);
    EXPECT_EQ(f.rcv_words.size(), 1u);
    EXPECT_EQ(b.read(fifo_reg(kRegRcvData, vc), priv), 14u);
    EXPECT_EQ(b.errors(), 0u);
  }
}

TEST(CnRegs, ARequestForZeroIdentityPacketsDoesNothing) {
  RegsBench b;
  b.write(kRegInjIdentity, header(0, fw::AluOp::Or, 9));  // K = 0
  EXPECT_TRUE(b.moved.none());
  EXPECT_EQ(get_field(b.status(), kStatusInjHdrFreeLsb, kStatusInjHdrFreeW), kInjPackets);
  EXPECT_EQ(b.errors(), 0u);
  b.fifo[kVcUser].inj_entries.assign(kInjPackets, 0);
  b.write(kRegInjIdentity, header(0, fw::AluOp::Or, 9));
  EXPECT_EQ(b.errors(), 0u) << "K = 0 into a full FIFO is no overflow";
  b.fifo[kVcUser].inj_entries.clear();
  b.write(kRegInjIdentity, set_field(header(0, fw::AluOp::Or, 9), kInjIdentityCountLsb, kInjIdentityCountW, 65535));
  EXPECT_EQ(b.moved.entry, entry(header(0, fw::AluOp::Or, 9), true, 65535));
}

// ------------------------------------------------------------------ errors
TEST(CnRegs, ErrorBitsLatchUntilClearedByWritingOnes) {
  RegsBench b;
  for (unsigned e = 0; e < kErrBits; ++e) {
    b.report(bit(e));
    b.run(3);
    EXPECT_EQ(b->err_o, bit(e)) << "bit " << e << " after its pulse";
    EXPECT_EQ(b.errors(), bit(e));
    EXPECT_EQ(get_field(b.status(), kStatusErrBit, 1), 1u);
    b.write(kRegErrClear, ~bit(e));  // every other bit: this one stays
    EXPECT_EQ(b.errors(), bit(e));
    b.write(kRegErrClear, bit(e));
    EXPECT_EQ(b.errors(), 0u);
    EXPECT_EQ(get_field(b.status(), kStatusErrBit, 1), 0u);
  }
  // Bits accumulate; a clear takes only the bits written as ones.
  b.report(bit(kErrLinkProto));
  b.write(0x7f8, 0);  // ErrBadAddr
  b.report(bit(kErrHdrMismatch) | bit(kErrBadSize));
  EXPECT_EQ(b.errors(), bit(kErrLinkProto) | bit(kErrBadAddr) | bit(kErrHdrMismatch) | bit(kErrBadSize));
  b.write(kRegErrClear, bit(kErrBadAddr) | bit(kErrBadSize));
  EXPECT_EQ(b.errors(), bit(kErrLinkProto) | bit(kErrHdrMismatch));
  // An error reported in the cycle its bit is cleared stays set.
  b->err_set_i = static_cast<uint16_t>(bit(kErrLinkProto));
  b.write(kRegErrClear, kAllErrors);
  b->err_set_i = 0;
  EXPECT_EQ(b.errors(), bit(kErrLinkProto));
  // Bits above RegErr's are not there to clear or read.
  b.write(kRegErrClear, ~kAllErrors);
  EXPECT_EQ(b.errors(), bit(kErrLinkProto));
  EXPECT_EQ(b->err_o, bit(kErrLinkProto));
}

TEST(CnRegs, TheFirstHeaderErrorKeepsItsDetails) {
  RegsBench b;
  const uint32_t exp1 = header(3, fw::AluOp::Add, 7), got1 = header(3, fw::AluOp::Add, 8);
  b.report(bit(kErrHdrMismatch), exp1, got1, 1u << kErrSourceVcBit | 3);
  uint64_t info = b.read(kRegErrInfo);
  EXPECT_EQ(get_field(info, kErrInfoExpectedLsb, kErrInfoExpectedW), exp1);
  EXPECT_EQ(get_field(info, kErrInfoGotLsb, kErrInfoGotW), got1);
  const uint64_t source = b.read(kRegErrSource);
  EXPECT_EQ(get_field(source, kErrSourceFromLsb, kErrSourceFromW), 3u);
  EXPECT_EQ(get_field(source, kErrSourceVcBit, 1), 1u);
  // The firmware names the error from them.
  fw::TreeFirmware tree(b, fw::Personality{});
  try {
    tree.check_errors();
    ADD_FAILURE() << "no error reported";
  } catch (const fw::HardwareError& e) {
    EXPECT_EQ(e.bits(), bit(kErrHdrMismatch));
    EXPECT_NE(std::string(e.what()).find("link 2 on the system VC"), std::string::npos) << e.what();
  }
  // Later header errors, and other errors, keep the first one's details.
  b.report(bit(kErrBadOpcode), 0x1111, 0x2222, 1);
  b.report(bit(kErrLinkProto) | bit(kErrInjOverflow), 0x3333, 0x4444, 2);
  EXPECT_EQ(b.read(kRegErrInfo), info);
  EXPECT_EQ(b.read(kRegErrSource), source);
  // Clearing the other errors keeps them too; clearing every header error lets the next in.
  b.write(kRegErrClear, ~kHeaderErrors | bit(kErrHdrMismatch));
  EXPECT_EQ(b.errors(), bit(kErrBadOpcode));
  b.report(bit(kErrBadSize), 0x5555, 0x6666, 0);
  EXPECT_EQ(b.read(kRegErrInfo), info);
  b.write(kRegErrClear, kHeaderErrors);
  EXPECT_EQ(b.read(kRegErrInfo), info) << "a clear leaves the details until the next header error";
  for (unsigned e : {kErrBadRoute, kErrBadOpcode, kErrBadSize, kErrHdrMismatch}) {
    const uint32_t exp = 0x100 + e, got = 0x200 + e;
    b.report(bit(e), exp, got, e % 4);
    info = b.read(kRegErrInfo);
    EXPECT_EQ(get_field(info, kErrInfoExpectedLsb, kErrInfoExpectedW), exp) << "error bit " << e;
    EXPECT_EQ(get_field(info, kErrInfoGotLsb, kErrInfoGotW), got) << "error bit " << e;
    EXPECT_EQ(b.read(kRegErrSource), e % 4) << "error bit " << e;
    b.write(kRegErrClear, kHeaderErrors);
  }
  // A report that is no header error brings no details.
  for (unsigned e : {kErrInjOverflow, kErrRcvUnderflow, kErrPriv, kErrBadAddr, kErrBadRouteCfg, kErrLinkProto}) {
    b.report(bit(e), 0xeeee, 0xffff, 2);
    EXPECT_EQ(b.read(kRegErrInfo), info) << "error bit " << e;
  }
}

// ------------------------------------------------------------------ bus timing
TEST(CnRegs, ReadDataComesTheCycleAfterTheReadAndOnlyThen) {
  RegsBench b;
  b->req_i = 1;
  b->we_i = 0;
  b->addr_i = kRegId;
  b->priv_i = 0;
  b.eval();
  EXPECT_FALSE(b->rvalid_o) << "not in the read's own cycle";
  b.step();
  EXPECT_TRUE(b->rvalid_o);
  EXPECT_EQ(wide_bits(b->rdata_o.data(), 0, 64), kRegIdValue);
  b->req_i = 0;
  b.step();
  EXPECT_FALSE(b->rvalid_o) << "one cycle per read";
  b.write(kRegErrClear, 0);
  EXPECT_FALSE(b->rvalid_o) << "a write returns nothing";
  b.read(kRegSysVcOffset + kRegStatus, /*priv=*/false);  // refused, answered all the same (checked by access())
  EXPECT_EQ(b.errors(), bit(kErrPriv));
}

// ------------------------------------------------------------------ random
// The register map as regmap/collnet.json describes it, for the random test: what an
// access returns, which FIFO it moves, and the error state after it.
struct RegsModel {
  std::array<uint64_t, kNumClasses> routes{};
  uint64_t err = 0, info = 0, source = 0;

  // One bus access together with a report of the engines (err_set etc.).
  Vector access(bool we, uint32_t addr, const Vector& wdata, bool priv, const std::array<RegsBench::Fifos, 2>& fifo,
                RegsBench::Moves& mv, uint64_t set, uint32_t expected, uint32_t got, unsigned src) {
    Vector r{};
    uint64_t raised = set, clear = 0;
    const bool window = in_win_cn_sys_vc(addr);
    const unsigned vc = window ? kVcSystem : kVcUser;
    const uint32_t a = window ? addr - kRegSysVcOffset : addr;
    const auto& f = fifo[vc];
    const uint64_t w = wdata[0];
    const bool route_reg = addr >= kRegRouteBase && addr < reg_route_base(kNumClasses) && addr % 8 == 0;
    const unsigned cls = (addr - kRegRouteBase) / kRegRouteBaseStride;
    if (window && !priv) {
      raised |= bit(kErrPriv);
    } else if (we) {
      if (a == kRegInjHdr) {
        if (f.inj_entries.size() == kInjPackets) {
          raised |= bit(kErrInjOverflow);
        } else {
          mv.entry_vc = vc;
          mv.entry = entry(static_cast<uint32_t>(w), false, 1);
        }
      } else if (a == kRegInjIdentity) {
        const unsigned k = static_cast<unsigned>(get_field(w, kInjIdentityCountLsb, kInjIdentityCountW));
        if (k != 0 && f.inj_entries.size() == kInjPackets) {
          raised |= bit(kErrInjOverflow);
        } else if (k != 0) {
          mv.entry_vc = vc;
          mv.entry = entry(static_cast<uint32_t>(w), true, k);
        }
      } else if (a == kRegInjData) {
        if (f.inj_words.size() == kInjWords) {
          raised |= bit(kErrInjOverflow);
        } else {
          mv.words_vc = vc;
          mv.words = {w};
        }
      } else if (a == kRegInjVector) {
        if (f.inj_words.size() + kVectorWords > kInjWords) {
          raised |= bit(kErrInjOverflow);
        } else {
          mv.words_vc = vc;
          mv.words.assign(wdata.begin(), wdata.end());
        }
      } else if (addr == kRegErrClear) {
        clear = w & kAllErrors;
      } else if (route_reg) {
        const fw::ClassRoute rt = fw::ClassRoute::decode(w);
        if (cls >= kFirstPrivClass && !priv) raised |= bit(kErrPriv);
        else if ((w >> kRouteBits) != 0 || rt.down_mask == 7 ||
                 (rt.up_link != kRouteUpNone && (rt.down_mask >> rt.up_link & 1)))
          raised |= bit(kErrBadRouteCfg);
        else routes[cls] = w;
      } else {
        raised |= bit(kErrBadAddr);
      }
    } else {
      if (a == kRegStatus) {
        uint64_t s = 0;
        s = set_field(s, kStatusInjHdrFreeLsb, kStatusInjHdrFreeW, kInjPackets - f.inj_entries.size());
        s = set_field(s, kStatusInjDataFreeLsb, kStatusInjDataFreeW, kInjWords - f.inj_words.size());
        s = set_field(s, kStatusRcvHdrLsb, kStatusRcvHdrW, f.rcv_hdrs.size());
        s = set_field(s, kStatusRcvDataLsb, kStatusRcvDataW, f.rcv_words.size());
        r[0] = set_field(s, kStatusErrBit, 1, err != 0);
      } else if (a == kRegRcvHdr) {
        if (f.rcv_hdrs.empty()) {
          raised |= bit(kErrRcvUnderflow);
        } else {
          r[0] = f.rcv_hdrs.front();
          mv.hdr_pop_vc = vc;
        }
      } else if (a == kRegRcvData) {
        if (f.rcv_words.empty()) {
          raised |= bit(kErrRcvUnderflow);
        } else {
          r[0] = f.rcv_words.front();
          mv.words_pop_vc = vc;
          mv.words_popped = 1;
        }
      } else if (a == kRegRcvVector) {
        if (f.rcv_words.size() < kVectorWords) {
          raised |= bit(kErrRcvUnderflow);
        } else {
          for (unsigned k = 0; k < kVectorWords; ++k) r[k] = f.rcv_words[k];
          mv.words_pop_vc = vc;
          mv.words_popped = kVectorWords;
        }
      } else if (addr == kRegId) {
        r[0] = kRegIdValue;
      } else if (addr == kRegSizes) {
        r[0] = table_reset(kRegSizes);
      } else if (addr == kRegErr) {
        r[0] = err;
      } else if (addr == kRegErrInfo) {
        r[0] = info;
      } else if (addr == kRegErrSource) {
        r[0] = source;
      } else if (route_reg) {
        r[0] = routes[cls];
      } else {
        raised |= bit(kErrBadAddr);
      }
    }
    if ((set & kHeaderErrors) && !(err & kHeaderErrors)) {
      info = uint64_t{got} << 32 | expected;
      source = src;
    }
    err = (err & ~clear) | raised;
    return r;
  }
};

TEST(CnRegs, RandomAccessesMatchTheRegisterMap) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  RegsBench b;
  RegsModel model;
  const uint32_t mapped[] = {kRegId,      kRegStatus,  kRegInjHdr,   kRegInjData,    kRegRcvHdr,
                             kRegRcvData, kRegErr,     kRegErrClear, kRegErrInfo,    kRegErrSource,
                             kRegInjIdentity, kRegInjVector, kRegRcvVector, kRegSizes};
  unsigned reads = 0, pushes = 0, pops = 0, refused = 0;
  // How fast the datapath drains injection and fills reception behind the block's back,
  // changed now and then, and now and then new FIFO levels: nearly empty, nearly full or
  // any, so that every access meets empty, full and in-between FIFOs.
  unsigned drain = 0, fill = 0;
  auto level = [&](unsigned depth) { return random_fifo_level(rng, depth); };
  for (int i = 0; i < 20000; ++i) {
    if (i % 200 == 0) {
      drain = static_cast<unsigned>(rng() % 4) * 2;
      fill = static_cast<unsigned>(rng() % 4) * 2;
      for (auto& f : b.fifo) {
        f.inj_entries.resize(level(kInjPackets), entry(0, false, 1));
        f.inj_words.resize(level(kInjWords), 0);
        f.rcv_hdrs.resize(level(kRcvPackets), 0x600d);
        f.rcv_words.resize(level(kRcvWords));
        for (auto& w : f.rcv_words) w = rng();
      }
    }
    for (auto& f : b.fifo) {
      if (!f.inj_entries.empty() && rng() % 8 < drain) f.inj_entries.pop_front();
      for (unsigned k = drain ? rng() % drain : 0; k > 0 && !f.inj_words.empty(); --k) f.inj_words.pop_front();
      if (f.rcv_hdrs.size() < kRcvPackets && rng() % 8 < fill) f.rcv_hdrs.push_back(static_cast<uint32_t>(rng()));
      for (unsigned k = fill ? rng() % fill : 0; k > 0 && f.rcv_words.size() < kRcvWords; --k)
        f.rcv_words.push_back(rng());
    }
    // An access: mapped registers in and out of the system VC's window, routes (some
    // misaligned), unmapped addresses.
    uint32_t addr;
    switch (rng() % 8) {
      case 0: addr = reg_route_base(rng() % kNumClasses) + (rng() % 4 == 0 ? 1 + rng() % 7 : 0); break;
      case 1: addr = static_cast<uint32_t>(rng() % (1u << kBusAddrBits)) & ~7u; break;
      case 2:
      case 3:
      case 4: addr = mapped[rng() % std::size(mapped)] + kRegSysVcOffset; break;
      default: addr = mapped[rng() % std::size(mapped)]; break;
    }
    const bool we = rng() % 2;
    const bool priv = rng() % 4 != 0;
    Vector wdata{rng(), rng(), rng(), rng()};
    switch (rng() % 3) {  // word 0 shaped like what the register takes
      case 0: wdata[0] = rng() % 4 == 0 ? rng() % 1024 : rng() % 128; break;  // a route, some with stray bits
      case 1: wdata[0] = (rng() % 3) << kInjIdentityCountLsb | (rng() & 0xffffffffu); break;  // K = 0..2
      default: break;
    }
    // Reports of the engines, but not in the cycle of a clear (ErrorBitsLatchUntilClearedByWritingOnes
    // has that case).
    uint64_t set = 0;
    uint32_t expected = 0, got = 0;
    unsigned src = 0;
    if (rng() % 16 == 0 && !(we && addr == kRegErrClear)) {
      set = uint64_t{1} << (rng() % kErrBits);
      expected = static_cast<uint32_t>(rng());
      got = static_cast<uint32_t>(rng());
      src = static_cast<unsigned>(rng() % 8);
    }
    RegsBench::Moves want;
    const Vector want_r = model.access(we, addr, wdata, priv, b.fifo, want, set, expected, got, src);
    b->err_set_i = static_cast<uint16_t>(set);
    b->err_expected_i = expected;
    b->err_got_i = got;
    b->err_source_i = static_cast<uint8_t>(src);
    const Vector r = b.access(we, addr, wdata, priv);
    b->err_set_i = 0;
    ASSERT_TRUE(b.moved == want) << "access " << i << ": " << (we ? "write" : "read") << " of 0x" << std::hex << addr
                                 << (priv ? " (privileged)" : "") << " moved the wrong FIFO or words";
    if (!we) {
      ASSERT_EQ(r, want_r) << "access " << i << ": read of 0x" << std::hex << addr << (priv ? " (privileged)" : "");
    }
    ASSERT_EQ(b->err_o, model.err) << "access " << i << ": " << (we ? "write" : "read") << " of 0x" << std::hex << addr;
    for (unsigned c = 0; c < kNumClasses; ++c) ASSERT_EQ(b.route_of(c), model.routes[c]) << "access " << i;
    reads += !we;
    pushes += want.entry_vc >= 0 || want.words_vc >= 0;
    pops += want.hdr_pop_vc >= 0 || want.words_pop_vc >= 0;
    refused += model.err != 0;
    // Clear now and then, so that refusals keep showing.
    if (rng() % 8 == 0) {
      b.write(kRegErrClear, kAllErrors);
      model.err = 0;
    }
  }
  EXPECT_GT(reads, 5000u);
  EXPECT_GT(pushes, 1000u);
  EXPECT_GT(pops, 1000u);
  EXPECT_GT(refused, 1000u);
  ASSERT_EQ(b.read(kRegErrInfo), model.info);
  ASSERT_EQ(b.read(kRegErrSource), model.source);
}

}  // namespace
}  // namespace collnet::tb
