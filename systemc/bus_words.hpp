// SPDX-License-Identifier: Apache-2.0
// The 256-bit bus data ports of a Verilated model (nd_tree_net, nd_torus_net, or one node
// of nd_machine) are eight 32-bit words, least significant first; the bus (fw::BusRequest,
// fw::BusPort) moves them as four 64-bit words.
#pragma once

#include <array>
#include <cstdint>

namespace collnet::sim {

template <class Wide>
std::array<uint64_t, 4> bus_words(const Wide& w) {
  std::array<uint64_t, 4> v{};
  for (unsigned i = 0; i < 4; ++i) v[i] = (uint64_t{w[2 * i + 1]} << 32) | w[2 * i];
  return v;
}
template <class Wide>
void set_bus_words(Wide& w, const std::array<uint64_t, 4>& v) {
  for (unsigned i = 0; i < 4; ++i) {
    w[2 * i] = static_cast<uint32_t>(v[i]);
    w[2 * i + 1] = static_cast<uint32_t>(v[i] >> 32);
  }
}

}  // namespace collnet::sim
