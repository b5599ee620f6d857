// SPDX-License-Identifier: Apache-2.0
#include "firmware/link_counters.hpp"

#include <stdexcept>

namespace collnet::fw {

namespace rm = regmap;

LinkCounters LinkCounters::decode(const std::array<uint64_t, 8>& w) {
  LinkCounters c;
  c.tx_flits = w[rm::kLkTxFlits];
  c.tx_packets = w[rm::kLkTxPackets];
  c.rx_flits = w[rm::kLkRxFlits];
  c.crc_errors = w[rm::kLkCrcErrors];
  c.seq_drops = w[rm::kLkSeqDrops];
  c.resent = w[rm::kLkResent];
  c.timeouts = w[rm::kLkTimeouts];
  const uint64_t s = w[rm::kLkState];
  c.down = rm::get_field(s, rm::kLkStateDownBit, 1);
  c.alive = rm::get_field(s, rm::kLkStateAliveBit, 1);
  c.held = static_cast<unsigned>(rm::get_field(s, rm::kLkStateHeldLsb, rm::kLkStateHeldW));
  c.naks = rm::get_field(s, rm::kLkStateNaksLsb, rm::kLkStateNaksW);
  c.sideband_errors = rm::get_field(s, rm::kLkStateSbErrorsLsb, rm::kLkStateSbErrorsW);
  return c;
}

LinkCounters& LinkCounters::operator+=(const LinkCounters& o) {
  tx_flits += o.tx_flits, tx_packets += o.tx_packets, rx_flits += o.rx_flits, crc_errors += o.crc_errors;
  seq_drops += o.seq_drops, resent += o.resent, timeouts += o.timeouts, naks += o.naks;
  sideband_errors += o.sideband_errors, held += o.held;
  down = down || o.down, alive = alive || o.alive;
  return *this;
}

uint32_t link_block_base(bool torus, unsigned link) {
  if (link >= (torus ? 6u : 3u))
    throw std::invalid_argument(std::string(torus ? "torus" : "tree") + " link " + std::to_string(link) +
                                " does not exist (" + (torus ? "0..5" : "0..2") + ")");
  return torus ? rm::kRegLkTorus + link * rm::kRegLkTorusStride : rm::kRegLkTree + link * rm::kRegLkTreeStride;
}

LinkCounters read_link_counters(RegisterBus& bus, bool torus, unsigned link) {
  const uint32_t base = link_block_base(torus, link);
  std::array<uint64_t, 8> w{};
  for (unsigned k = 0; k < 8; ++k) w[k] = bus.read(base + 8 * k);
  return LinkCounters::decode(w);
}

unsigned links_down(RegisterBus& bus, bool torus) {
  unsigned bits = 0;
  for (unsigned l = 0; l < (torus ? 6u : 3u); ++l)
    if (rm::get_field(bus.read(link_block_base(torus, l) + 8 * rm::kLkState), rm::kLkStateDownBit, 1)) bits |= 1u << l;
  return bits;
}

}  // namespace collnet::fw
