// cn_alu against the C++ reference: every opcode on random and corner-case operands.
#include <gtest/gtest.h>

#include "Vcn_alu.h"
#include "alu_reference.hpp"
#include "tb_harness.hpp"

namespace collnet::tb {
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

class CnAlu : public ::testing::TestWithParam<unsigned> {};

TEST_P(CnAlu, MatchesReferenceOnRandomOperands) {
  const unsigned op = GetParam();
  std::mt19937_64 rng(test_seed() + op);
  Harness<Vcn_alu> h;
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
  h->opcode_i = fw::regmap::kOpAdd;
  h->a_i = ~0ull;
  h->b_i = 2;
  h->c_i = ~0ull;
  h.eval();
  EXPECT_EQ(h->result_o, 0ull);  // -1 + 2 - 1
}

TEST(CnAluMinMax, AreUnsigned) {
  Harness<Vcn_alu> h;
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

}  // namespace
}  // namespace collnet::tb
