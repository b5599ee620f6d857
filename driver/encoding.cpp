// SPDX-License-Identifier: Apache-2.0
#include "driver/encoding.hpp"

#include "driver/error.hpp"
#include "firmware/alu_model.hpp"

namespace collnet::driver {

namespace {
uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
// Multi-word operands travel least significant word first for ADD, most significant word
// first for MAX and MIN (the order the ALU compares in). Word k of a message operand is
// operand word operand_word(e, k).
unsigned operand_word(const Encoding& e, unsigned k) {
  const bool msw_first = e.alu == fw::AluOp::Max || e.alu == fw::AluOp::Min;
  return msw_first ? e.words_per_operand() - 1 - k : k;
}
unsigned lane_bits(Datatype t) { return bits(t) <= 16 ? 16 : bits(t); }
}  // namespace

size_t Encoding::words(size_t operands) const {
  const size_t pw = per_word();
  return (operands + pw - 1) / pw * words_per_operand();
}

std::pair<size_t, size_t> Encoding::word_range(size_t first, size_t last) const {
  if (first >= last) return {0, 0};
  const size_t pw = per_word(), wpo = words_per_operand();
  return {first / pw * wpo, ((last - 1) / pw + 1) * wpo};
}

Operand Encoding::identity() const {
  const uint64_t w = fw::ref_identity(static_cast<unsigned>(alu));
  Operand o{};
  for (unsigned i = 0; i < words_per_operand(); ++i) o[i] = w & mask_of(operand_bits);
  return o;
}

std::vector<uint64_t> Encoding::identity_message(size_t operands) const {
  // Lanes of the identity fill whole words (the identity is all zeros or all ones).
  return std::vector<uint64_t>(words(operands), fw::ref_identity(static_cast<unsigned>(alu)));
}

void put(std::vector<uint64_t>& msg, const Encoding& e, size_t i, const Operand& v) {
  if (e.operand_bits < 64) {
    const unsigned pw = e.per_word(), shift = static_cast<unsigned>(i % pw) * e.operand_bits;
    uint64_t& w = msg[i / pw];
    w = (w & ~(mask_of(e.operand_bits) << shift)) | ((v[0] & mask_of(e.operand_bits)) << shift);
    return;
  }
  const unsigned wpo = e.words_per_operand();
  for (unsigned k = 0; k < wpo; ++k) msg[i * wpo + k] = v[operand_word(e, k)];
}

Operand get(const std::vector<uint64_t>& msg, const Encoding& e, size_t i) {
  Operand o{};
  if (e.operand_bits < 64) {
    const unsigned pw = e.per_word(), shift = static_cast<unsigned>(i % pw) * e.operand_bits;
    o[0] = (msg[i / pw] >> shift) & mask_of(e.operand_bits);
    return o;
  }
  const unsigned wpo = e.words_per_operand();
  for (unsigned k = 0; k < wpo; ++k) o[operand_word(e, k)] = msg[i * wpo + k];
  return o;
}

uint64_t order_key(Datatype t, uint64_t raw, unsigned key_bits) {
  const unsigned b = bits(t);
  raw &= raw_mask(t);
  if (is_float(t)) {
    const uint64_t sign = 1ull << (b - 1);
    return (raw & sign) ? (~raw & raw_mask(t)) : (raw | sign);
  }
  if (is_signed(t)) return (static_cast<uint64_t>(raw_to_int(t, raw)) & mask_of(key_bits)) ^ (1ull << (key_bits - 1));
  return raw;
}

uint64_t from_order_key(Datatype t, uint64_t key, unsigned key_bits) {
  const unsigned b = bits(t);
  if (is_float(t)) {
    const uint64_t sign = 1ull << (b - 1);
    key &= raw_mask(t);
    return (key & sign) ? (key & ~sign) : (~key & raw_mask(t));
  }
  if (is_signed(t)) return (key ^ (1ull << (key_bits - 1))) & raw_mask(t);
  return key & raw_mask(t);
}

Encoding reduce_encoding(Datatype t, Op op) {
  check_accepts("reduce_encoding", op, t);
  Encoding e;
  switch (op) {
    case Op::Sum:
      if (is_float(t)) throw Error("reduce_encoding: a floating-point sum takes two passes (float_sum.hpp)");
      e.alu = fw::AluOp::Add;
      break;
    case Op::Max: e.alu = fw::AluOp::Max; break;
    case Op::Min: e.alu = fw::AluOp::Min; break;
    case Op::Band:
    case Op::Land: e.alu = fw::AluOp::And; break;
    case Op::Bor:
    case Op::Lor: e.alu = fw::AluOp::Or; break;
    case Op::Bxor:
    case Op::Lxor: e.alu = fw::AluOp::Xor; break;
    case Op::Maxloc: e.alu = fw::AluOp::Max; break;
    case Op::Minloc: e.alu = fw::AluOp::Min; break;
    case Op::Prod: throw Error("reduce_encoding: the ALU cannot multiply; prod runs on the torus");
  }
  e.operand_bits = is_loc(op) ? 128 : lane_bits(t);
  return e;
}

namespace {
// A raw index is a signed integer (sign-extended); flipping its sign bit makes the ALU's
// unsigned comparison order it as a signed one, so ties go to the smaller index, -1 too.
constexpr uint64_t kIndexSign = uint64_t{1} << 63;
}  // namespace

Operand encode(Datatype t, Op op, uint64_t raw, uint64_t index) {
  const unsigned lb = lane_bits(t);
  raw &= raw_mask(t);
  Operand o{};
  switch (op) {
    case Op::Sum:
    case Op::Prod:
    case Op::Band:
    case Op::Bor:
    case Op::Bxor: o[0] = raw; break;
    case Op::Land:
    case Op::Lor:
    case Op::Lxor: o[0] = raw != 0 ? 1 : 0; break;
    case Op::Max:
    case Op::Min: o[0] = order_key(t, raw, lb); break;
    case Op::Maxloc:
      o[1] = order_key(t, raw, 64);
      o[0] = ~(index ^ kIndexSign);
      break;
    case Op::Minloc:
      o[1] = order_key(t, raw, 64);
      o[0] = index ^ kIndexSign;
      break;
  }
  return o;
}

uint64_t decode(Datatype t, Op op, const Operand& v, uint64_t* index) {
  switch (op) {
    case Op::Sum:
    case Op::Prod:
    case Op::Band:
    case Op::Bor:
    case Op::Bxor: return v[0] & raw_mask(t);
    case Op::Land:
    case Op::Lor:
    case Op::Lxor: return v[0] != 0 ? 1 : 0;
    case Op::Max:
    case Op::Min: return from_order_key(t, v[0], lane_bits(t));
    case Op::Maxloc:
    case Op::Minloc:
      if (index) *index = (op == Op::Maxloc ? ~v[0] : v[0]) ^ kIndexSign;
      return from_order_key(t, v[1], 64);
  }
  return 0;
}

Encoding raw_encoding() { return Encoding{fw::AluOp::Or, 64}; }

size_t raw_words(Datatype t, size_t elements) { return (elements * bytes(t) + 7) / 8; }

std::pair<size_t, size_t> raw_word_range(Datatype t, size_t first, size_t last) {
  if (first >= last) return {0, 0};
  return {first * bytes(t) / 8, ((last - 1) * bytes(t)) / 8 + 1};
}

void put_raw(std::vector<uint64_t>& msg, Datatype t, size_t i, uint64_t raw) {
  const size_t byte = i * bytes(t);
  const unsigned shift = static_cast<unsigned>(byte % 8) * 8;
  uint64_t& w = msg[byte / 8];
  w = (w & ~(raw_mask(t) << shift)) | ((raw & raw_mask(t)) << shift);
}

uint64_t get_raw(const std::vector<uint64_t>& msg, Datatype t, size_t i) {
  const size_t byte = i * bytes(t);
  return (msg[byte / 8] >> ((byte % 8) * 8)) & raw_mask(t);
}

}  // namespace collnet::driver
