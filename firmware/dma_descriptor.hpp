// SPDX-License-Identifier: Apache-2.0
// The torus DMA engine's formats as software writes and reads them (docs/dma.md): a
// descriptor (four words, one write of RegDmDesc) and the DMA word every packet the engine
// sends carries first (its torus header carries the software tag DmSwTag). Field
// positions come from firmware/regmap.hpp, generated from the same description as the
// engine's dm_pkg.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "firmware/regmap.hpp"

namespace collnet::fw {

enum class DmaKind : unsigned {
  MemFifo = regmap::kDmKindMemFifo,  // appended to the destination's reception ring
  Put = regmap::kDmKindPut,          // written at the destination counter's base plus the offset
  Get = regmap::kDmKindGet,          // descriptors the destination's engine runs (a remote get)
};

struct DmaDescriptor {
  std::array<unsigned, 3> dst{};  // the destination's x, y, z
  DmaKind kind = DmaKind::Put;
  bool priority = false;
  bool deterministic = false;
  unsigned local_counter = 0;     // counts down by each word sent
  unsigned remote_counter = 0;    // the destination's counter the packets name
  uint64_t addr = 0;              // the local byte address of the words to send (8-byte aligned)
  uint32_t words = 0;             // how many (at least 1; whole descriptors for a remote get)
  uint64_t offset = 0;            // the byte offset the first packet carries (8-byte aligned)

  using Words = std::array<uint64_t, regmap::kDmDescWords>;

  // The four words of RegDmDesc, word 0 first. Throws std::invalid_argument, naming the
  // field, for what the engine would refuse (DmErrBadDesc).
  Words encode() const {
    using namespace regmap;
    auto fail = [](const std::string& why) { throw std::invalid_argument("DMA descriptor: " + why); };
    for (unsigned k = 0; k < 3; ++k)
      if (dst[k] >= (1u << kCoordW)) fail("destination coordinate " + std::to_string(dst[k]) + " is not 0..255");
    if (local_counter >= kDmCounters || remote_counter >= kDmCounters)
      fail("counter " + std::to_string(local_counter >= kDmCounters ? local_counter : remote_counter) + " is not 0.." +
           std::to_string(kDmCounters - 1));
    if (words == 0) fail("no words to send");
    if (kind == DmaKind::Get && words % kDmDescWords != 0)
      fail("a remote get carries whole descriptors (" + std::to_string(kDmDescWords) + " words each), not " +
           std::to_string(words) + " words");
    if (addr % 8 != 0 || addr >> kDmAddrW) fail("address " + std::to_string(addr) + " is not an 8-byte aligned 48-bit one");
    if (offset % 8 != 0 || offset >> kDmAddrW) fail("offset " + std::to_string(offset) + " is not an 8-byte aligned 48-bit one");
    uint64_t w0 = 0;
    for (unsigned k = 0; k < 3; ++k) w0 |= uint64_t{dst[k]} << (kDmDescDstLsb + k * kCoordW);
    w0 = set_field(w0, kDmDescKindLsb, kDmDescKindW, static_cast<unsigned>(kind));
    w0 = set_field(w0, kDmDescPrioBit, 1, priority);
    w0 = set_field(w0, kDmDescDetermBit, 1, deterministic);
    w0 = set_field(w0, kDmDescLocalCtrLsb, kDmDescLocalCtrW, local_counter);
    w0 = set_field(w0, kDmDescRemoteCtrLsb, kDmDescRemoteCtrW, remote_counter);
    Words out{};
    out[0] = w0;
    out[kDmDescAddrWord] = addr;
    out[kDmDescWordsWord] = words;
    out[kDmDescOffsetWord] = offset;
    return out;
  }
};

// The DMA word: the first payload word of every packet the engine sends.
struct DmaWord {
  unsigned kind = 0;     // DmaKind's value (3 is not a kind: the engine drops such a packet)
  unsigned words = 0;    // data words in the packet
  unsigned counter = 0;  // the destination's counter
  uint64_t offset = 0;   // the byte offset of the packet's first data word

  uint64_t encode() const {
    using namespace regmap;
    uint64_t w = set_field(0, kDmWordKindLsb, kDmWordKindW, kind);
    w = set_field(w, kDmWordWordsLsb, kDmWordWordsW, words);
    w = set_field(w, kDmWordCtrLsb, kDmWordCtrW, counter);
    return set_field(w, kDmWordOffsetLsb, kDmWordOffsetW, offset);
  }
  static DmaWord decode(uint64_t w) {
    using namespace regmap;
    return {static_cast<unsigned>(get_field(w, kDmWordKindLsb, kDmWordKindW)),
            static_cast<unsigned>(get_field(w, kDmWordWordsLsb, kDmWordWordsW)),
            static_cast<unsigned>(get_field(w, kDmWordCtrLsb, kDmWordCtrW)),
            get_field(w, kDmWordOffsetLsb, kDmWordOffsetW)};
  }
};

}  // namespace collnet::fw
