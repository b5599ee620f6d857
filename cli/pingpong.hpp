// SPDX-License-Identifier: Apache-2.0
// `collnet run pingpong`: latency and bandwidth between two ranks across message sizes,
// the way the OSU micro-benchmarks measure them (osu_latency): rank A sends a message
// and rank B sends it back, `iterations` times per size; the one-way time is half the
// round trip.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "driver/p2p_engine.hpp"
#include "systemc/machine_config.hpp"

namespace collnet::cli {

struct PingpongOptions {
  sim::MachineConfig machine;
  driver::P2pConfig p2p;
  unsigned a = 0, b = 1;  // world ranks
  std::vector<size_t> sizes{0, 8, 64, 512, 4096, 32768, 262144, 1048576};
  unsigned iterations = 4;
  std::string json_path;
};

// Runs it and prints the table. Returns the exit status: 0, or 1 when the run failed or a
// message came back wrong.
int run_pingpong(const PingpongOptions& options);

}  // namespace collnet::cli
