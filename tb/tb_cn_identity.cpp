// SPDX-License-Identifier: Apache-2.0
// cn_identity: the identity element of every opcode.
#include <gtest/gtest.h>

#include "Vcn_identity.h"
#include "firmware/alu_model.hpp"
#include "tb/tb_harness.hpp"

namespace collnet::tb {
using namespace collnet::fw;  // the ALU model (firmware/alu_model.hpp)
namespace {

TEST(CnIdentity, GivesTheIdentityOfEveryOpcode) {
  using namespace fw::regmap;
  Harness<Vcn_identity> h;
  const struct {
    unsigned op;
    uint64_t want;
  } cases[] = {{kOpNone, 0}, {kOpOr, 0},     {kOpAnd, ~0ull}, {kOpXor, 0},
               {kOpMin, ~0ull}, {kOpMax, 0}, {kOpAdd, 0},     {7, 0}};
  for (const auto& c : cases) {
    h->opcode_i = c.op;
    h.eval();
    EXPECT_EQ(h->identity_o, c.want) << "opcode " << c.op;
  }
}

TEST(CnIdentity, AgreesWithTheReferenceAndIsNeutral) {
  std::mt19937_64 rng(test_seed());
  Harness<Vcn_identity> h;
  for (unsigned op = 1; op <= 6; ++op) {
    h->opcode_i = op;
    h.eval();
    const uint64_t id = h->identity_o;
    EXPECT_EQ(id, ref_identity(op));
    for (int i = 0; i < 1000; ++i) {
      const uint64_t x = rng();
      ASSERT_EQ(ref_alu(op, x, id, id), x) << "identity of opcode " << op << " is not neutral for " << x;
    }
  }
}

}  // namespace
}  // namespace collnet::tb
