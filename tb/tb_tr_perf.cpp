// SPDX-License-Identifier: Apache-2.0
// tr_perf: each of the 72 counters (6 links x 4 VCs x flits, busy, stall) counts its own
// event bit and nothing else, reads the same over the register port (a cycle later, at the
// address firmware::torus_perf_address gives) and through the service port, and starts at
// zero after reset; addresses that name no counter, misaligned ones and writes read 0 and
// pulse bad_o; flits outside a held VC trip the block's assertion. Events are random,
// against a reference count.
#include <array>
#include <random>

#include <gtest/gtest.h>

#include "Vtr_perf.h"
#include "firmware/regmap.hpp"
#include "firmware/torus_perf.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

using namespace fw::regmap;
constexpr unsigned kLinks = kNumDirs, kVcs = kTrNumVcs, kEvents = kLinks * kVcs;

struct Perf : ClockedHarness<Vtr_perf> {
  // The counts the block should hold: [k][d * kVcs + v].
  std::array<std::array<uint64_t, kEvents>, kTrPerfCounters> want{};

  // One cycle with these event bits (bit d * kVcs + v); counts them in `want`.
  void events(uint32_t flit, uint32_t busy, uint32_t stall) {
    model().flit_i = flit;
    model().busy_i = busy;
    model().stall_i = stall;
    tick();
    const uint32_t bits[] = {flit, busy, stall};
    for (unsigned k = 0; k < kTrPerfCounters; ++k)
      for (unsigned i = 0; i < kEvents; ++i) want[k][i] += bits[k] >> i & 1;
    model().flit_i = model().busy_i = model().stall_i = 0;
  }
  // A register access at `offset` in the block; returns {the read data of the cycle after,
  // bad in the cycle of the access}.
  std::pair<uint64_t, bool> access(bool we, uint32_t offset) {
    model().req_i = 1;
    model().we_i = we;
    model().addr_i = offset;
    eval();
    const bool bad = model().bad_o;
    tick();
    model().req_i = 0;
    model().we_i = 0;
    eval();
    EXPECT_EQ(model().rvalid_o, !we) << "offset 0x" << std::hex << offset;
    EXPECT_FALSE(model().bad_o) << "a pulse in the access's cycle only";
    return {model().rdata_o, bad};
  }
  uint64_t service(uint32_t offset) {
    model().svc_sel_i = offset / 8;
    eval();
    return model().svc_word_o;
  }
};

uint32_t offset(unsigned d, unsigned v, unsigned k) { return fw::torus_perf_address(d, v, k) - kRegTrPerf; }

// Random events that keep the block's invariants (one VC held per link, flits only on the
// held VC); stalls anywhere.
void random_cycle(Perf& p, std::mt19937_64& rng) {
  uint32_t flit = 0, busy = 0, stall = 0;
  for (unsigned d = 0; d < kLinks; ++d) {
    if (rng() % 3 == 0) continue;
    const unsigned v = rng() % kVcs;
    busy |= 1u << (d * kVcs + v);
    if (rng() % 4 != 0) flit |= 1u << (d * kVcs + v);
  }
  stall = static_cast<uint32_t>(rng()) & static_cast<uint32_t>(rng()) & ((1u << kEvents) - 1);
  p.events(flit, busy, stall);
}

TEST(TrPerf, CountsEveryEventAtItsOwnAddressOnBothPorts) {
  Perf p;
  std::mt19937_64 rng(test_seed());
  for (unsigned k = 0; k < kTrPerfCounters; ++k)
    for (unsigned i = 0; i < kEvents; ++i) EXPECT_EQ(p.service(offset(i / kVcs, i % kVcs, k)), 0u) << "after reset";
  for (unsigned round = 0; round < 5; ++round) {
    for (unsigned c = 0; c < 200; ++c) random_cycle(p, rng);
    for (unsigned d = 0; d < kLinks; ++d) {
      for (unsigned v = 0; v < kVcs; ++v) {
        for (unsigned k = 0; k < kTrPerfCounters; ++k) {
          const uint64_t want = p.want[k][d * kVcs + v];
          EXPECT_EQ(p.service(offset(d, v, k)), want) << "link " << d << " VC " << v << " counter " << k;
          const auto [data, bad] = p.access(false, offset(d, v, k));
          EXPECT_EQ(data, want) << "link " << d << " VC " << v << " counter " << k;
          EXPECT_FALSE(bad);
        }
      }
    }
  }
  uint64_t busy = 0;
  for (uint64_t b : p.want[kTrPerfBusy]) busy += b;
  EXPECT_GT(busy, 1000u) << "the random events exercised the counters";
  EXPECT_FALSE(p.assertion_failed());
}

TEST(TrPerf, AFlitOutsideTheHeldVcTripsTheAssertion) {
  Perf p;
  p.events(0x1, 0x1, 0);
  EXPECT_FALSE(p.assertion_failed());
  p.events(0x2, 0x1, 0);  // link 0 held on VC 0, a flit on VC 1
  EXPECT_TRUE(p.assertion_failed());
}

TEST(TrPerf, RefusesWritesHolesAndMisalignedAddresses) {
  Perf q;
  q.events(0x1, 0x1, 0x1);
  // The fourth word of a VC (no counter), a seventh and eighth link, misaligned offsets.
  for (uint32_t bad : {offset(0, 0, 0) + 8 * kTrPerfCounters, offset(5, 3, 0) + 0x80, 0x3f8u, offset(0, 0, 0) + 4,
                       offset(2, 1, 1) + 1}) {
    const auto [data, refused] = q.access(false, bad);
    EXPECT_EQ(data, 0u) << "offset 0x" << std::hex << bad;
    EXPECT_TRUE(refused) << "offset 0x" << std::hex << bad;
  }
  const auto [data, refused] = q.access(true, offset(0, 0, 0));
  EXPECT_TRUE(refused) << "a write";
  EXPECT_EQ(q.access(false, offset(0, 0, 0)).first, 1u) << "a write changes no counter";
  EXPECT_FALSE(q.access(false, offset(0, 0, 0)).second);
  EXPECT_FALSE(q.assertion_failed());
}

TEST(TrPerf, ClearsAtResetAndNowhereElse) {
  Perf p;
  for (unsigned c = 0; c < 50; ++c) p.events(0x1, 0x1, 0x800000);
  EXPECT_EQ(p.service(offset(0, 0, kTrPerfFlits)), 50u);
  EXPECT_EQ(p.service(offset(5, 3, kTrPerfStall)), 50u);
  for (unsigned c = 0; c < 20; ++c) p.events(0, 0, 0);
  EXPECT_EQ(p.service(offset(0, 0, kTrPerfBusy)), 50u) << "idle cycles count nothing";
  p.reset();
  EXPECT_EQ(p.service(offset(0, 0, kTrPerfFlits)), 0u);
  EXPECT_EQ(p.service(offset(5, 3, kTrPerfStall)), 0u);
}

}  // namespace
}  // namespace collnet::tb
