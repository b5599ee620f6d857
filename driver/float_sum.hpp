// SPDX-License-Identifier: Apache-2.0
// Exact, reproducible floating-point sums on an integer ALU, in two passes over the tree:
//  1. MAX of each element's exponent field (16-bit lanes): E, the largest exponent;
//  2. ADD of each element as a 256-bit two's complement fixed-point integer whose scale
//     is set by E: X = floor(v * 2^(K - (E - bias))) with K = 234, so |X| < 2^235 and
//     up to 2^20 contributions cannot overflow the 256-bit operand.
// Integer addition is associative, so the sum does not depend on the tree's shape or the
// order contributions meet in; it is rounded to the type once, to nearest-even.
// Precision: a contribution is exact if its least significant bit is at least
// 2^(E - bias - 234); below that it is truncated toward minus infinity. For f64 that means
// every contribution within 2^-182 of the largest one's binade is exact (f32: 2^-211). A
// zero sum is +0. Infinities and NaNs: an element with an infinite or NaN contribution
// carries counts of +inf, -inf and NaN in pass 2: NaN if any NaN or both infinities,
// else the infinity (the result NaN is the default quiet NaN).
#pragma once

#include <cstdint>
#include <vector>

#include "driver/datatype.hpp"
#include "driver/encoding.hpp"

namespace collnet::driver::float_sum {

constexpr unsigned kFractionBits = 234;  // K
constexpr unsigned kHeadroomBits = 20;   // log2 of the contributions a sum may have

// An IEEE 754 binary format: f32 or f64.
struct Format {
  unsigned fraction_bits, exponent_bits;
  int bias, min_ulp_exp;  // 2^min_ulp_exp: the smallest subnormal
};
Format format(Datatype t);

Encoding exponent_encoding();  // MAX over 16-bit lanes
Encoding fixed_encoding();     // ADD over 256-bit operands

// The pass-1 key: the biased exponent, at least 1 for finite values (0 is "no contribution").
uint64_t exponent_key(Datatype t, uint64_t raw);
// The pass-2 operand of `raw` for largest exponent key `e`.
Operand to_fixed(Datatype t, uint64_t raw, uint64_t e);
// The rounded sum from the pass-2 result and the largest exponent key.
uint64_t from_fixed(Datatype t, const Operand& sum, uint64_t e);

// The raw value of type t nearest to (-1)^negative * magnitude * 2^exp2 (ties to even),
// `magnitude` in 64-bit words, [0] least significant.
uint64_t round_to_type(Datatype t, bool negative, const std::vector<uint64_t>& magnitude, int exp2);

}  // namespace collnet::driver::float_sum
