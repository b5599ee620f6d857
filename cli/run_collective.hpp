// SPDX-License-Identifier: Apache-2.0
// `collnet run COLLECTIVE`'s run: the collective on a simulated machine, verified against
// the reference model, and its report.
#pragma once

#include <cstdint>
#include <iostream>
#include <string>

#include "cli/run_options.hpp"

namespace collnet::cli {

// What one run measured, for the commands that run many (compare, tune).
struct RunMeasure {
  uint64_t cycles = 0;
  uint64_t busiest_torus_link = 0;  // flits on the busiest torus link direction
  std::string algorithm;            // the one that ran (what auto chose)
};

// Runs the collective, checks it against the reference, prints a report line to `out`
// (errors to stderr) and fills `measure` if given.
// Returns the process exit status: 0 verified, 1 wrong result or hardware error.
int run_collective(const RunOptions& options, std::ostream& out = std::cout, RunMeasure* measure = nullptr);

}  // namespace collnet::cli
