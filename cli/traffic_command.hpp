// SPDX-License-Identifier: Apache-2.0
// `collnet traffic`: synthetic traffic on the torus (workload/, run on an engine by
// systemc/traffic_run.hpp), its options, its report and its JSON. Exit status: 0 every
// packet delivered once and intact, 1 loss, duplication, corruption or deadlock, 2 bad
// usage.
#pragma once

#include "cli/fault_options.hpp"
#include "cli/machine_options.hpp"
#include "cli/partitions.hpp"
#include "cli/subcommand.hpp"
#include "systemc/traffic_run.hpp"

#include <string>

namespace collnet::cli {

struct TrafficCommand {
  std::string torus = "8x8x8";
  bool torus_given = false;  // --torus was given: it wins over --machine's shape
  std::string pattern = "uniform";
  std::string routing = "adaptive";
  std::string engine = "systemc";
  double rate = 0.1;
  long long size = 1;
  long long cycles = 10000;
  long long warmup = 1000;
  MachineOptions machine;  // --machine and the timing options
  bool lockstep = false;
  long long threads = 1;
  std::string idle_skip = "on";
  long long seed = 1;
  long long hotspot = 0;
  double hotspot_fraction = 0.1;
  long long idle_limit = 10000;
  std::string down_links;  // "5:x+,17:z-"
  FaultOptions faults;     // --link-ber, --link-down, --fault-seed
  std::string json_path;
  std::string trace_path;
  std::string trace_nodes;     // "0,1,5": the nodes the trace keeps
  std::string sweep;           // "0.1:1.0:0.1": a run per offered load
  long long sample_every = 0;  // cycles between utilisation samples (0: none)
  PartitionsOption partitions;

  sim::TrafficOptions options;  // all of the above, checked (by add_traffic's check)
};

// Adds `traffic` and its options to `app`, filling cl.traffic; its check checks them all
// and fills cl.traffic.options.
Subcommand add_traffic(CLI::App& app, CommandLine& cl);
// Runs the traffic and reports it (partition 0 of a partitioned run: `transport`).
int run_traffic_command(const TrafficCommand& c, sim::Transport* transport = nullptr);

}  // namespace collnet::cli
