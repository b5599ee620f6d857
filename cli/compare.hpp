// `collnet compare COLLECTIVE --torus XxYxZ --sizes 8,64,...,1M`: every algorithm that
// applies to the collective (driver/algorithm.hpp) at every message size, each on a fresh
// machine and verified, as a table of cycles with the fastest of each size marked.
#pragma once

#include <string>
#include <vector>

#include "run_options.hpp"

namespace collnet::cli {

struct CompareOptions {
  RunOptions run;                  // the machine, type, op, root, seed; count set per size
  std::vector<size_t> sizes;       // bytes per rank (count = bytes / element size, at least 1)
  std::vector<driver::Algorithm> algorithms;  // empty: every one that applies
  std::string json_path;
};

// Returns the process exit status: 0 when every run verified.
int run_compare(const CompareOptions& options);

}  // namespace collnet::cli
