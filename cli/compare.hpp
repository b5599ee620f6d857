// SPDX-License-Identifier: Apache-2.0
// Every algorithm that applies to a collective (driver/algorithm.hpp), and auto, at every
// message size, each run on a fresh machine and verified: the table `collnet compare`
// prints and `collnet tune` takes its rules from.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cli/compare_table.hpp"
#include "cli/run_options.hpp"
#include "driver/algorithm.hpp"

namespace collnet::cli {

struct CompareOptions {
  RunOptions run;                             // the machine, type, op, root, seed, tuning; count set per size
  std::vector<size_t> sizes;                  // bytes per rank (count = bytes / element size, at least 1)
  std::vector<driver::Algorithm> algorithms;  // empty: every one that applies
  // Above 0: an algorithm that took more than `prune` times the fastest at a size, and on
  // the line through its last two sizes would still at the largest, is not run at the
  // larger sizes (the table shows "-"; pruned_next): what tuning on a fine grid skips. 0
  // runs every one everywhere.
  double prune = 0;
  std::string json_path;
};

// Runs the grid (one child process per run), printing the table to stdout as it goes.
CompareTable compare_algorithms(const CompareOptions& options);

}  // namespace collnet::cli
