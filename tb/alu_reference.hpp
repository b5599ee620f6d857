// The C++ reference of the combining network's ALU and identity unit (64-bit lanes).
#pragma once

#include <algorithm>
#include <cstdint>

#include "firmware/regmap.hpp"

namespace collnet::tb {

inline uint64_t ref_identity(unsigned op) {
  using namespace fw::regmap;
  return (op == kOpAnd || op == kOpMin) ? ~0ull : 0ull;
}

inline uint64_t ref_alu(unsigned op, uint64_t a, uint64_t b, uint64_t c) {
  using namespace fw::regmap;
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

}  // namespace collnet::tb
