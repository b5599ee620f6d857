// What `collnet run` was asked to do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "systemc/machine_config.hpp"

namespace collnet::cli {

struct RunOptions {
  std::string collective = "allreduce";  // allreduce | bcast | barrier
  std::string op = "sum";
  std::string type = "u64";
  uint64_t count = 64;
  unsigned root = 0;
  uint64_t seed = 1;
  std::vector<unsigned> ranks;  // run on a subset communicator of these world ranks (empty: world)
  std::string json_path;
  sim::MachineConfig machine;
};

// Runs the collective, checks it against the reference, prints a report.
// Returns the process exit status: 0 verified, 1 wrong result or hardware error.
int run_collective(const RunOptions& options);

}  // namespace collnet::cli
