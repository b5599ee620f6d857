// SPDX-License-Identifier: Apache-2.0
// A combining-network packet header and class route as values, with their bit encodings
// (layouts in regmap.hpp / cn_pkg.sv).
#pragma once

#include <cstdint>
#include <string>

#include "firmware/regmap.hpp"

namespace collnet::fw {

// The ALU operation a packet asks for.
enum class AluOp : uint8_t {
  None = regmap::kOpNone,
  Or = regmap::kOpOr,
  And = regmap::kOpAnd,
  Xor = regmap::kOpXor,
  Min = regmap::kOpMin,
  Max = regmap::kOpMax,
  Add = regmap::kOpAdd,
};

const char* to_string(AluOp op);

// The 32-bit header that leads every tree packet.
struct Header {
  unsigned cls = 0;          // class route, 0..15
  bool p2p = false;          // point-to-point (not yet routed by the adapter)
  bool irq = false;          // interrupt on reception
  AluOp op = AluOp::None;
  unsigned size_words = 4;   // operand size in 16-bit words, 1..128 (4 = 64 bits)
  unsigned tag = 0;          // 14-bit software tag

  uint32_t encode() const;
  static Header decode(uint32_t word);
  std::string describe() const;
  bool operator==(const Header& o) const { return encode() == o.encode(); }
};

// Which links of a node a class uses: the up link (none at the root of the class), the
// down links, and whether the node contributes data and receives the result.
struct ClassRoute {
  static constexpr unsigned kNoUpLink = regmap::kRouteUpNone;
  unsigned up_link = kNoUpLink;  // 0..2, or kNoUpLink
  unsigned down_mask = 0;        // bit l: link l leads to a child in this class
  bool local_source = false;
  bool local_destination = false;

  uint64_t encode() const;
  static ClassRoute decode(uint64_t word);
  std::string describe() const;
};

}  // namespace collnet::fw
