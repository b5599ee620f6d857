// SPDX-License-Identifier: Apache-2.0
// Quiescence, the idle-edge skipping of a node side, on a stand-in model: a few bytes of
// state and an evaluation that changes them, or not, as the test says.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "systemc/quiescence.hpp"

namespace collnet::sim {
namespace {

struct FakeModel {
  std::array<uint32_t, 16> state{};
  unsigned evals = 0;
  bool busy = false;  // an evaluation changes the state
  void eval() {
    ++evals;
    if (busy) ++state[3];
  }
};

TEST(Quiescence, SkipsOnlyAfterAnEvaluationLeftTheStateUnchangedAndOnlyWhileInputsHold) {
  FakeModel m;
  std::vector<unsigned char> scratch;
  Quiescence q(m.state.data(), sizeof m.state, "fake", IdleSkip::On);
  q.use_scratch(&scratch);
  m.busy = true;
  for (uint64_t c = 0; c < 10; ++c) EXPECT_TRUE(q.step(false, c, [&] { m.eval(); })) << "busy: never skipped";
  EXPECT_EQ(q.skipped(), 0u);
  m.busy = false;
  // The next try may wait (the wait doubles after failed tries, at most kMaxWait), then
  // one evaluation shows the fixed point and the following edges are skipped.
  uint64_t c = 10;
  while (q.step(false, c, [&] { m.eval(); })) ASSERT_LT(++c, 10 + Quiescence::kMaxWait + 2);
  const unsigned evals = m.evals;
  for (unsigned i = 0; i < 20; ++i) EXPECT_FALSE(q.step(false, ++c, [&] { m.eval(); }));
  EXPECT_EQ(m.evals, evals) << "skipped edges are not evaluated";
  EXPECT_EQ(q.skipped(), 21u);
  // A changed input wakes it at once.
  EXPECT_TRUE(q.step(true, ++c, [&] { m.eval(); }));
  EXPECT_EQ(m.evals, evals + 1);
}

TEST(Quiescence, CheckModeEvaluatesSkippedEdgesAndThrowsWhenOneWasNotIdle) {
  FakeModel m;
  std::vector<unsigned char> scratch;
  Quiescence q(m.state.data(), sizeof m.state, "node7 tree side", IdleSkip::Check);
  q.use_scratch(&scratch);
  uint64_t c = 0;
  while (q.step(false, c, [&] { m.eval(); })) ASSERT_LT(++c, 5u);
  const unsigned evals = m.evals;
  EXPECT_FALSE(q.step(false, ++c, [&] { m.eval(); }));
  EXPECT_EQ(m.evals, evals + 1) << "check mode evaluates the skipped edge too";
  // A model that changes state although neither it nor its inputs did (what a wrong
  // skip would hide) is reported, naming the model and the cycle.
  m.busy = true;
  try {
    q.step(false, 1234, [&] { m.eval(); });
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("node7 tree side: cycle 1234"), std::string::npos) << e.what();
  }
}

TEST(Quiescence, OffEvaluatesEveryEdgeAndParsesItsWords) {
  FakeModel m;
  Quiescence q(m.state.data(), sizeof m.state, "fake", IdleSkip::Off);
  for (uint64_t c = 0; c < 50; ++c) EXPECT_TRUE(q.step(false, c, [&] { m.eval(); }));
  EXPECT_EQ(m.evals, 50u);
  EXPECT_EQ(q.skipped(), 0u);
  for (IdleSkip s : {IdleSkip::On, IdleSkip::Off, IdleSkip::Check}) EXPECT_EQ(parse_idle_skip(to_string(s)), s);
  EXPECT_THROW(parse_idle_skip("sometimes"), std::invalid_argument);
}

}  // namespace
}  // namespace collnet::sim
