// SPDX-License-Identifier: Apache-2.0
// What the torus testbenches share: a packet as the testbench sees it and its maker.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "firmware/torus_packet.hpp"

namespace collnet::tb {

struct TorusPacket {
  uint64_t hdr = 0;
  std::vector<uint64_t> payload;  // payload[0] is a unique id
};

// A packet with header `h` and random payload whose first word is `id`.
inline TorusPacket make_torus_packet(std::mt19937_64& rng, uint64_t id, const fw::TorusHeader& h) {
  TorusPacket p;
  p.hdr = h.encode();
  p.payload.resize(h.flits() - 1);
  for (auto& w : p.payload) w = rng();
  p.payload[0] = id;
  return p;
}

}  // namespace collnet::tb
