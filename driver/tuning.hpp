// SPDX-License-Identifier: Apache-2.0
// What `auto` runs: for each collective, the algorithm measured fastest at a communicator
// size and up to a message size. `collnet tune --torus XxYxZ` measures a table on a machine
// (every algorithm at every size of a grid, `collnet compare`); the table shipped in the
// driver (tuning_shipped.cpp) comes from `make bench`. A collective no rule covers runs
// the built-in choice: the tree where it applies, torus-linear otherwise.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "driver/algorithm.hpp"

namespace collnet::driver {

struct TuningRule {
  Collective collective;
  unsigned ranks;        // the communicator size it was measured at
  size_t up_to_bytes;    // bytes per rank (per pair for alltoall and scatter) it holds up to
  Algorithm algorithm;   // never Auto
};

class Tuning {
 public:
  Tuning() = default;
  // Throws collnet::Error naming a rule whose algorithm does not apply to its collective,
  // is auto, or has zero ranks.
  explicit Tuning(std::vector<TuningRule> rules);

  // Among the rules of collective `c`, those measured at the communicator size nearest
  // `ranks` (on a log scale; a tie goes to the smaller): the first whose up_to_bytes holds
  // `bytes`, or the last. Nothing when no rule names `c`.
  std::optional<Algorithm> pick(Collective c, unsigned ranks, size_t bytes) const;
  const std::vector<TuningRule>& rules() const { return rules_; }

  // The table measured by make bench.
  static const Tuning& shipped();

 private:
  std::vector<TuningRule> rules_;  // per collective and ranks, by up_to_bytes
};

}  // namespace collnet::driver
