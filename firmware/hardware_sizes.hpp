// SPDX-License-Identifier: Apache-2.0
// The node's sizes as its hardware reports them: RegSizes (the tree side) and RegTrSizes
// (the torus side) hold the sizes each side was built with, one field per entry of the
// catalogue (firmware/rtl_sizes.hpp, from regmap/collnet.json). Software reads them here
// instead of assuming the defaults, so that one binary runs on every variant
// (docs/design-space.md).
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <string>
#include <stdexcept>
#include <string_view>

#include "firmware/register_bus.hpp"
#include "firmware/rtl_sizes.hpp"

namespace collnet::fw {

// The width of a FIFO's level counter, 0..depth: the RTL's $clog2(depth + 1).
constexpr unsigned level_bits(unsigned depth) {
  unsigned b = 0;
  while ((uint64_t{1} << b) < uint64_t{depth} + 1) ++b;
  return b;
}

// The default of the size `key` names, looked up in the catalogue (at compile time, where a
// key it has not fails to compile).
constexpr unsigned size_default(std::string_view key) {
  for (const regmap::SizeParam& p : regmap::kSizes)
    if (key == p.key) return p.def;
  throw std::invalid_argument("no size " + std::string(key) + " in the catalogue");
}

struct HardwareSizes {
  std::array<unsigned, std::size(regmap::kSizes)> values{};  // in catalogue order

  // The size `key` names ("torus.vc_buffer_flits"); throws std::invalid_argument for a
  // key the catalogue has not.
  unsigned get(const std::string& key) const;
  // The sizes as the registers hold them (one read per register).
  static HardwareSizes read(RegisterBus& bus);
  // The sizes two register words hold (RegSizes' and RegTrSizes').
  static HardwareSizes decode(uint64_t tree_word, uint64_t torus_word);
};

}  // namespace collnet::fw
