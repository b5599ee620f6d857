// SPDX-License-Identifier: Apache-2.0
#include "reference/inputs.hpp"

#include <cmath>

namespace collnet::reference {

namespace {
// splitmix64: a small, well-mixed counter-based generator.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

std::vector<uint64_t> seeded_input(uint64_t seed, unsigned rank, uint64_t count, driver::Datatype type, driver::Op op) {
  using driver::Op;
  const bool loc = driver::is_loc(op);
  std::vector<uint64_t> v(count * (loc ? 2 : 1));
  uint64_t state = mix(seed) ^ mix(0x5eed0000ull + rank);
  auto next = [&state] { return mix(state++); };
  const uint64_t mask = driver::raw_mask(type);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t x = next();
    if (driver::is_float(type)) {
      // Finite values with exponents in [-30, 30] and both signs (ties for the loc ops).
      const double mant = loc ? static_cast<double>(x % 5) - 2.0 : static_cast<double>(x >> 11) / 9007199254740992.0;
      const int exp = loc ? 0 : static_cast<int>(next() % 61) - 30;
      if (op == Op::Prod) {
        // Magnitudes in [0.5, 2): products of many ranks stay within range.
        const double value = ((next() & 1) ? -1.0 : 1.0) * std::ldexp(1.0 + mant, -static_cast<int>(next() & 1));
        v[i] = driver::double_to_raw(type, value);
        continue;
      }
      const double value = std::ldexp(((next() & 1) && !loc ? -1.0 : 1.0) * mant, exp);
      x = driver::double_to_raw(type, value);
    } else {
      switch (op) {
        case Op::Band:  // each bit cleared with probability 1/64
          x = ~(x & next() & next() & next() & next() & next());
          break;
        case Op::Bor:  // each bit set with probability 1/64
          x = x & next() & next() & next() & next() & next();
          break;
        case Op::Land:  // zero with probability 1/64
          x = (x % 64) ? x : 0;
          break;
        case Op::Lor:  // non-zero with probability 1/64
          x = (x % 64) ? 0 : x | 1;
          break;
        case Op::Maxloc:
        case Op::Minloc: {  // a few distinct values around zero
          const int64_t small = static_cast<int64_t>(x % 7) - (driver::is_signed(type) ? 3 : 0);
          x = static_cast<uint64_t>(small);
          break;
        }
        case Op::Prod:  // odd: products never collapse to zero
          x |= 1;
          break;
        default:
          break;
      }
      x &= mask;
    }
    if (loc) {
      v[2 * i] = x & mask;
      v[2 * i + 1] = rank;
    } else {
      v[i] = x & mask;
    }
  }
  return v;
}

}  // namespace collnet::reference
