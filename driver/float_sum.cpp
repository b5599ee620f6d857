// SPDX-License-Identifier: Apache-2.0
#include "driver/float_sum.hpp"

#include <cmath>
#include <limits>

namespace collnet::driver::float_sum {

namespace {

using U256 = Operand;

U256 negate(const U256& x) {
  U256 r{};
  unsigned __int128 carry = 1;
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned __int128 s = static_cast<unsigned __int128>(~x[i]) + carry;
    r[i] = static_cast<uint64_t>(s);
    carry = s >> 64;
  }
  return r;
}

U256 shift_left(uint64_t m, unsigned shift) {
  U256 r{};
  const unsigned word = shift / 64, bit = shift % 64;
  r[word] = m << bit;
  if (bit && word + 1 < 4) r[word + 1] = m >> (64 - bit);
  return r;
}

}  // namespace

Format format(Datatype t) {
  if (t == Datatype::F32) return {23, 8, 127, -149};
  return {52, 11, 1023, -1074};
}

Encoding exponent_encoding() { return Encoding{fw::AluOp::Max, 16}; }
Encoding fixed_encoding() { return Encoding{fw::AluOp::Add, 256}; }

uint64_t exponent_key(Datatype t, uint64_t raw) {
  const Format f = format(t);
  const uint64_t e = (raw >> f.fraction_bits) & ((1ull << f.exponent_bits) - 1);
  return e == 0 ? 1 : e;
}

Operand to_fixed(Datatype t, uint64_t raw, uint64_t e_max) {
  const Format f = format(t);
  const uint64_t all_ones = (1ull << f.exponent_bits) - 1;
  const bool negative = (raw >> (bits(t) - 1)) & 1;
  const uint64_t e = (raw >> f.fraction_bits) & all_ones;
  const uint64_t frac = raw & ((1ull << f.fraction_bits) - 1);
  Operand o{};
  if (e_max == all_ones) {  // some contribution is infinite or NaN: count them
    if (e == all_ones) o[frac != 0 ? 2 : (negative ? 1 : 0)] = 1;
    return o;
  }
  const uint64_t m = frac | (e != 0 ? (1ull << f.fraction_bits) : 0);
  const int e_eff = static_cast<int>(e == 0 ? 1 : e);
  const int shift = e_eff - static_cast<int>(e_max) + static_cast<int>(kFractionBits) - static_cast<int>(f.fraction_bits);
  bool inexact = false;
  if (shift >= 0) {
    o = shift_left(m, static_cast<unsigned>(shift));
  } else {
    const unsigned r = static_cast<unsigned>(-shift);
    o[0] = r >= 64 ? 0 : m >> r;
    inexact = r >= 64 ? m != 0 : (m & ((1ull << r) - 1)) != 0;
  }
  if (negative) {
    if (inexact) {
      for (uint64_t& w : o) w = ~w;  // -a - 1 == ~a: the floor of the negative value
    } else {
      o = negate(o);
    }
  }
  return o;
}

uint64_t from_fixed(Datatype t, const Operand& sum, uint64_t e_max) {
  const Format f = format(t);
  const uint64_t all_ones = (1ull << f.exponent_bits) - 1;
  if (e_max == all_ones) {
    const bool nan = sum[2] != 0 || (sum[0] != 0 && sum[1] != 0);
    if (nan) return double_to_raw(t, std::numeric_limits<double>::quiet_NaN());
    return double_to_raw(t, sum[0] != 0 ? std::numeric_limits<double>::infinity()
                                        : -std::numeric_limits<double>::infinity());
  }
  if (e_max == 0) return 0;
  const bool negative = (sum[3] >> 63) & 1;
  const Operand mag = negative ? negate(sum) : sum;
  const int exp2 = static_cast<int>(e_max) - f.bias - static_cast<int>(kFractionBits);
  return round_to_type(t, negative, std::vector<uint64_t>(mag.begin(), mag.end()), exp2);
}

uint64_t round_to_type(Datatype t, bool negative, const std::vector<uint64_t>& mag, int exp2) {
  const Format f = format(t);
  const int precision = static_cast<int>(f.fraction_bits) + 1;
  int top = -1;
  for (size_t i = mag.size(); i-- > 0;)
    if (mag[i]) {
      top = static_cast<int>(i * 64) + 63 - __builtin_clzll(mag[i]);
      break;
    }
  if (top < 0) return 0;  // exact zero: +0
  auto bit = [&](int pos) { return pos >= 0 && ((mag[static_cast<size_t>(pos) / 64] >> (pos % 64)) & 1); };
  const int ulp = std::max(top - (precision - 1), f.min_ulp_exp - exp2);
  uint64_t q = 0;
  for (int pos = std::min(top, ulp + 63); pos >= std::max(ulp, 0); --pos) q = (q << 1) | (bit(pos) ? 1 : 0);
  if (ulp > 0) {
    const bool half = bit(ulp - 1);
    bool sticky = false;
    for (int pos = ulp - 2; pos >= 0 && !sticky; --pos) sticky = bit(pos);
    if (half && (sticky || (q & 1))) ++q;
  }
  const int scale = (ulp > 0 ? ulp : 0) + exp2;
  double v = std::ldexp(static_cast<double>(q), scale);
  if (negative) v = -v;
  return double_to_raw(t, v);
}

}  // namespace collnet::driver::float_sum
