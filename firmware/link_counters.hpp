// SPDX-License-Identifier: Apache-2.0
// The link layer's counters of one link end (lk_port; lk_pkg's counter block: LkTxFlits ..
// LkState), decoded and summed. Read through the register bus by the firmware
// (read_link_counters), or by the machine's service port without disturbing the run
// (sim::Node::link_counters).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "firmware/register_bus.hpp"
#include "firmware/regmap.hpp"

namespace collnet::fw {

struct LinkCounters {
  uint64_t tx_flits = 0, tx_packets = 0, rx_flits = 0, crc_errors = 0, seq_drops = 0, resent = 0, timeouts = 0;
  uint64_t naks = 0, sideband_errors = 0;
  unsigned held = 0;  // flits in the retransmission buffer
  bool down = false, alive = false;

  // From the eight words of a counter block, word k = lk_pkg counter k.
  static LinkCounters decode(const std::array<uint64_t, 8>& words);
  // Sums the counts; down and alive are ORed, held is summed.
  LinkCounters& operator+=(const LinkCounters& o);
};

// Tree link l's (l < 3) or torus link d's (d < 6) block base address.
uint32_t link_block_base(bool torus, unsigned link);
// Reads one link end's counter block over the register bus (eight reads).
LinkCounters read_link_counters(RegisterBus& bus, bool torus, unsigned link);
// The links of this node whose link end has declared them down (bit l / bit d).
unsigned links_down(RegisterBus& bus, bool torus);

}  // namespace collnet::fw
