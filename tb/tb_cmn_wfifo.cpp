// SPDX-License-Identifier: Apache-2.0
// cmn_wfifo (Width 64, Lanes 4, Depth 20 = 5 rows of 4): multi-word pushes and pops in
// order, the head's four lanes, full and empty, push and pop in the same cycle (also into
// the words the pop frees), 200,000 cycles of random word counts with random
// back-pressure against a queue, and the overflow, underflow and word-count assertions.
#include <algorithm>
#include <array>
#include <deque>
#include <vector>

#include <gtest/gtest.h>

#include "Vcmn_wfifo.h"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

constexpr unsigned kLanes = 4;
constexpr unsigned kDepth = 20;  // -GDepth=20 in tb/CMakeLists.txt

using Words = std::vector<uint64_t>;

struct WFifo : ClockedHarness<Vcmn_wfifo> {
  // Presents a push of `w` (1..4 words, or any count to provoke the assertions) and/or a
  // pop of `pop_n` words for the next edge; the model's data ports are eight 32-bit words.
  void drive(const Words& w, unsigned push_n, bool push, unsigned pop_n, bool pop) {
    auto& m = model();
    for (unsigned k = 0; k < kLanes; ++k) {
      const uint64_t v = k < w.size() ? w[k] : 0xdead0000u + k;
      m.data_i[2 * k] = static_cast<uint32_t>(v);
      m.data_i[2 * k + 1] = static_cast<uint32_t>(v >> 32);
    }
    m.push_i = push;
    m.push_n_i = push_n;
    m.pop_i = pop;
    m.pop_n_i = pop_n;
  }
  void idle() { drive({}, 0, false, 0, false); }
  void push(const Words& w) {
    drive(w, static_cast<unsigned>(w.size()), true, 0, false);
    tick();
    idle();
  }
  // Pops `n` words; returns what the head showed in those lanes before the edge.
  Words pop(unsigned n) {
    Words w;
    for (unsigned k = 0; k < n && k < kLanes; ++k) w.push_back(lane(k));
    drive({}, 0, false, n, true);
    tick();
    idle();
    return w;
  }
  uint64_t lane(unsigned k) { return (uint64_t{model().data_o[2 * k + 1]} << 32) | model().data_o[2 * k]; }
  unsigned count() { return model().count_o; }
};

TEST(CmnWfifo, IsEmptyAfterReset) {
  WFifo f;
  EXPECT_EQ(f.count(), 0u);
  EXPECT_FALSE(f.assertion_failed());
}

TEST(CmnWfifo, AVectorPushIsPoppedWordByWordInOrder) {
  WFifo f;
  f.push({10, 11, 12, 13});
  EXPECT_EQ(f.count(), 4u);
  for (unsigned k = 0; k < kLanes; ++k) EXPECT_EQ(f.lane(k), 10 + k) << "head lane " << k;
  for (uint64_t want = 10; want < 14; ++want) EXPECT_EQ(f.pop(1), Words{want});
  EXPECT_EQ(f.count(), 0u);
  EXPECT_FALSE(f.assertion_failed());
}

TEST(CmnWfifo, SingleWordPushesArePoppedAsAVector) {
  WFifo f;
  for (uint64_t w = 20; w < 26; ++w) f.push({w});
  EXPECT_EQ(f.pop(4), (Words{20, 21, 22, 23}));
  EXPECT_EQ(f.count(), 2u);
  EXPECT_EQ(f.lane(0), 24u);
  EXPECT_EQ(f.lane(1), 25u);
  EXPECT_EQ(f.pop(2), (Words{24, 25}));
  EXPECT_FALSE(f.assertion_failed());
}

TEST(CmnWfifo, FillsToDepthAcrossEveryBankAlignmentAndDrainsInOrder) {
  WFifo f;
  uint64_t next_in = 0, next_out = 0;
  // Odd sizes first so that the vector pushes start in every bank and wrap the rows.
  for (int round = 0; round < 4; ++round) {
    f.push({next_in++});
    while (f.count() + kLanes <= kDepth) {
      f.push({next_in, next_in + 1, next_in + 2, next_in + 3});
      next_in += kLanes;
    }
    while (f.count() < kDepth) f.push({next_in++});
    EXPECT_EQ(f.count(), kDepth);
    while (f.count() >= 3) {
      const Words w = f.pop(3);
      for (uint64_t v : w) EXPECT_EQ(v, next_out++);
    }
    while (f.count() > 0) EXPECT_EQ(f.pop(1), Words{next_out++});
  }
  EXPECT_EQ(next_in, next_out);
  EXPECT_FALSE(f.assertion_failed());
}

TEST(CmnWfifo, PushAndPopInTheSameCycleWhenFullKeepsItFull) {
  WFifo f;
  for (uint64_t w = 0; w < kDepth; w += kLanes) f.push({w, w + 1, w + 2, w + 3});
  ASSERT_EQ(f.count(), kDepth);
  // The pop frees four words; the push may use them in the same cycle.
  f.drive({100, 101, 102, 103}, 4, true, 4, true);
  f.tick();
  f.idle();
  EXPECT_EQ(f.count(), kDepth);
  EXPECT_FALSE(f.assertion_failed());
  for (uint64_t w = 4; w < kDepth; ++w) EXPECT_EQ(f.pop(1), Words{w});
  EXPECT_EQ(f.pop(4), (Words{100, 101, 102, 103}));
  EXPECT_FALSE(f.assertion_failed());
}

TEST(CmnWfifo, APushOfMoreWordsThanAreFreeIsCaughtAndChangesNothing) {
  WFifo f;
  for (uint64_t w = 0; w < kDepth - 2; ++w) f.push({w});
  f.push({50, 51, 52});  // a caller bug: two words free
  EXPECT_TRUE(f.assertion_failed());
  EXPECT_EQ(f.count(), kDepth - 2);
  for (uint64_t w = 0; w < kDepth - 2; ++w) ASSERT_EQ(f.pop(1), Words{w});
  EXPECT_EQ(f.count(), 0u);
}

TEST(CmnWfifo, APopOfMoreWordsThanAreHeldIsCaughtAndChangesNothing) {
  WFifo f;
  f.push({7, 8, 9});
  f.pop(4);  // a caller bug: three words held
  EXPECT_TRUE(f.assertion_failed());
  EXPECT_EQ(f.count(), 3u);
  EXPECT_EQ(f.pop(3), (Words{7, 8, 9}));
}

TEST(CmnWfifo, APopFromAnEmptyFifoIsCaught) {
  WFifo f;
  f.pop(1);
  EXPECT_TRUE(f.assertion_failed());
  EXPECT_EQ(f.count(), 0u);
}

TEST(CmnWfifo, AWordCountOutsideOneToLanesIsCaughtAndChangesNothing) {
  {
    WFifo f;
    f.drive({1, 2, 3, 4}, 0, true, 0, false);  // push of no words
    f.tick();
    EXPECT_TRUE(f.assertion_failed());
    EXPECT_EQ(f.count(), 0u);
  }
  {
    WFifo f;
    f.drive({1, 2, 3, 4}, kLanes + 1, true, 0, false);  // more words than lanes
    f.tick();
    EXPECT_TRUE(f.assertion_failed());
    EXPECT_EQ(f.count(), 0u);
  }
  {
    WFifo f;
    for (uint64_t w = 0; w < 8; ++w) f.push({w});
    f.pop(kLanes + 1);
    EXPECT_TRUE(f.assertion_failed());
    EXPECT_EQ(f.count(), 8u);
  }
}

TEST(CmnWfifo, RandomWordCountsWithBackPressureMatchAQueue) {
  std::mt19937_64 rng(test_seed());
  WFifo f;
  std::deque<uint64_t> ref;
  uint64_t pushed = 0, popped = 0, both = 0, full = 0, empty = 0;
  for (int cycle = 0; cycle < 200'000; ++cycle) {
    ASSERT_EQ(f.count(), ref.size()) << "cycle " << cycle;
    full += ref.size() == kDepth;
    empty += ref.empty();
    for (unsigned k = 0; k < kLanes && k < ref.size(); ++k) ASSERT_EQ(f.lane(k), ref[k]) << "cycle " << cycle << " lane " << k;
    // Bursts of pressure on either side: the fill level sweeps from empty to full.
    const unsigned phase = (cycle / 1000) % 3;
    const unsigned push_pct = phase == 0 ? 80 : phase == 1 ? 30 : 55;
    const unsigned pop_pct = phase == 0 ? 30 : phase == 1 ? 80 : 55;
    const unsigned push_n = 1 + rng() % kLanes, pop_n = 1 + rng() % kLanes;
    const bool pop = rng() % 100 < pop_pct && pop_n <= ref.size();  // the consumer respects count
    const size_t free_after_pop = kDepth - ref.size() + (pop ? pop_n : 0);
    const bool push = rng() % 100 < push_pct && push_n <= free_after_pop;  // the producer respects room
    Words w(push_n);
    for (auto& v : w) v = rng();
    if (pop) {
      for (unsigned k = 0; k < pop_n; ++k) ref.pop_front();
      popped += pop_n;
    }
    if (push) {
      ref.insert(ref.end(), w.begin(), w.end());
      pushed += push_n;
    }
    both += push && pop;
    f.drive(w, push_n, push, pop_n, pop);
    f.tick();
  }
  EXPECT_GT(pushed, 100'000u);
  EXPECT_GT(popped, 100'000u);
  EXPECT_GT(both, 10'000u) << "pushes and pops must overlap often";
  EXPECT_GT(full, 1'000u) << "the FIFO must run full";
  EXPECT_GT(empty, 1'000u) << "the FIFO must run empty";
  EXPECT_FALSE(f.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
