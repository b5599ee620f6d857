// SPDX-License-Identifier: Apache-2.0
#include "reference/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "driver/float_sum.hpp"
#include "reference/collectives.hpp"

namespace collnet::reference {

using driver::Datatype;
using driver::Op;

namespace {

// a < b in the type's order; floats by IEEE 754 totalOrder (-NaN < -inf < ... < -0 < +0
// < ... < +inf < +NaN).
bool less(Datatype t, uint64_t a, uint64_t b) {
  a &= driver::raw_mask(t);
  b &= driver::raw_mask(t);
  if (driver::is_float(t)) {
    const unsigned sign = driver::bits(t) - 1;
    const bool na = (a >> sign) & 1, nb = (b >> sign) & 1;
    if (na != nb) return na;
    return na ? a > b : a < b;
  }
  if (driver::is_signed(t)) return driver::raw_to_int(t, a) < driver::raw_to_int(t, b);
  return a < b;
}

// A wide two's complement-free accumulator: magnitudes of the positive and the negative
// contributions, in units of the smallest subnormal.
struct Wide {
  std::vector<uint64_t> w = std::vector<uint64_t>(40, 0);
  void add_shifted(uint64_t m, unsigned shift) {
    const unsigned word = shift / 64, bit = shift % 64;
    unsigned __int128 carry = static_cast<unsigned __int128>(m << bit);
    uint64_t hi = bit ? m >> (64 - bit) : 0;
    for (size_t i = word; i < w.size() && (carry || hi); ++i) {
      const unsigned __int128 s = static_cast<unsigned __int128>(w[i]) + static_cast<uint64_t>(carry);
      w[i] = static_cast<uint64_t>(s);
      carry = (s >> 64) + hi;
      hi = 0;
    }
  }
};

bool wide_less(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  for (size_t i = a.size(); i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i];
  return false;
}

std::vector<uint64_t> wide_sub(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::vector<uint64_t> r(a.size());
  uint64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const unsigned __int128 d = static_cast<unsigned __int128>(a[i]) - b[i] - borrow;
    r[i] = static_cast<uint64_t>(d);
    borrow = (d >> 64) ? 1 : 0;
  }
  return r;
}

uint64_t float_sum(Datatype t, const std::vector<uint64_t>& values) {
  const driver::float_sum::Format f = driver::float_sum::format(t);
  const unsigned frac_bits = f.fraction_bits, exp_bits = f.exponent_bits;
  const int bias = f.bias, min_ulp = f.min_ulp_exp;
  const uint64_t all_ones = (1ull << exp_bits) - 1;
  bool nan = false, pinf = false, ninf = false;
  uint64_t e_max = 0;
  for (uint64_t v : values) {
    const uint64_t e = (v >> frac_bits) & all_ones;
    if (e == all_ones) {
      if (v & ((1ull << frac_bits) - 1))
        nan = true;
      else if ((v >> (driver::bits(t) - 1)) & 1)
        ninf = true;
      else
        pinf = true;
    }
    e_max = std::max<uint64_t>(e_max, e == 0 ? 1 : e);
  }
  if (nan || (pinf && ninf)) return driver::double_to_raw(t, std::numeric_limits<double>::quiet_NaN());
  if (pinf || ninf) return driver::double_to_raw(t, (pinf ? 1 : -1) * std::numeric_limits<double>::infinity());
  // Bits of a contribution below the quantum 2^(e_max - bias - K) are truncated toward -inf.
  const int quantum = static_cast<int>(e_max) - bias - static_cast<int>(driver::float_sum::kFractionBits) - min_ulp;
  Wide pos, neg;
  for (uint64_t v : values) {
    const uint64_t e = (v >> frac_bits) & all_ones;
    uint64_t m = (v & ((1ull << frac_bits) - 1)) | (e ? 1ull << frac_bits : 0);
    const unsigned shift = static_cast<unsigned>(e == 0 ? 0 : e - 1);  // v = m * 2^(shift + min_ulp)
    const bool negative = (v >> (driver::bits(t) - 1)) & 1;
    unsigned at = shift;
    if (quantum > static_cast<int>(shift)) {
      const unsigned drop = static_cast<unsigned>(quantum) - shift;
      const bool lost = drop >= 64 ? m != 0 : (m & ((1ull << drop) - 1)) != 0;
      m = drop >= 64 ? 0 : m >> drop;
      if (negative && lost) ++m;  // floor of a negative value: a larger magnitude
      at = static_cast<unsigned>(quantum);
    }
    (negative ? neg : pos).add_shifted(m, at);
  }
  const bool negative = wide_less(pos.w, neg.w);
  const std::vector<uint64_t> mag = negative ? wide_sub(neg.w, pos.w) : wide_sub(pos.w, neg.w);
  return driver::float_sum::round_to_type(t, negative, mag, min_ulp);
}

// a * b in the type: integers modulo 2^bits, floats rounded to the type.
uint64_t times(Datatype t, uint64_t a, uint64_t b) {
  if (t == Datatype::F32) {
    const float p = static_cast<float>(driver::raw_to_double(t, a)) * static_cast<float>(driver::raw_to_double(t, b));
    uint32_t r;
    std::memcpy(&r, &p, 4);
    return r;
  }
  if (t == Datatype::F64) {
    const double p = driver::raw_to_double(t, a) * driver::raw_to_double(t, b);
    uint64_t r;
    std::memcpy(&r, &p, 8);
    return r;
  }
  return (a * b) & driver::raw_mask(t);
}

// The product of values[r - m + 1 .. r] (those that exist), m a power of two, as the
// recursive-doubling scan forms it: the lower half's product times the upper half's.
uint64_t product_part(Datatype t, const std::vector<uint64_t>& v, size_t r, size_t m) {
  if (m == 1) return v[r] & driver::raw_mask(t);
  const size_t h = m / 2;
  if (r < h) return product_part(t, v, r, h);
  return times(t, product_part(t, v, r - h, h), product_part(t, v, r, h));
}

}  // namespace

uint64_t reference_op(Datatype t, Op op, const std::vector<uint64_t>& values) {
  if (values.empty()) throw std::invalid_argument("reference_op: no values");
  const uint64_t mask = driver::raw_mask(t);
  if (op == Op::Sum && driver::is_float(t)) return float_sum(t, values);
  if (op == Op::Prod) {
    size_t m = 1;
    while (m < values.size()) m *= 2;
    return product_part(t, values, values.size() - 1, m);
  }
  uint64_t r = values.front() & mask;
  if (op == Op::Land || op == Op::Lor || op == Op::Lxor) r = r != 0;
  for (size_t i = 1; i < values.size(); ++i) {
    const uint64_t v = values[i] & mask;
    switch (op) {
      case Op::Sum:
        r = (r + v) & mask;
        break;
      case Op::Max:
        r = less(t, r, v) ? v : r;
        break;
      case Op::Min:
        r = less(t, v, r) ? v : r;
        break;
      case Op::Band:
        r &= v;
        break;
      case Op::Bor:
        r |= v;
        break;
      case Op::Bxor:
        r ^= v;
        break;
      case Op::Land:
        r = r && v;
        break;
      case Op::Lor:
        r = r || v;
        break;
      case Op::Lxor:
        r = r != (v != 0);
        break;
      default:
        throw std::invalid_argument("reference_op: use reference_loc for maxloc and minloc");
    }
  }
  return r;
}

std::pair<uint64_t, uint64_t> reference_loc(Datatype t, Op op,
                                            const std::vector<std::pair<uint64_t, uint64_t>>& pairs) {
  std::pair<uint64_t, uint64_t> best = pairs.at(0);
  best.first &= driver::raw_mask(t);
  for (size_t i = 1; i < pairs.size(); ++i) {
    const uint64_t v = pairs[i].first & driver::raw_mask(t);
    const bool better = op == Op::Maxloc ? less(t, best.first, v) : less(t, v, best.first);
    if (better || (v == best.first && static_cast<int64_t>(pairs[i].second) < static_cast<int64_t>(best.second)))
      best = {v, pairs[i].second};
  }
  return best;
}

std::vector<std::optional<std::vector<uint64_t>>> reference(const Problem& p,
                                                            const std::vector<std::vector<uint64_t>>& in) {
  const size_t n = in.size();
  if (n == 0) return {};
  const bool loc = driver::is_loc(p.op);
  const size_t stride = loc ? 2 : 1;
  const size_t count = in[0].size() / stride;
  // The op over ranks [0, upto) at every element.
  auto reduce_over = [&](size_t upto) {
    std::vector<uint64_t> r(count * stride);
    for (size_t i = 0; i < count; ++i) {
      if (loc) {
        std::vector<std::pair<uint64_t, uint64_t>> pairs;
        for (size_t k = 0; k < upto; ++k) pairs.emplace_back(in[k].at(2 * i), in[k].at(2 * i + 1));
        const auto best = reference_loc(p.type, p.op, pairs);
        r[2 * i] = best.first;
        r[2 * i + 1] = best.second;
      } else {
        std::vector<uint64_t> values;
        for (size_t k = 0; k < upto; ++k) values.push_back(in[k].at(i));
        r[i] = reference_op(p.type, p.op, values);
      }
    }
    return r;
  };
  const Collective* c = find_collective(p.collective);
  if (c == nullptr || !c->expect) throw std::invalid_argument("reference: no reference for '" + p.collective + "'");
  ReferenceInputs ri{p.type,
                     p.root,
                     n,
                     [&](size_t k) {
                       std::vector<uint64_t> v = in.at(k);
                       for (uint64_t& x : v) x &= driver::raw_mask(p.type);
                       return v;
                     },
                     reduce_over,
                     p.count,
                     p.counts,
                     loc};
  return c->expect(ri);
}

Mismatch compare(const std::vector<std::vector<uint64_t>>& results,
                 const std::vector<std::optional<std::vector<uint64_t>>>& want) {
  Mismatch m;
  for (unsigned r = 0; r < want.size(); ++r) {
    if (!want[r]) continue;
    const std::vector<uint64_t>& w = *want[r];
    for (uint64_t i = 0; i < w.size(); ++i) {
      const uint64_t got = r < results.size() && i < results[r].size() ? results[r][i] : ~w[i];
      if (got != w[i] && m.count++ == 0) {
        m.rank = r;
        m.index = i;
        m.expected = w[i];
        m.got = got;
      }
    }
  }
  return m;
}

}  // namespace collnet::reference
