// SPDX-License-Identifier: Apache-2.0
#include "firmware/hardware_sizes.hpp"

#include <stdexcept>

#include "firmware/regmap.hpp"

namespace collnet::fw {

unsigned HardwareSizes::get(const std::string& key) const {
  for (std::size_t i = 0; i < std::size(regmap::kSizes); ++i)
    if (key == regmap::kSizes[i].key) return values[i];
  throw std::invalid_argument("'" + key + "' is not a size of the node");
}

HardwareSizes HardwareSizes::decode(uint64_t tree_word, uint64_t torus_word) {
  HardwareSizes s;
  for (std::size_t i = 0; i < std::size(regmap::kSizes); ++i) {
    const regmap::SizeParam& p = regmap::kSizes[i];
    const uint64_t word = p.reg == regmap::kRegSizes ? tree_word : torus_word;
    s.values[i] = static_cast<unsigned>(regmap::get_field(word, p.lsb, p.width));
  }
  return s;
}

HardwareSizes HardwareSizes::read(RegisterBus& bus) {
  const uint64_t tree = bus.read(regmap::kRegSizes);
  const uint64_t torus = bus.read(regmap::kRegTrSizes);
  return decode(tree, torus);
}

}  // namespace collnet::fw
