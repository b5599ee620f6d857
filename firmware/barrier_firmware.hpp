// SPDX-License-Identifier: Apache-2.0
// Register-level firmware for one node's barrier (global interrupt) unit: channel routes,
// the node's input bit per channel, and the channel results.
#pragma once

#include <cstdint>

#include "firmware/packet.hpp"
#include "firmware/personality.hpp"
#include "firmware/register_bus.hpp"

namespace collnet::fw {

// Which links of a node a barrier channel uses, and whether the node takes part.
struct ChannelRoute {
  unsigned up_link = ClassRoute::kNoUpLink;  // 0..2, or none at the channel's root
  unsigned down_mask = 0;
  bool participates = false;
  uint64_t encode() const;
};

class BarrierFirmware {
 public:
  BarrierFirmware(RegisterBus& bus, const Personality& personality) : bus_(bus), me_(personality) {}

  // Programs channel `ch`; throws HardwareError if the unit refused it.
  void configure_channel(unsigned ch, const ChannelRoute& route, bool privileged = false);
  // The route of the whole-machine tree for this node (every node participates).
  ChannelRoute machine_tree_route() const;

  void set_local(unsigned bits) { bus_.write(regmap::kRegGiLocal, bits); }
  uint64_t local() { return bus_.read(regmap::kRegGiLocal); }
  bool all_set(unsigned ch) { return (bus_.read(regmap::kRegGiResult) >> (regmap::kGiResultAndLsb + ch)) & 1; }
  bool any_set(unsigned ch) { return (bus_.read(regmap::kRegGiResult) >> (regmap::kGiResultOrLsb + ch)) & 1; }

 private:
  RegisterBus& bus_;
  Personality me_;
};

}  // namespace collnet::fw
