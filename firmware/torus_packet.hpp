// SPDX-License-Identifier: Apache-2.0
// The torus packet header (rtl/torus/tr_pkg.sv): one 64-bit flit in front of 1..8 chunks
// of 32 bytes. Encoding and decoding in one place, with the field positions from regmap.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "firmware/regmap.hpp"
#include "firmware/torus_layout.hpp"

namespace collnet::fw {

struct TorusHeader {
  std::array<unsigned, 3> dst{};  // destination x, y, z
  unsigned hints = 0;             // bit d: travel in direction d (0: the router picks minimal ones)
  bool deposit = false;           // line broadcast: a copy at every node on the way
  bool deterministic = false;     // dimension order on the escape VC (else minimal adaptive)
  bool priority = false;          // the high-priority VC and reception FIFO
  unsigned chunks = 1;            // 1..8 chunks of 32 bytes
  std::array<unsigned, 3> src{};  // written by the injecting router
  unsigned sw_tag = 0;            // 4 bits carried unchanged

  unsigned flits() const { return 1 + regmap::kChunkFlits * chunks; }

  uint64_t encode() const {
    using namespace regmap;
    if (chunks < 1 || chunks > kMaxChunks) throw std::invalid_argument("torus packet of " + std::to_string(chunks) + " chunks: must be 1..8");
    if (hints >= (1u << kNumDirs)) throw std::invalid_argument("torus hint bits " + std::to_string(hints) + " do not fit in 6 bits");
    if (sw_tag >= 16) throw std::invalid_argument("torus software tag " + std::to_string(sw_tag) + " does not fit in 4 bits");
    uint64_t w = 0;
    for (unsigned k = 0; k < 3; ++k) {
      if (dst[k] >= (1u << kCoordW) || src[k] >= (1u << kCoordW))
        throw std::invalid_argument("torus coordinate out of range 0..255");
      w |= uint64_t{dst[k]} << (kTrHdrDstLsb + k * kCoordW);
      w |= uint64_t{src[k]} << (kTrHdrSrcLsb + k * kCoordW);
    }
    w |= uint64_t{hints} << kTrHdrHintLsb;
    w |= uint64_t{deposit} << kTrHdrDepositBit;
    w |= uint64_t{deterministic} << kTrHdrDetermBit;
    w |= uint64_t{priority} << kTrHdrPrioBit;
    w |= uint64_t{chunks - 1} << kTrHdrSizeLsb;
    w |= uint64_t{sw_tag} << kTrHdrSwTagLsb;
    return w;
  }

  static TorusHeader decode(uint64_t w) {
    using namespace regmap;
    TorusHeader h;
    const uint64_t coord_mask = (1u << kCoordW) - 1;
    for (unsigned k = 0; k < 3; ++k) {
      h.dst[k] = (w >> (kTrHdrDstLsb + k * kCoordW)) & coord_mask;
      h.src[k] = (w >> (kTrHdrSrcLsb + k * kCoordW)) & coord_mask;
    }
    h.hints = (w >> kTrHdrHintLsb) & ((1u << kNumDirs) - 1);
    h.deposit = (w >> kTrHdrDepositBit) & 1;
    h.deterministic = (w >> kTrHdrDetermBit) & 1;
    h.priority = (w >> kTrHdrPrioBit) & 1;
    h.chunks = static_cast<unsigned>((w >> kTrHdrSizeLsb) & ((1u << kTrHdrSizeW) - 1)) + 1;
    h.sw_tag = (w >> kTrHdrSwTagLsb) & 15;
    return h;
  }
};

// Chunks of a torus packet whose payload is one leading word (a message's envelope, the DMA
// engine's DMA word) and `data` words after it: the fewest that hold them.
inline unsigned chunks_for(size_t data) {
  return static_cast<unsigned>((1 + data + regmap::kChunkFlits - 1) / regmap::kChunkFlits);
}

// The minimal direction bits from `from` to `to` on a torus of `dims`, as the injecting
// router computes them. Halfway round an even ring the direction is - when the low bits of
// all six coordinates have odd parity, + otherwise (tr_route): fixed per pair, balanced
// over pairs.
inline unsigned minimal_hints(const std::array<unsigned, 3>& from, const std::array<unsigned, 3>& to,
                              const std::array<unsigned, 3>& dims) {
  const TorusLayout layout(dims);
  const unsigned tie_minus = (from[0] ^ from[1] ^ from[2] ^ to[0] ^ to[1] ^ to[2]) & 1u;
  unsigned h = 0;
  for (unsigned k = 0; k < 3; ++k) {
    if (from[k] == to[k]) continue;
    const unsigned plus_hops = layout.plus_hops(from, to, k);
    const bool plus = 2 * plus_hops < dims[k] || (2 * plus_hops == dims[k] && !tie_minus);
    h |= (plus ? 1u : 2u) << (2 * k);
  }
  return h;
}

}  // namespace collnet::fw
