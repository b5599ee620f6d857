// SPDX-License-Identifier: Apache-2.0
// One streamed pass over the combining network: the local contribution, cut into
// 256-byte packets, is injected while the combined result is received, so injection and
// reception overlap and the FIFOs never need to hold a whole message. The last packet is
// padded with the operation's identity; padding never reaches the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "firmware/packet.hpp"
#include "firmware/tree_firmware.hpp"

namespace collnet::driver {

struct StreamStats {
  uint64_t packets = 0;
  uint64_t status_polls = 0;
};

// What this node contributes: `word(i)` for i < count (the identity `pad` fills the last
// packet). Only words in [own_begin, own_end) need to be written: a packet holding none
// of them is sent by the identity-injection unit (consecutive ones from one register
// write). With no `word` function the node owns nothing.
struct Contribution {
  std::function<uint64_t(size_t)> word;
  uint64_t pad = 0;
  size_t own_begin = 0;
  size_t own_end = SIZE_MAX;
};

// Sends the contribution with header `hdr` and receives the combined `count` words into
// `out`. `on_poll`, if given, runs at every status poll: the caller serves other work
// meanwhile (the node's point-to-point traffic). Throws fw::HardwareError if the adapter
// flags an error, collnet::Error if a packet arrives with an unexpected header.
StreamStats tree_stream(fw::TreeFirmware& fw, const fw::Header& hdr, size_t count, const Contribution& mine,
                        uint64_t* out, const std::function<void()>& on_poll = {});

}  // namespace collnet::driver
