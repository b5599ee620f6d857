// How a point-to-point message travels on the torus: one or more packets, each a 64-bit
// envelope word followed by up to 31 data words. Every packet carries the envelope so that
// the receiving node can sort packets of messages from different tasks, which interleave
// in its reception FIFO, without any per-stream state beyond "the message this source has
// open". The header's software tag says whether a packet opens a message.
//
// envelope  [15:0]  tag
//           [21:16] the source task on its node
//           [27:22] the destination task on its node
//           [31:28] the communicator's class route
//           [63:32] first packet: the message's count; later packets: the packet's index
//
// The source node is the one the router stamps into the header.
#pragma once

#include <cstddef>
#include <cstdint>

#include "firmware/regmap.hpp"

namespace collnet::driver::p2p {

inline constexpr unsigned kMaxTag = 0xffff;
inline constexpr unsigned kTaskBits = 6;  // sim::MachineConfig::kMaxTasksPerNode is 64
inline constexpr uint64_t kMaxCount = 0xffffffffu;
inline constexpr unsigned kSwTagFirst = 1;  // the packet opens a message
inline constexpr unsigned kSwTagNext = 2;   // the packet continues the one its source has open
// Words a packet carries: one envelope word, then data.
inline constexpr unsigned kPacketWords = fw::regmap::kMaxChunks * fw::regmap::kChunkFlits;
inline constexpr unsigned kDataWords = kPacketWords - 1;

struct Envelope {
  unsigned tag = 0;
  unsigned src_task = 0;
  unsigned dst_task = 0;
  unsigned cls = 0;
  uint64_t value = 0;  // the count (first packet) or the packet's index

  uint64_t encode() const {
    return uint64_t{tag & 0xffffu} | uint64_t{src_task & 0x3fu} << 16 | uint64_t{dst_task & 0x3fu} << 22 |
           uint64_t{cls & 0xfu} << 28 | (value & kMaxCount) << 32;
  }
  static Envelope decode(uint64_t w) {
    Envelope e;
    e.tag = w & 0xffffu;
    e.src_task = (w >> 16) & 0x3fu;
    e.dst_task = (w >> 22) & 0x3fu;
    e.cls = (w >> 28) & 0xfu;
    e.value = w >> 32;
    return e;
  }
};

// Packets of a message of `count` words (a 0-word message is one packet: the envelope).
inline uint64_t packets_for(uint64_t count) { return count == 0 ? 1 : (count + kDataWords - 1) / kDataWords; }

// Chunks of a packet carrying `data` words after its envelope.
inline unsigned chunks_for(size_t data) {
  return static_cast<unsigned>((1 + data + fw::regmap::kChunkFlits - 1) / fw::regmap::kChunkFlits);
}

}  // namespace collnet::driver::p2p
