// SPDX-License-Identifier: Apache-2.0
// cmn_fifo (Width 64, Depth 8): order, full/empty, simultaneous push and pop, back-pressure,
// and the overflow assertion.
#include <deque>

#include <gtest/gtest.h>

#include "Vcmn_fifo.h"
#include "Vcmn_fifo___024root.h"
#include "systemc/model_clock.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

constexpr unsigned kDepth = 8;

struct Fifo : ClockedHarness<Vcmn_fifo> {
  void push(uint64_t v) {
    model().push_i = 1;
    model().data_i = v;
    tick();
    model().push_i = 0;
  }
  uint64_t pop() {
    const uint64_t v = model().data_o;
    model().pop_i = 1;
    tick();
    model().pop_i = 0;
    return v;
  }
};

TEST(CmnFifo, IsEmptyAfterReset) {
  Fifo f;
  EXPECT_TRUE(f->empty_o);
  EXPECT_FALSE(f->full_o);
  EXPECT_EQ(f->count_o, 0u);
}

TEST(CmnFifo, FillsToDepthAndDrainsInOrder) {
  Fifo f;
  for (unsigned i = 0; i < kDepth; ++i) {
    EXPECT_FALSE(f->full_o) << "full after " << i << " pushes";
    f.push(100 + i);
    EXPECT_EQ(f->count_o, i + 1);
  }
  EXPECT_TRUE(f->full_o);
  for (unsigned i = 0; i < kDepth; ++i) EXPECT_EQ(f.pop(), 100 + i);
  EXPECT_TRUE(f->empty_o);
  EXPECT_FALSE(f.assertion_failed());
}

TEST(CmnFifo, PushAndPopInTheSameCycleWhenFullKeepsItFull) {
  Fifo f;
  for (unsigned i = 0; i < kDepth; ++i) f.push(i);
  f->push_i = 1;
  f->pop_i = 1;
  f->data_i = 99;
  f.tick();
  f->push_i = 0;
  f->pop_i = 0;
  EXPECT_TRUE(f->full_o);
  for (unsigned i = 1; i < kDepth; ++i) EXPECT_EQ(f.pop(), i);
  EXPECT_EQ(f.pop(), 99u);
  EXPECT_FALSE(f.assertion_failed());
}

TEST(CmnFifo, PushIntoFullFifoIsCaughtAndChangesNothing) {
  Fifo f;
  for (unsigned i = 0; i < kDepth; ++i) f.push(i);
  f.push(1234);  // a caller bug
  EXPECT_TRUE(f.assertion_failed());
  EXPECT_EQ(f->count_o, kDepth);
  for (unsigned i = 0; i < kDepth; ++i) EXPECT_EQ(f.pop(), i);
}

TEST(CmnFifo, PopFromEmptyFifoIsCaught) {
  Fifo f;
  f.pop();
  EXPECT_TRUE(f.assertion_failed());
  EXPECT_TRUE(f->empty_o);
}

// The machine clocks its models with one evaluation per cycle (sim::clock_cycle), not a
// falling and a rising one: the assertions must check that cycle's inputs there too,
// neither missing a bug nor firing on a legal cycle.
TEST(CmnFifo, AssertionsSeeTheInputsWithOneEvaluationPerCycle) {
  Fifo f;
  f->push_i = 1;
  f->data_i = 7;
  sim::clock_cycle(f.model());
  f->push_i = 0;
  EXPECT_EQ(f->count_o, 1u);
  f->pop_i = 1;
  sim::clock_cycle(f.model());  // legal: pops the one word held
  EXPECT_EQ(f->count_o, 0u);
  EXPECT_FALSE(f.assertion_failed());
  sim::clock_cycle(f.model());  // pop_i still set: a pop from the empty FIFO
  EXPECT_TRUE(f.assertion_failed());
  EXPECT_TRUE(f->empty_o);
}

TEST(CmnFifo, RandomTrafficWithBackPressureMatchesAQueue) {
  std::mt19937_64 rng(test_seed());
  Fifo f;
  std::deque<uint64_t> ref;
  for (int cycle = 0; cycle < 200'000; ++cycle) {
    const bool want_push = rng() % 100 < 55;
    const bool want_pop = rng() % 100 < 50;
    const bool push = want_push && !f->full_o;  // the producer respects full
    const bool pop = want_pop && !f->empty_o;   // the consumer respects empty
    const uint64_t v = rng();
    ASSERT_EQ(bool(f->empty_o), ref.empty()) << "cycle " << cycle;
    ASSERT_EQ(bool(f->full_o), ref.size() == kDepth) << "cycle " << cycle;
    ASSERT_EQ(f->count_o, ref.size()) << "cycle " << cycle;
    if (pop) {
      ASSERT_EQ(f->data_o, ref.front()) << "cycle " << cycle;
      ref.pop_front();
    }
    if (push) ref.push_back(v);
    f->push_i = push;
    f->pop_i = pop;
    f->data_i = v;
    f.tick();
  }
  EXPECT_FALSE(f.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
