// SPDX-License-Identifier: Apache-2.0
// Utilisation over time (`--sample-every N` on `collnet traffic` and `collnet run`): at each
// sample, the flits every torus and tree link sent since the sample before (the wires' own
// counts: sim::Machine::torus_link_flits, link_flits), as the mean over each network's links
// and the busiest link's share of the period.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "firmware/torus_layout.hpp"
#include "systemc/machine.hpp"

namespace collnet::cli {

class LinkSamples {
 public:
  LinkSamples(const fw::TorusLayout& layout, uint64_t every);
  // Takes the sample of the cycles since the last sample (or since cycle 0) that end at
  // `cycle`; nothing if no cycle has passed since.
  void take(sim::Machine& m, uint64_t cycle);
  // A partitioned machine's partitions each sample their own links (the sender's end of
  // a cut link counts its flits): adds the others' to these (every partition calls it,
  // after the last sample; in one process it does nothing).
  void combine(sim::Machine& m);
  size_t size() const { return cycle_.size(); }
  uint64_t last_cycle() const { return cycle_.empty() ? 0 : cycle_.back(); }
  double peak() const;       // the highest mean torus link utilisation sampled
  double tree_peak() const;  // the same for the tree
  // {"every", "cycle": [...], "torus_utilisation": [...], "torus_busiest": [...],
  //  "tree_utilisation": [...], "tree_busiest": [...]}
  nlohmann::json json() const;

 private:
  struct Network {
    unsigned links = 0;          // directed links
    std::vector<uint64_t> last;  // each link's count at the sample before
    // Each sample's flits over every link, and the busiest link's (over the sample's period).
    std::vector<uint64_t> sum, most;
    // Samples counts[i] (a link that does not exist counts 0 and stays so).
    void take(const std::vector<uint64_t>& counts);
    // values[i] per cycle of sample i's period (ending at cycles[i]) and per one of `over`
    // links (0: none, 0): the mean utilisation (sum, links) or the busiest link's (most, 1).
    static std::vector<double> per_cycle(const std::vector<uint64_t>& values, const std::vector<uint64_t>& cycles,
                                         unsigned over);
  };

  fw::TorusLayout layout_;
  uint64_t every_;
  std::vector<uint64_t> cycle_;
  Network torus_, tree_;
};

}  // namespace collnet::cli
