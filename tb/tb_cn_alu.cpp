// SPDX-License-Identifier: Apache-2.0
// cn_alu against the C++ reference: every opcode on random and corner-case operands, as
// 64-bit words, as 16- and 32-bit lanes, and as multi-word operands streamed through the
// ALU's carry and tie state the way the combine engine streams them.
#include <gtest/gtest.h>

#include "Vcn_alu.h"
#include "firmware/alu_model.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
using namespace collnet::fw;  // the ALU model (firmware/alu_model.hpp)
namespace {

constexpr int kSetsPerOpcode = 100'000;

uint64_t operand(std::mt19937_64& rng) {
  static const uint64_t corners[] = {0, 1, ~0ull, 1ull << 63, (1ull << 63) - 1, 0x00000000ffffffffull,
                                     0xffffffff00000000ull};
  switch (rng() % 8) {
    case 0: return corners[rng() % (sizeof corners / sizeof corners[0])];
    case 1: return rng() & 0xff;  // small values make equal operands (MIN/MAX ties) likely
    default: return rng();
  }
}

std::string opcode_name(const ::testing::TestParamInfo<unsigned>& p) {
  static const char* const names[] = {"NONE", "OR", "AND", "XOR", "MIN", "MAX", "ADD", "RESERVED"};
  return names[p.param];
}

// Single 64-bit word operands: every word is an operand's first (and only) word.
void single_words(Harness<Vcn_alu>& h) {
  h->width_i = fw::regmap::kWidth64;
  h->first_i = 1;
  h->carry_i = 0;
  h->tie_i = 0b111;
}

class CnAlu : public ::testing::TestWithParam<unsigned> {};

TEST_P(CnAlu, MatchesReferenceOnRandomOperands) {
  const unsigned op = GetParam();
  std::mt19937_64 rng(test_seed() + op);
  Harness<Vcn_alu> h;
  single_words(h);
  h->opcode_i = op;
  for (int i = 0; i < kSetsPerOpcode; ++i) {
    const uint64_t a = operand(rng), b = operand(rng), c = operand(rng);
    h->a_i = a;
    h->b_i = b;
    h->c_i = c;
    h.eval();
    const uint64_t want = ref_alu(op, a, b, c);
    ASSERT_EQ(h->result_o, want) << "opcode " << op << " set " << i << ": a=" << std::hex << a << " b=" << b
                                 << " c=" << c;
  }
}

INSTANTIATE_TEST_SUITE_P(AllOpcodes, CnAlu, ::testing::Range(0u, 8u), opcode_name);

// The reduction opcodes (OR..ADD): each has an identity the identity unit injects.
class CnAluIdentity : public ::testing::TestWithParam<unsigned> {};

TEST_P(CnAluIdentity, IdentityOperandsLeaveTheValueUnchanged) {
  const unsigned op = GetParam();
  std::mt19937_64 rng(test_seed() + 100 + op);
  Harness<Vcn_alu> h;
  single_words(h);
  h->opcode_i = op;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = operand(rng);
    const uint64_t id = ref_identity(op);
    for (int pos = 0; pos < 3; ++pos) {
      h->a_i = pos == 0 ? x : id;
      h->b_i = pos == 1 ? x : id;
      h->c_i = pos == 2 ? x : id;
      h.eval();
      ASSERT_EQ(h->result_o, x) << "opcode " << op << " value at input " << pos;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ReductionOpcodes, CnAluIdentity, ::testing::Range(1u, 7u), opcode_name);

TEST(CnAluAdd, WrapsModulo2To64) {
  Harness<Vcn_alu> h;
  single_words(h);
  h->opcode_i = fw::regmap::kOpAdd;
  h->a_i = ~0ull;
  h->b_i = 2;
  h->c_i = ~0ull;
  h.eval();
  EXPECT_EQ(h->result_o, 0ull);  // -1 + 2 - 1
}

TEST(CnAluMinMax, AreUnsigned) {
  Harness<Vcn_alu> h;
  single_words(h);
  h->a_i = 1ull << 63;  // negative as signed, huge as unsigned
  h->b_i = 5;
  h->c_i = 7;
  h->opcode_i = fw::regmap::kOpMax;
  h.eval();
  EXPECT_EQ(h->result_o, 1ull << 63);
  h->opcode_i = fw::regmap::kOpMin;
  h.eval();
  EXPECT_EQ(h->result_o, 5ull);
}

// ------------------------------------------------------------------ lanes
class CnAluLanes : public ::testing::TestWithParam<unsigned> {};

TEST_P(CnAluLanes, SixteenAndThirtyTwoBitLanesAreIndependentOperands) {
  const unsigned op = GetParam();
  std::mt19937_64 rng(test_seed() + 200 + op);
  Harness<Vcn_alu> h;
  h->opcode_i = op;
  h->first_i = 1;
  h->carry_i = 0;
  h->tie_i = 0b111;
  for (unsigned bits : {16u, 32u}) {
    h->width_i = bits == 16 ? fw::regmap::kWidth16 : fw::regmap::kWidth32;
    for (int i = 0; i < 20'000; ++i) {
      const uint64_t a = operand(rng), b = operand(rng), c = operand(rng);
      h->a_i = a;
      h->b_i = b;
      h->c_i = c;
      h.eval();
      ASSERT_EQ(h->result_o, ref_alu_lanes(op, bits, a, b, c))
          << bits << "-bit lanes, opcode " << op << ": a=" << std::hex << a << " b=" << b << " c=" << c;
      ASSERT_EQ(h->carry_o, 0u) << "lanes never carry";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ReductionOpcodes, CnAluLanes, ::testing::Range(1u, 7u), opcode_name);

// ------------------------------------------------------------------ multi-word operands
// A random operand of `words` words; high words are often equal across operands (ties)
// and often all ones (long carry chains).
std::vector<uint64_t> wide_operand(std::mt19937_64& rng, size_t words, uint64_t shared_high) {
  std::vector<uint64_t> v(words);
  for (size_t i = 0; i < words; ++i) {
    switch (rng() % 4) {
      case 0: v[i] = ~0ull; break;
      case 1: v[i] = shared_high; break;
      default: v[i] = rng(); break;
    }
  }
  if (rng() % 2) v[words - 1] = shared_high;
  return v;
}

// Streams three operands through the ALU, word by word, in the order the network sends
// them, feeding the carry/tie state back as the combine engine does; returns the result
// words least significant first.
std::vector<uint64_t> stream_words(Harness<Vcn_alu>& h, unsigned op, const std::vector<uint64_t>& a,
                                   const std::vector<uint64_t>& b, const std::vector<uint64_t>& c) {
  const size_t n = a.size();
  std::vector<uint64_t> r(n);
  const bool msw_first = op == fw::regmap::kOpMax || op == fw::regmap::kOpMin;
  h->opcode_i = op;
  h->width_i = fw::regmap::kWidth64;
  unsigned carry = 0, tie = 0b111;
  for (size_t step = 0; step < n; ++step) {
    const size_t i = msw_first ? n - 1 - step : step;
    h->first_i = step == 0;
    h->carry_i = carry;
    h->tie_i = tie;
    h->a_i = a[i];
    h->b_i = b[i];
    h->c_i = c[i];
    h.eval();
    r[i] = h->result_o;
    carry = h->carry_o;
    tie = h->tie_o;
  }
  return r;
}

class CnAluWide : public ::testing::TestWithParam<size_t> {};

TEST_P(CnAluWide, AddCarriesAcrossWordsLeastSignificantFirst) {
  const size_t words = GetParam();
  std::mt19937_64 rng(test_seed() + 300 + words);
  Harness<Vcn_alu> h;
  for (int t = 0; t < 3000; ++t) {
    const uint64_t hi = rng();
    const auto a = wide_operand(rng, words, hi), b = wide_operand(rng, words, hi), c = wide_operand(rng, words, hi);
    ASSERT_EQ(stream_words(h, fw::regmap::kOpAdd, a, b, c), ref_add_words(a, b, c)) << words << "-word ADD, set " << t;
  }
}

TEST_P(CnAluWide, MaxAndMinCompareMostSignificantWordFirst) {
  const size_t words = GetParam();
  std::mt19937_64 rng(test_seed() + 400 + words);
  Harness<Vcn_alu> h;
  for (int t = 0; t < 3000; ++t) {
    const uint64_t hi = rng() & 0xf;
    const auto a = wide_operand(rng, words, hi), b = wide_operand(rng, words, hi), c = wide_operand(rng, words, hi);
    ASSERT_EQ(stream_words(h, fw::regmap::kOpMax, a, b, c), ref_max_words(a, b, c)) << words << "-word MAX, set " << t;
    ASSERT_EQ(stream_words(h, fw::regmap::kOpMin, a, b, c), ref_min_words(a, b, c)) << words << "-word MIN, set " << t;
  }
}

TEST(CnAluWide, ACarryOutOfTheTopWordIsDiscardedAtTheNextOperand) {
  Harness<Vcn_alu> h;
  const std::vector<uint64_t> ones = {~0ull, ~0ull}, one = {1, 0}, zero = {0, 0};
  EXPECT_EQ(stream_words(h, fw::regmap::kOpAdd, ones, one, zero), (std::vector<uint64_t>{0, 0}));
  // The next operand starts from no carry, whatever the last word produced.
  EXPECT_EQ(stream_words(h, fw::regmap::kOpAdd, one, zero, zero), (std::vector<uint64_t>{1, 0}));
}

INSTANTIATE_TEST_SUITE_P(OperandWords, CnAluWide, ::testing::Values(size_t{2}, size_t{4}, size_t{32}));

}  // namespace
}  // namespace collnet::tb
