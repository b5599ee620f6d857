// SPDX-License-Identifier: Apache-2.0
// Context ids: what tells one communicator's messages from another's (the envelope's
// context field, p2p_envelope.hpp) and keys the node's slot for a communicator's
// collectives. Each rank keeps which ids it uses; a new communicator takes the lowest id
// free on every rank of its parent (an AND over the parent of every rank's free ids, as
// MPICH allocates them), so no two communicators a rank belongs to share one. The groups
// of one split are disjoint and share theirs. Id 0 is the world's.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "driver/p2p_envelope.hpp"

namespace collnet::driver {

class ContextIds {
 public:
  static constexpr unsigned kWords = p2p::kNumContexts / 64;
  using Mask = std::array<uint64_t, kWords>;

  ContextIds() { free_.fill(~uint64_t{0}); free_[0] &= ~uint64_t{1}; }
  // Bit i set: id i is free on this rank.
  const Mask& free() const { return free_; }
  void take(unsigned id) { free_[id / 64] &= ~(uint64_t{1} << (id % 64)); }
  void give(unsigned id) { free_[id / 64] |= uint64_t{1} << (id % 64); }
  // The lowest id set in `m`.
  static std::optional<unsigned> lowest(const Mask& m) {
    for (unsigned k = 0; k < kWords; ++k)
      if (m[k]) return k * 64 + static_cast<unsigned>(__builtin_ctzll(m[k]));
    return std::nullopt;
  }

 private:
  Mask free_;
};

}  // namespace collnet::driver
