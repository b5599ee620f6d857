// SPDX-License-Identifier: Apache-2.0
// What `collnet run` was asked to do.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/algorithm.hpp"
#include "driver/datatype.hpp"
#include "driver/op.hpp"
#include "driver/p2p_engine.hpp"
#include "driver/tuning.hpp"
#include "reference/counts.hpp"
#include "systemc/machine_config.hpp"

namespace collnet::cli {

struct RunOptions {
  std::string collective = "allreduce";  // a name in reference::collectives() (reference/collectives.hpp)
  driver::Op op = driver::Op::Sum;
  driver::Datatype type = driver::Datatype::U64;
  uint64_t count = 64;  // elements per rank (set from the file with --input)
  unsigned root = 0;
  uint64_t seed = 1;
  std::vector<unsigned> ranks;  // run on a subset communicator of these world ranks (empty: world)
  std::string json_path;
  std::string input_path;   // per-rank input data (empty: seeded)
  std::vector<std::vector<uint64_t>> input;  // its contents, read while checking the options
  std::string output_path;  // per-rank results
  std::optional<reference::Counts> counts;  // the vector forms' --counts file (none: drawn from the seed)
  bool check_arguments = false;
  sim::MachineConfig machine;  // machine.tasks_per_node: ranks per node
  driver::P2pConfig p2p;       // the point-to-point protocols' limits
  driver::Algorithm algorithm = driver::Algorithm::Auto;  // must apply to the collective
  driver::SegmentOptions segment;  // alltoallv-segment's piece size and order
  std::shared_ptr<const driver::Tuning> tuning;  // what auto picks from (null: the shipped table)
  uint64_t sample_every = 0;  // links' utilisation every this many cycles (0: none; --json's "samples")
};

}  // namespace collnet::cli
