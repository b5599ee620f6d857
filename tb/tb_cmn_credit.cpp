// SPDX-License-Identifier: Apache-2.0
// cmn_credit on its own, with 5 credits: all held at reset, a take spends one and a return
// gives one back, both in one cycle cancel, a return with every credit held is refused and
// flagged for that cycle only; 100,000 random cycles against a counter, no assertion
// fired. Then its checks: a take at zero and a count beyond its credits (the register
// corrupted) each fire their assertion.
#include <random>

#include <gtest/gtest.h>

#include "Vcmn_credit.h"
#include "Vcmn_credit___024root.h"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

constexpr unsigned kCredits = 5;

class Credit : public ClockedHarness<Vcmn_credit> {
 public:
  // One cycle with these inputs; over_o as the edge saw it.
  bool cycle(bool take, bool ret) {
    model().take_i = take;
    model().return_i = ret;
    eval();
    const bool over = model().over_o;
    tick();
    model().take_i = 0;
    model().return_i = 0;
    eval();
    return over;
  }
  unsigned count() { return model().count_o; }
};

TEST(CmnCredit, HoldsEveryCreditAtReset) {
  Credit c;
  EXPECT_EQ(c.count(), kCredits);
  EXPECT_FALSE(c->over_o);
}

TEST(CmnCredit, ATakeSpendsOneAndAReturnGivesOneBack) {
  Credit c;
  for (unsigned i = 1; i <= kCredits; ++i) {
    c.cycle(true, false);
    EXPECT_EQ(c.count(), kCredits - i);
  }
  for (unsigned i = 1; i <= kCredits; ++i) {
    EXPECT_FALSE(c.cycle(false, true));
    EXPECT_EQ(c.count(), i);
  }
  EXPECT_FALSE(c.assertion_failed());
}

TEST(CmnCredit, ATakeAndAReturnInOneCycleCancel) {
  Credit c;
  c.cycle(true, false);
  EXPECT_FALSE(c.cycle(true, true));
  EXPECT_EQ(c.count(), kCredits - 1);
  c.cycle(false, true);
  EXPECT_FALSE(c.cycle(true, true)) << "all held, one taken: the return is not over";
  EXPECT_EQ(c.count(), kCredits);
  EXPECT_FALSE(c.assertion_failed());
}

TEST(CmnCredit, AReturnWithEveryCreditHeldIsRefusedAndFlagged) {
  Credit c;
  EXPECT_TRUE(c.cycle(false, true));
  EXPECT_EQ(c.count(), kCredits) << "not counted";
  EXPECT_FALSE(c->over_o) << "over_o is for that cycle only";
  c.cycle(true, false);
  EXPECT_FALSE(c.cycle(false, true));
  EXPECT_EQ(c.count(), kCredits);
  EXPECT_FALSE(c.assertion_failed()) << "the caller decides what a refused return is";
}

TEST(CmnCredit, CountsLikeACounterOnRandomTakesAndReturns) {
  std::mt19937_64 rng(test_seed());
  Credit c;
  unsigned ref = kCredits;
  for (int i = 0; i < 100000; ++i) {
    const bool take = ref > 0 && rng() % 2;  // a sender takes only what it holds
    const bool ret = rng() % 2;
    const bool over = ret && !take && ref == kCredits;
    ASSERT_EQ(c.cycle(take, ret), over) << "cycle " << i;
    ref = ref - take + (ret && !over);
    ASSERT_EQ(c.count(), ref) << "cycle " << i;
  }
  EXPECT_FALSE(c.assertion_failed());
}

TEST(CmnCreditAssertions, TakeAtZeroFires) {
  Credit c;
  for (unsigned i = 0; i < kCredits; ++i) c.cycle(true, false);
  EXPECT_TRUE(c.trips("TakeAtZero", [&] { c.cycle(true, false); }, "a credit taken with none held"));
}

TEST(CmnCreditAssertions, CountWithinCreditsFires) {
  Credit c;
  c.cycle(true, false);
  EXPECT_TRUE(c.trips("CountWithinCredits", [&] {
    c->rootp->cmn_credit__DOT__count_q = kCredits + 1;  // a flipped bit in the register
    c.tick();
  }, "6 credits held, more than the receiver's 5 buffers"));
}

}  // namespace
}  // namespace collnet::tb
