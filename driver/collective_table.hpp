// SPDX-License-Identifier: Apache-2.0
// The table of algorithms: for each collective whose algorithm can be chosen, the
// algorithms that apply to it (in the order `collnet algorithms` lists them) and the
// function that runs each. The Communicator resolves Auto (choose) and runs the entry.
#pragma once

#include <vector>

#include "driver/algorithm.hpp"
#include "driver/collective_context.hpp"

namespace collnet::driver {

// Runs one collective call, its arguments checked and agreed.
using Runner = void (*)(CollectiveContext& c);

struct AlgorithmEntry {
  Collective collective;
  Algorithm algorithm;
  Runner run;
};

// Every entry, by collective.
const std::vector<AlgorithmEntry>& algorithm_table();
// The function that runs `a` for `c`; `a` must apply (never Auto).
Runner runner(Collective c, Algorithm a);

}  // namespace collnet::driver
