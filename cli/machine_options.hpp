// The machine options every command that runs a machine takes (run, traffic, mpirun):
// --machine (a preset or a machine file, cli/machine_file.hpp) and the timing options
// that override it, in this order: the file, then --link-latency (every wire), then the
// options for one network.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "systemc/machine_config.hpp"

namespace collnet::cli {

struct MachineOptions {
  std::string machine;  // a preset's name or a machine file (empty: the default machine)
  CLI::Option* link_latency = nullptr;
  CLI::Option* tree_latency = nullptr;
  CLI::Option* torus_latency = nullptr;
  CLI::Option* barrier_latency = nullptr;
  CLI::Option* tree_rate = nullptr;
  CLI::Option* torus_rate = nullptr;
  CLI::Option* access_cycles = nullptr;
  CLI::Option* clock_mhz = nullptr;
  long long link_latency_value = 4, tree_latency_value = 4, barrier_latency_value = 4, access_value = 1;
  std::string torus_latency_text = "4";
  double tree_rate_value = 1, torus_rate_value = 1, clock_value = 700;
};

void add_machine_options(CLI::App* app, MachineOptions& o);
// Applies the machine file (if any) and then every timing option given to `m`. Whether
// the file's shape is used is the caller's: it reports it in `file_shape` (empty if the
// file names none). Throws std::invalid_argument naming the option and what is wrong.
void apply_machine_options(const MachineOptions& o, sim::MachineConfig& m, std::string* file_shape = nullptr);

}  // namespace collnet::cli
