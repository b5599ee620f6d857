// SPDX-License-Identifier: Apache-2.0
// cmn_delay on its own, built once per latency (tb/CMakeLists.txt: TB_STAGES and TB_WIDTH
// give the bench the -GStages and -GWidth the model was Verilated with): a value on d_i in
// cycle n is on q_o in cycle n + Stages (what the register behind it samples Stages edges
// later; Stages = 0 is a wire), every bit of the word, back-to-back values each once and
// in order, reset clearing the line (not the wire), and 100,000 random cycles with resets
// now and then against a queue of Stages words.
#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <type_traits>

#include <gtest/gtest.h>

#include "Vcmn_delay.h"
#include "tb/tb_harness.hpp"

#ifndef TB_STAGES
#define TB_STAGES 1
#endif
#ifndef TB_WIDTH
#define TB_WIDTH 64
#endif
// One test suite per latency, so that the executables' tests have distinct CTest names.
#define CMN_DELAY COLLNET_TB_CAT(CmnDelayStages, TB_STAGES)

namespace collnet::tb {
namespace {

constexpr unsigned kStages = TB_STAGES;
constexpr unsigned kWidth = TB_WIDTH;
static_assert(kWidth >= 1 && kWidth <= 128, "the bench's words hold up to 128 bits");

// A word of the line: bits [63:0] and [127:64], masked to kWidth.
using Word = std::array<uint64_t, 2>;

constexpr uint64_t low_bits(unsigned n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

Word masked(Word w) {
  w[0] &= low_bits(kWidth);
  w[1] &= low_bits(kWidth > 64 ? kWidth - 64 : 0);
  return w;
}

struct Delay : ClockedHarness<Vcmn_delay> {
  template <class P>
  static void put(P& port, const Word& w) {
    if constexpr (std::is_integral_v<P>) {
      port = static_cast<P>(w[0]);
    } else {
      set_wide_bits(port.data(), 0, 64, w[0]);
      set_wide_bits(port.data(), 64, kWidth - 64, w[1]);
    }
  }
  template <class P>
  static Word get(const P& port) {
    if constexpr (std::is_integral_v<P>) {
      return {static_cast<uint64_t>(port), 0};
    } else {
      return {wide_bits(port.data(), 0, 64), wide_bits(port.data(), 64, kWidth - 64)};
    }
  }
  // One cycle: `d` on the input; returns q_o in that cycle (what the next edge samples).
  Word cycle(const Word& d) {
    put(model().d_i, d);
    model().eval();
    const Word q = get(model().q_o);
    tick();
    return q;
  }
  Word q() {
    model().eval();
    return get(model().q_o);
  }
};

const Word kZero{0, 0};

// Words with distinct bits everywhere: i in the low half, its complement shifted up high.
Word numbered(uint64_t i) { return masked({i * 0x9e3779b97f4a7c15ull + 1, ~i << 3}); }

TEST(CMN_DELAY, IsZeroAfterReset) {
  Delay d;
  for (unsigned c = 0; c < kStages; ++c) EXPECT_EQ(d.cycle(kZero), kZero) << "cycle " << c;
  EXPECT_EQ(d.q(), kZero);
}

// One word in a line of zeros appears in exactly one cycle, Stages cycles after it went in.
TEST(CMN_DELAY, AWordAppearsExactlyStagesCyclesLater) {
  Delay d;
  const Word v = masked({0xfedcba9876543210ull, 0xa5});
  for (unsigned c = 0; c < 3 + kStages + 3; ++c) {
    const Word q = d.cycle(c == 3 ? v : kZero);
    EXPECT_EQ(q, c == 3 + kStages ? v : kZero) << "cycle " << c << " (the word went in in cycle 3)";
  }
}

// Every bit travels on its own: a walking one, each bit once.
TEST(CMN_DELAY, EveryBitOfTheWordTravels) {
  Delay d;
  std::deque<Word> line(kStages, kZero);
  for (unsigned b = 0; b < kWidth + kStages; ++b) {
    Word in = kZero;
    if (b < kWidth) in[b / 64] = uint64_t{1} << (b % 64);
    line.push_back(in);
    const Word want = line.front();
    line.pop_front();
    EXPECT_EQ(d.cycle(in), want) << "cycle " << b;
  }
}

// Values back to back leave one per cycle, in order, none lost or repeated.
TEST(CMN_DELAY, BackToBackWordsLeaveInOrder) {
  Delay d;
  for (unsigned c = 0; c < kStages; ++c) EXPECT_EQ(d.cycle(numbered(c)), kZero) << "cycle " << c;
  for (unsigned c = kStages; c < 50; ++c) EXPECT_EQ(d.cycle(numbered(c)), numbered(c - kStages)) << "cycle " << c;
  // And the input held steady leaves steady.
  for (unsigned c = 0; c < kStages + 3; ++c) {
    const Word q = d.cycle(numbered(7));
    EXPECT_EQ(q, c < kStages ? numbered(50 - kStages + c) : numbered(7)) << "cycle " << c << " of a held input";
  }
}

// Reset (asynchronous) empties the line at once and keeps it empty while held; the words in
// it are lost, and the first word after reset leaves Stages cycles after it went in. A wire
// has nothing to clear: it passes d_i through, reset or not.
TEST(CMN_DELAY, ResetClearsTheLine) {
  Delay d;
  for (unsigned c = 0; c < kStages + 2; ++c) d.cycle(numbered(100 + c));
  const Word held = numbered(999);
  Delay::put(d->d_i, held);
  d->rst_ni = 0;
  EXPECT_EQ(d.q(), kStages == 0 ? held : kZero) << "reset is asynchronous";
  for (unsigned c = 0; c < 3; ++c) {
    d.tick();
    EXPECT_EQ(d.q(), kStages == 0 ? held : kZero) << "edge " << c << " in reset";
  }
  d->rst_ni = 1;
  for (unsigned c = 0; c < kStages + 4; ++c) {
    const Word q = d.cycle(numbered(200 + c));
    EXPECT_EQ(q, c < kStages ? kZero : numbered(200 + c - kStages)) << "cycle " << c << " after reset";
  }
  EXPECT_FALSE(d.assertion_failed());
}

TEST(CMN_DELAY, RandomWordsAndResetsMatchAQueue) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Delay d;
  std::deque<Word> line(kStages, kZero);  // front: the word on q_o next
  unsigned resets = 0;
  for (int c = 0; c < 100000; ++c) {
    if (rng() % 2000 == 0) {
      d.reset();
      if (kStages > 0) line.assign(kStages, kZero);
      ++resets;
    }
    // Now and then zeros, or the same word again, else any word.
    Word in;
    switch (rng() % 8) {
      case 0: in = kZero; break;
      case 1: in = line.empty() ? kZero : line.back(); break;
      default: in = masked({rng(), rng()}); break;
    }
    line.push_back(in);
    const Word want = line.front();
    line.pop_front();
    const Word q = d.cycle(in);
    ASSERT_EQ(q, want) << "cycle " << c;
  }
  EXPECT_GT(resets, 20u);
  EXPECT_FALSE(d.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
