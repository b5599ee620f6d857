// SPDX-License-Identifier: Apache-2.0
#include "firmware/barrier_firmware.hpp"

#include <stdexcept>
#include <string>

#include "firmware/tree_firmware.hpp"

namespace collnet::fw {

using namespace regmap;

uint64_t ChannelRoute::encode() const {
  if (up_link > ClassRoute::kNoUpLink)
    throw std::invalid_argument("channel route up link " + std::to_string(up_link) + " is not 0..2 or none");
  if (down_mask > 7) throw std::invalid_argument("channel route down mask " + std::to_string(down_mask) + " exceeds 3 links");
  return (uint64_t{up_link} << kGiRouteUpLsb) | (uint64_t{down_mask} << kGiRouteDownLsb) |
         (uint64_t{participates} << kGiRoutePartBit);
}

void BarrierFirmware::configure_channel(unsigned ch, const ChannelRoute& route, bool privileged) {
  if (ch >= kGiChannels) throw std::invalid_argument("barrier channel " + std::to_string(ch) + " out of range 0..3");
  bus_.write(reg_gi_route_base(ch), route.encode(), privileged);
  const uint64_t err = bus_.read(kRegGiErr);
  if (err) {
    bus_.write(kRegGiErrClear, err);
    throw HardwareError(me_.rank, err,
                        "node " + std::to_string(me_.rank) + ": barrier channel " + std::to_string(ch) + " route refused: " +
                            ((err >> kGiErrPriv) & 1 ? "privilege violation" : "not a tree route"));
  }
}

ChannelRoute BarrierFirmware::machine_tree_route() const {
  ChannelRoute r;
  r.up_link = me_.tree_up_link < 0 ? ClassRoute::kNoUpLink : static_cast<unsigned>(me_.tree_up_link);
  r.down_mask = me_.tree_down_links;
  r.participates = true;
  return r;
}

}  // namespace collnet::fw
