// Utilisation over time (`collnet traffic --sample-every N`): at each sample, the flits
// every torus link sent since the one before (sim::Machine::torus_link_flits, the wires'
// own counts), as the mean over the links and the busiest link's share of the period.
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
  // Takes the sample of the `every` cycles that end at `cycle`.
  void take(sim::Machine& m, uint64_t cycle);
  size_t size() const { return cycle_.size(); }
  double peak() const;  // the highest mean utilisation sampled
  // {"every", "cycle": [...], "torus_utilisation": [...], "torus_busiest": [...]}
  nlohmann::json json() const;

 private:
  fw::TorusLayout layout_;
  uint64_t every_;
  unsigned links_ = 0;
  std::vector<uint64_t> last_;  // each link's count at the sample before
  std::vector<uint64_t> cycle_;
  std::vector<double> mean_, busiest_;
};

}  // namespace collnet::cli
