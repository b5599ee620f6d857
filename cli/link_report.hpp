// SPDX-License-Identifier: Apache-2.0
// The link layer's counters of a run (sim::Machine::link_counters), for every command's
// --json and text report: totals per network, and a row per link end that carried or
// dropped anything; torus rows and the torus total add the routers' per-VC counters
// (flits, busy cycles, credit-stall cycles: tr_perf).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "systemc/machine.hpp"

namespace collnet::cli {

struct LinkReport {
  fw::LinkCounters tree, torus;  // summed over the link ends
  fw::TorusLinkPerf torus_vcs{};  // the routers' per-VC counters (tr_perf), summed over the torus links
  std::vector<sim::Machine::LinkEnd> ends;
  uint64_t bits_flipped = 0;
  std::vector<std::string> down;  // "node 3 tree link 1", ...

  // The machine's counters; a partitioned machine's at partition 0 (every partition calls
  // it; the others' reports hold their own link ends only).
  static LinkReport of(sim::Machine& m);
  // Whether a run should read its counters: for a --json, or when links had faults to
  // report (reading every link end of a big machine is not free).
  static bool wanted(const sim::MachineConfig& c, bool json) {
    return json || c.link_ber > 0 || c.any_cut();
  }
  nlohmann::json json() const;
  // "links: tree 1234 flits sent, 3 CRC errors, 40 resent, 0 timeouts; torus ...", one line.
  std::string text() const;
};

}  // namespace collnet::cli
