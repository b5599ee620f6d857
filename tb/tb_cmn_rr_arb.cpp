// SPDX-License-Identifier: Apache-2.0
// cmn_rr_arb (N = 5, not a power of two): the grant is one-hot and names a requester; it
// goes to the first requester after the one served last, wrapping around; a grant not
// taken leaves the order unchanged; every steady requester is served within N grants.
// The random test compares every cycle with a reference model of the rule.
#include <array>
#include <random>

#include <gtest/gtest.h>

#include "Vcmn_rr_arb.h"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
namespace {

constexpr unsigned kN = 5;

struct Arb : ClockedHarness<Vcmn_rr_arb> {
  // Presents `req` (and whether the grant is taken this cycle); returns the grant the
  // arbiter offers before the edge.
  unsigned offer(unsigned req, bool take) {
    model().req_i = req;
    model().take_i = take;
    eval();
    const unsigned g = model().grant_o;
    tick();
    model().take_i = 0;
    return g;
  }
};

// The rule: the lowest requester above `last`, else the lowest requester; 0 if none.
unsigned expected_grant(unsigned req, unsigned last) {
  for (unsigned k = 1; k <= kN; ++k) {
    const unsigned i = (last + k) % kN;
    if (req >> i & 1u) return 1u << i;
  }
  return 0;
}

TEST(CmnRrArb, GrantsNothingWithoutARequest) {
  Arb a;
  EXPECT_EQ(a.offer(0, true), 0u);
  EXPECT_EQ(a->grant_o, 0u);
}

TEST(CmnRrArb, StartsFromRequesterZeroAfterReset) {
  Arb a;
  EXPECT_EQ(a.offer(0b11111, false), 0b00001u) << "after reset, requester N-1 counts as served last";
}

TEST(CmnRrArb, RotatesThroughSteadyRequestersInOrder) {
  Arb a;
  const unsigned req = 0b10110;  // requesters 1, 2 and 4
  const unsigned want[] = {0b00010, 0b00100, 0b10000, 0b00010, 0b00100, 0b10000};
  for (unsigned g : want) EXPECT_EQ(a.offer(req, true), g);
}

TEST(CmnRrArb, AGrantNotTakenLeavesTheOrderUnchanged) {
  Arb a;
  EXPECT_EQ(a.offer(0b00011, true), 0b00001u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a.offer(0b00011, false), 0b00010u) << "offered, not taken";
  EXPECT_EQ(a.offer(0b00011, true), 0b00010u);
  EXPECT_EQ(a.offer(0b00011, true), 0b00001u);
}

TEST(CmnRrArb, IndexNamesTheGrantedRequester) {
  Arb a;
  for (unsigned i = 0; i < kN; ++i) {
    a->req_i = 1u << i;
    a.eval();
    EXPECT_EQ(a->grant_o, 1u << i);
    EXPECT_EQ(a->idx_o, i);
  }
}

TEST(CmnRrArb, MatchesTheRoundRobinRuleOnRandomRequests) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Arb a;
  unsigned last = kN - 1;
  std::array<unsigned, kN> waited{};  // grants given to others while requester i kept asking
  unsigned req = 0;
  for (int cycle = 0; cycle < 200000; ++cycle) {
    // Requests change now and then, so that steady requesters get to wait their turn.
    if (rng() % 4 == 0) req = static_cast<unsigned>(rng() % (1u << kN));
    const bool take = rng() % 3 != 0;
    const unsigned g = a.offer(req, take);
    const unsigned want = expected_grant(req, last);
    ASSERT_EQ(g, want) << "cycle " << cycle << " req " << req << " last served " << last;
    ASSERT_EQ(g & (g - 1), 0u) << "not one-hot";
    if (g && take) {
      unsigned idx = 0;
      while (!(g >> idx & 1u)) ++idx;
      last = idx;
      for (unsigned i = 0; i < kN; ++i) {
        waited[i] = (req >> i & 1u) && i != idx ? waited[i] + 1 : 0;
        ASSERT_LT(waited[i], kN) << "requester " << i << " waited " << waited[i] << " grants";
      }
    }
  }
  EXPECT_FALSE(a.assertion_failed());
}

}  // namespace
}  // namespace collnet::tb
