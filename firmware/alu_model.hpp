// SPDX-License-Identifier: Apache-2.0
// A C++ model of the combining network's ALU and identity unit: 64-bit words, 16- and
// 32-bit lanes, and multi-word operands (ADD least significant word first with carry,
// MAX/MIN compared most significant word first). Block testbenches check the RTL against
// it; the driver uses it to combine the contributions of several tasks on one node.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "firmware/regmap.hpp"

namespace collnet::fw {

inline uint64_t ref_identity(unsigned op) {
  using namespace regmap;
  return (op == kOpAnd || op == kOpMin) ? ~0ull : 0ull;
}

// One 64-bit word of single-word operands (or any lane width for the bitwise ops).
inline uint64_t ref_alu(unsigned op, uint64_t a, uint64_t b, uint64_t c) {
  using namespace regmap;
  switch (op) {
    case kOpNone:
    case kOpOr: return a | b | c;
    case kOpAnd: return a & b & c;
    case kOpXor: return a ^ b ^ c;
    case kOpMin: return std::min({a, b, c});
    case kOpMax: return std::max({a, b, c});
    case kOpAdd: return a + b + c;
    default: return 0;  // reserved
  }
}

// A flit of `bits`-wide lanes (16 or 32).
inline uint64_t ref_alu_lanes(unsigned op, unsigned bits, uint64_t a, uint64_t b, uint64_t c) {
  const uint64_t mask = (1ull << bits) - 1;
  uint64_t r = 0;
  for (unsigned lsb = 0; lsb < 64; lsb += bits) {
    const uint64_t la = (a >> lsb) & mask, lb = (b >> lsb) & mask, lc = (c >> lsb) & mask;
    r |= (ref_alu(op, la, lb, lc) & mask) << lsb;
  }
  return r;
}

// Multi-word operands, words[0] least significant. ADD is modulo 2^(64 * words).
inline std::vector<uint64_t> ref_add_words(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                                           const std::vector<uint64_t>& c) {
  std::vector<uint64_t> r(a.size());
  unsigned __int128 carry = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const unsigned __int128 s = static_cast<unsigned __int128>(a[i]) + b[i] + c[i] + carry;
    r[i] = static_cast<uint64_t>(s);
    carry = s >> 64;
  }
  return r;
}

// Unsigned comparison of multi-word operands (words[0] least significant).
inline bool ref_less(const std::vector<uint64_t>& x, const std::vector<uint64_t>& y) {
  for (size_t i = x.size(); i-- > 0;)
    if (x[i] != y[i]) return x[i] < y[i];
  return false;
}

inline std::vector<uint64_t> ref_max_words(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                                           const std::vector<uint64_t>& c) {
  const auto& ab = ref_less(a, b) ? b : a;
  return ref_less(ab, c) ? c : ab;
}

inline std::vector<uint64_t> ref_min_words(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                                           const std::vector<uint64_t>& c) {
  const auto& ab = ref_less(b, a) ? b : a;
  return ref_less(c, ab) ? c : ab;
}

// Combines message `b` into `a` as the ALU does for operands of `size_words` 16-bit words
// (1: 16-bit lanes, 2: 32-bit lanes, 4: 64-bit, 8/16/...: 2, 4, ... words per operand).
// Messages are in the order words travel: a multi-word ADD operand least significant word
// first, a multi-word MAX/MIN operand most significant word first. Both messages have
// the same length, a multiple of the operand.
inline void alu_combine(unsigned op, unsigned size_words, std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  if (size_words <= 2) {
    const unsigned bits = 16 * size_words;
    for (size_t i = 0; i < a.size(); ++i) a[i] = ref_alu_lanes(op, bits, a[i], b[i], ref_identity(op));
    return;
  }
  const size_t w = size_words / 4;
  if (w == 1 || (op != regmap::kOpAdd && op != regmap::kOpMax && op != regmap::kOpMin)) {
    for (size_t i = 0; i < a.size(); ++i) a[i] = ref_alu(op, a[i], b[i], ref_identity(op));
    return;
  }
  for (size_t i = 0; i + w <= a.size(); i += w) {
    std::vector<uint64_t> x(a.begin() + i, a.begin() + i + w), y(b.begin() + i, b.begin() + i + w);
    const bool msw_first = op != regmap::kOpAdd;
    if (msw_first) {  // the reference models take words[0] least significant
      std::reverse(x.begin(), x.end());
      std::reverse(y.begin(), y.end());
    }
    const std::vector<uint64_t> id(w, ref_identity(op));
    std::vector<uint64_t> r = op == regmap::kOpAdd   ? ref_add_words(x, y, std::vector<uint64_t>(w, 0))
                              : op == regmap::kOpMax ? ref_max_words(x, y, id)
                                                     : ref_min_words(x, y, id);
    if (msw_first) std::reverse(r.begin(), r.end());
    std::copy(r.begin(), r.end(), a.begin() + i);
  }
}

}  // namespace collnet::fw
