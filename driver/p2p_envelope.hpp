// SPDX-License-Identifier: Apache-2.0
// How point-to-point messages travel on the torus (p2p_engine.hpp): packets whose
// header's software tag says what they are, and whose first payload word describes them.
//
//   kSwTagFirst   an eager message's first packet: envelope (value = the length in bytes),
//                 then up to 31 data words
//   kSwTagNext    its later packets: envelope (value = the packet's index), data
//   kSwTagRts     request to send (rendezvous): envelope (value = the length), the send's id
//   kSwTagCts     clear to send: {send id, receive id}
//   kSwTagData    rendezvous data: {receive id, packet index}, then up to 31 data words
//   kSwTagCredit  eager credit given back: the bytes
//   kSwTagDeposit a chunk of a line broadcast (the collectives' torus-deposit bcast), left at
//                 every node of a line by the deposit bit: {broadcast id [31:0], chunk index
//                 [63:32]}, then up to 31 data words
//   kSwTagRelease a class route freed (communicator.hpp, Communicator::free): {class}, to a
//                 node the route passed without a member there, which marks the class free
//   kSwTagCancel  a send withdrawn (MPI_Cancel), on the eager path after the message's own
//                 packets: envelope (tag = 0 for an eager message, 1 for a request to
//                 send; value = the eager message's number among its source task's to that
//                 task, or the send's id)
//   kSwTagCancelAck the receiver's answer: the same envelope, its tag's bit 1 set when the
//                 message was still unmatched and is gone
//   kSwTagForward any of the above between a pair of nodes that no route connects without
//                 passing what is down: sent to an intermediate node, which sends it on.
//                 The forward word (below), then the packet's own payload; a packet of 8
//                 chunks goes as two (its first 31 words, then its last one).
//
// Eager and request-to-send packets are deterministic (one path and VC per pair of nodes,
// so they arrive in the order they were sent, which is what MPI's matching order needs).
// Rendezvous data is adaptive and placed by its index. Clear-to-send and credits travel
// on the high-priority VC. Every packet of an eager message carries the envelope so that
// the receiving node can sort packets of messages from different tasks, which interleave
// in its reception FIFO, without any per-stream state beyond "the message this source has
// open".
//
// envelope  [15:0]  tag
//           [21:16] the source task on its node
//           [27:22] the destination task on its node
//           [37:28] the communicator's context id (communicator.hpp)
//           [63:38] value (see above)
//
// The source node is the one the router stamps into the header (a forwarded packet's is in
// its forward word).
//
// forward   [23:0]  the origin node
//           [47:24] the final destination node
//           [51:48] the packet's own software tag
//           [55:52] its chunks
//           [57:56] part: 0 the whole packet, 1 the first of two, 2 the second
#pragma once

#include <cstddef>
#include <cstdint>

#include "firmware/regmap.hpp"
#include "firmware/torus_packet.hpp"

namespace collnet::driver::p2p {

inline constexpr unsigned kMaxTag = 0xffff;
// The tag the collectives' own messages carry (CollectiveContext::kCollectiveTag): a
// receive or probe for any tag never takes one, as an MPI collective's messages never meet
// a program's receives.
inline constexpr unsigned kReservedTag = kMaxTag;
// The tag of a started barrier's messages (started_barrier.hpp): one of its own, since it
// advances while the task runs other collectives on the same communicator, whose messages
// on kReservedTag its receives must not take.
inline constexpr unsigned kStartedBarrierTag = kMaxTag - 1;
// Tags from here up are the library's own: the program's are below (MPI_TAG_UB).
inline constexpr unsigned kFirstReservedTag = kStartedBarrierTag;
// Whether a receive or probe for `wanted` (a tag or kAnyTag) takes a message tagged `tag`.
inline constexpr bool tag_matches(unsigned wanted, unsigned tag, unsigned any_tag) {
  return wanted == any_tag ? tag < kFirstReservedTag : wanted == tag;
}
inline constexpr unsigned kTaskBits = 6;   // up to 64 tasks per node (P2pEngine::attach checks)
inline constexpr unsigned kContextBits = 10;
inline constexpr unsigned kNumContexts = 1u << kContextBits;  // communicators a rank can belong to at once
inline constexpr unsigned kValueShift = 16 + 2 * kTaskBits + kContextBits;
inline constexpr uint64_t kMaxBytes = (uint64_t{1} << (64 - kValueShift)) - 1;  // a message's length (64 MiB - 1)
static_assert(kValueShift == 38, "tag, tasks and context fill the envelope's low 38 bits");
inline constexpr unsigned kSwTagFirst = 1;   // the packet opens an eager message
inline constexpr unsigned kSwTagNext = 2;    // the packet continues the one its source has open
inline constexpr unsigned kSwTagRts = 3;     // request to send
inline constexpr unsigned kSwTagCts = 4;     // clear to send
inline constexpr unsigned kSwTagData = 5;    // a rendezvous data packet
inline constexpr unsigned kSwTagCredit = 6;  // eager credit given back
inline constexpr unsigned kSwTagForward = 7; // on its way through an intermediate node
inline constexpr unsigned kSwTagDeposit = 8; // a chunk of a line broadcast (deposit bit)
inline constexpr unsigned kSwTagRelease = 9; // a class route through this node was freed
inline constexpr unsigned kSwTagCancel = 10;    // a send withdrawn: take it back if unmatched
inline constexpr unsigned kSwTagCancelAck = 11; // whether it was
// Words a packet carries: one envelope word, then data.
inline constexpr unsigned kPacketWords = fw::regmap::kMaxChunks * fw::regmap::kChunkFlits;
inline constexpr unsigned kDataWords = kPacketWords - 1;

struct Envelope {
  unsigned tag = 0;
  unsigned src_task = 0;
  unsigned dst_task = 0;
  unsigned context = 0;
  uint64_t value = 0;  // the count (first packet) or the packet's index

  static constexpr uint64_t kTaskMask = (1u << kTaskBits) - 1, kContextMask = kNumContexts - 1;

  uint64_t encode() const {
    return (tag & kMaxTag) | (src_task & kTaskMask) << 16 | (dst_task & kTaskMask) << 22 |
           (context & kContextMask) << 28 | (value & kMaxBytes) << kValueShift;
  }
  static Envelope decode(uint64_t w) {
    Envelope e;
    e.tag = static_cast<unsigned>(w & kMaxTag);
    e.src_task = static_cast<unsigned>((w >> 16) & kTaskMask);
    e.dst_task = static_cast<unsigned>((w >> 22) & kTaskMask);
    e.context = static_cast<unsigned>((w >> 28) & kContextMask);
    e.value = w >> kValueShift;
    return e;
  }
};

// Two 32-bit halves of a word: {low, high}.
struct Forward {
  unsigned origin = 0, final_node = 0, sw_tag = 0, chunks = 1, part = 0;
  uint64_t encode() const {
    return (uint64_t{origin} & 0xffffff) | ((uint64_t{final_node} & 0xffffff) << 24) | (uint64_t{sw_tag & 0xf} << 48) |
           (uint64_t{chunks & 0xf} << 52) | (uint64_t{part & 0x3} << 56);
  }
  static Forward decode(uint64_t w) {
    return Forward{static_cast<unsigned>(w & 0xffffff), static_cast<unsigned>((w >> 24) & 0xffffff),
                   static_cast<unsigned>((w >> 48) & 0xf), static_cast<unsigned>((w >> 52) & 0xf),
                   static_cast<unsigned>((w >> 56) & 0x3)};
  }
};

inline uint64_t pack32(uint64_t low, uint64_t high) { return (low & 0xffffffffu) | (high << 32); }
inline uint32_t low32(uint64_t w) { return static_cast<uint32_t>(w); }
inline uint32_t high32(uint64_t w) { return static_cast<uint32_t>(w >> 32); }

// Packets of a message of `count` words (a 0-word message is one packet: the envelope).
inline uint64_t packets_for(uint64_t count) { return count == 0 ? 1 : (count + kDataWords - 1) / kDataWords; }

// Chunks of a packet carrying `data` words after its envelope.
using fw::chunks_for;

}  // namespace collnet::driver::p2p
