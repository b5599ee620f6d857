// SPDX-License-Identifier: Apache-2.0
// The torus router's performance counters of one link (tr_perf; tr_pkg's RegTrPerf block):
// per VC, the flits the router sent on the link, the cycles a packet on the VC held the
// link's output, and the cycles a packet waited for the VC, the link free, for want of
// credits. Read through the register bus by firmware (read_torus_perf), or by the machine's
// service port without disturbing the run (sim::Node::torus_perf).
#pragma once

#include <array>
#include <cstdint>

#include "firmware/register_bus.hpp"
#include "firmware/regmap.hpp"

namespace collnet::fw {

struct TorusVcPerf {
  uint64_t flits = 0, busy = 0, stall = 0;
  TorusVcPerf& operator+=(const TorusVcPerf& o) {
    flits += o.flits, busy += o.busy, stall += o.stall;
    return *this;
  }
};

// VC v (regmap::kTrVcDyn0 .. kTrVcPrio) at [v].
using TorusLinkPerf = std::array<TorusVcPerf, regmap::kTrNumVcs>;

// A link's counters as words: VC v's counter k (regmap::kTrPerfFlits .. kTrPerfStall) at
// [v * regmap::kTrPerfCounters + k].
inline constexpr unsigned kTorusPerfWords = regmap::kTrNumVcs * regmap::kTrPerfCounters;
using TorusPerfWords = std::array<uint64_t, kTorusPerfWords>;

// The address of link `link`'s VC `vc`'s counter `k`; throws std::invalid_argument naming
// what does not exist.
uint32_t torus_perf_address(unsigned link, unsigned vc, unsigned k);
// The addresses of link `link`'s words, in TorusPerfWords order.
std::array<uint32_t, kTorusPerfWords> torus_perf_addresses(unsigned link);
TorusLinkPerf decode_torus_perf(const TorusPerfWords& w);
// Reads one link's counters over the register bus (twelve reads).
TorusLinkPerf read_torus_perf(RegisterBus& bus, unsigned link);
// "dyn0", "dyn1", "escape", "priority".
const char* torus_vc_name(unsigned vc);

}  // namespace collnet::fw
