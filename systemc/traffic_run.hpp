// SPDX-License-Identifier: Apache-2.0
// A synthetic-traffic run (workload/traffic_setup.hpp) on one of the two engines: the
// SystemC machine (one Verilated node per SystemC module, links as delays) or the flat
// model (one Verilated top holding every node and link). The same agents drive either.
#pragma once

#include <functional>

#include <cstdint>
#include <string>

#include "systemc/machine_config.hpp"
#include "workload/traffic_setup.hpp"

namespace collnet::sim {

enum class Engine { SystemC, Flat };
class Machine;
class Transport;

std::string to_string(Engine e);
Engine parse_engine(const std::string& text);  // throws std::invalid_argument

struct TrafficOptions {
  MachineConfig machine;       // shape, link latency, down nodes and links, trace path
  workload::TrafficSpec spec;
  workload::TrafficWindow window{1000, 10000};
  uint64_t idle_limit = 10000;  // the deadlock watchdog
  uint64_t drain_limit = 0;     // cycles allowed for draining (0: 10 x (warmup + cycles) + 100000)
  Engine engine = Engine::SystemC;
  // A machine in MachineConfig::partitions > 1 partitions: this process's link to the
  // others (cli/partitions.hpp). Each process runs its partition's nodes; the result is
  // the whole machine's, the same in every partition. SystemC engine only.
  Transport* transport = nullptr;
  // Called with the machine and the result once the traffic has drained (SystemC engine
  // only): for reading what the run left, such as the link counters (a partitioned
  // machine's partitions all call it).
  std::function<void(Machine&, const workload::TrafficResult&)> inspect;
  // Called with the cycle reached after every step of the run (a few hundred cycles): for
  // a progress line. It must not touch the machine.
  std::function<void(uint64_t)> on_step;
  // Calls `on_sample` with the machine every `sample_every` cycles of the run (0: never),
  // exactly at those cycles: for utilisation over time. It may read the machine, as
  // `inspect` does. SystemC engine only.
  uint64_t sample_every = 0;
  std::function<void(Machine&)> on_sample;

  void validate() const;  // throws std::invalid_argument naming the bad option
};

// Runs traffic on the chosen engine. Throws std::invalid_argument for bad options, and
// std::runtime_error when the flat engine has no model of the shape.
workload::TrafficResult run_traffic(const TrafficOptions& o);

}  // namespace collnet::sim
