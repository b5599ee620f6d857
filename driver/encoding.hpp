// SPDX-License-Identifier: Apache-2.0
// How elements travel through the combining network's ALU. The ALU knows unsigned
// integers only: 16- or 32-bit lanes inside a 64-bit flit, or operands of 1, 2 or 4
// words (ADD least significant word first, MAX/MIN most significant word first). Every
// (type, op) pair is mapped onto that:
//  - integers narrower than 64 bits travel in lanes of max(16, bits) bits (u8 in 16-bit
//    lanes: sums wrap at 16 bits, and the low 8 are the u8 sum);
//  - signed integers and floats are mapped to an unsigned key that orders like the value
//    (two's complement: the sign bit flipped; IEEE 754: all bits flipped if negative, else
//    the sign bit set, i.e. totalOrder), so MAX/MIN on keys are max/min on values;
//  - land/lor/lxor send 0 or 1 through AND/OR/XOR;
//  - maxloc/minloc send a 2-word operand {key, index} through MAX/MIN: the key decides,
//    ties go to the smaller index (a signed integer: sent with its sign bit flipped, and
//    inverted by maxloc);
//  - floating-point sum is two passes (float_sum.hpp).
// A message is a vector of 64-bit words holding operands in order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "driver/datatype.hpp"
#include "firmware/packet.hpp"
#include "driver/op.hpp"

namespace collnet::driver {

using Operand = std::array<uint64_t, 4>;  // up to 4 words, [0] least significant

struct Encoding {
  fw::AluOp alu = fw::AluOp::Or;
  unsigned operand_bits = 64;  // 16 or 32 (lanes), 64, 128 or 256

  unsigned header_size() const { return operand_bits / 16; }  // fw::Header::size_words
  unsigned per_word() const { return operand_bits < 64 ? 64 / operand_bits : 1; }
  unsigned words_per_operand() const { return operand_bits > 64 ? operand_bits / 64 : 1; }
  // Message words holding `operands` operands.
  size_t words(size_t operands) const;
  // The words holding operands [first, last): {first word, one past the last word}.
  std::pair<size_t, size_t> word_range(size_t first, size_t last) const;
  // The ALU's identity as one operand.
  Operand identity() const;
  // A message of `operands` identity operands.
  std::vector<uint64_t> identity_message(size_t operands) const;
};

void put(std::vector<uint64_t>& msg, const Encoding& e, size_t i, const Operand& v);
Operand get(const std::vector<uint64_t>& msg, const Encoding& e, size_t i);

// Single-pass reductions: every op except floating-point sum.
Encoding reduce_encoding(Datatype t, Op op);
// `raw` is the element's bit pattern; `index` is used by maxloc/minloc only.
Operand encode(Datatype t, Op op, uint64_t raw, uint64_t index = 0);
// The raw result; maxloc/minloc also give the winning index.
uint64_t decode(Datatype t, Op op, const Operand& v, uint64_t* index = nullptr);

// Bit movement (bcast, gather): raw elements packed tightly by their size into words,
// combined by OR with the zeros of the ranks that do not own them.
Encoding raw_encoding();
size_t raw_words(Datatype t, size_t elements);
// The words holding elements [first, last).
std::pair<size_t, size_t> raw_word_range(Datatype t, size_t first, size_t last);
void put_raw(std::vector<uint64_t>& msg, Datatype t, size_t i, uint64_t raw);
uint64_t get_raw(const std::vector<uint64_t>& msg, Datatype t, size_t i);

// The totalOrder key of a raw element in `key_bits` bits (>= the type's bits), and back.
uint64_t order_key(Datatype t, uint64_t raw, unsigned key_bits);
uint64_t from_order_key(Datatype t, uint64_t key, unsigned key_bits);

}  // namespace collnet::driver
