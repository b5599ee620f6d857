// SPDX-License-Identifier: Apache-2.0
// collnet: the command line. `collnet run <collective> ...` runs one collective on a
// simulated machine and checks it; `collnet traffic ...` runs synthetic torus traffic
// (cli/traffic_command.hpp). Exit status: 0 verified, 1 wrong result or hardware error,
// 2 bad usage. Each command's options, checks and run are in its own file
// (cli/<command>_command.cpp); cli/command_line.cpp parses, checks and runs the one given.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include <systemc>

#include "cli/command_line.hpp"
#include "cli/partitions.hpp"

namespace {

int collnet_main(int argc, char** argv) {
  collnet::cli::CommandLine cl;
  if (const std::optional<int> status = collnet::cli::parse_command_line(argc, argv, cl)) return *status;
  // --partitions P: the command runs in P processes, started here unless a launcher did.
  if (const std::optional<int> status = collnet::cli::launch_partitions(cl.partitions(), argc, argv)) return *status;
  std::unique_ptr<collnet::sim::Transport> transport;
  try {
    transport = collnet::cli::join_partitions(cl.partitions());
  } catch (const std::exception& e) {
    std::cerr << "collnet: " << e.what() << "\n";
    return 1;
  }
  return collnet::cli::run_command_line(cl, transport.get());
}

}  // namespace

int sc_main(int argc, char** argv) { return collnet_main(argc, argv); }

// SystemC's own main() prints a banner before sc_main runs; this one asks it not to.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
