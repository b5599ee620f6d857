// SPDX-License-Identifier: Apache-2.0
// What a communicator keeps from one collective to the next: the algorithm choices, the
// sequence numbers its packets and barriers carry, the statistics of its last collective
// and what it found out about its members' nodes.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "driver/algorithm.hpp"
#include "driver/neighbourhoods.hpp"
#include "driver/tree_stream.hpp"

namespace collnet::driver {

struct CollectiveState {
  std::array<Algorithm, kNumCollectives> algorithms{};  // Auto
  SegmentOptions segment;
  bool check_arguments = false;
  bool freed = false;              // free() was called: every call throws
  StreamStats last;                // the last data collective's, over all its passes
  unsigned seq = 0;                // tree passes so far: each header's sequence number
  bool sense[2] = {false, false};  // the value each world channel's bit holds after its last barrier
  uint64_t barriers = 0;           // world barriers so far: they alternate channels
  uint32_t line_broadcasts = 0;    // line broadcasts so far: each one's id
  std::shared_ptr<const Neighbourhoods> neighbourhoods;  // found on first use

  // A duplicate's: the same choices (and barrier senses), its counts from the start.
  CollectiveState duplicate() const {
    CollectiveState s = *this;
    s.last = {};
    s.seq = 0;
    s.barriers = 0;
    s.line_broadcasts = 0;
    s.neighbourhoods.reset();
    return s;
  }
};

}  // namespace collnet::driver
