// SPDX-License-Identifier: Apache-2.0
// collnet: the command line. `collnet run <collective> ...` runs one collective on a
// simulated machine and checks it; `collnet traffic ...` runs synthetic torus traffic
// (cli/traffic_command.hpp). Exit status: 0 verified, 1 wrong result or hardware error,
// 2 bad usage. The options are parsed and checked by cli/command_line.cpp; this runs what
// they ask for.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include <systemc>

#include "cli/algorithms_command.hpp"
#include "cli/command_line.hpp"
#include "cli/machine_file.hpp"

namespace {

int collnet_main(int argc, char** argv) {
  using collnet::cli::CommandLine;
  CommandLine cl;
  if (const std::optional<int> status = collnet::cli::parse_command_line(argc, argv, cl)) return *status;
  switch (cl.command) {
    case CommandLine::Command::Traffic:
      return collnet::cli::run_traffic_command(cl.traffic);
    case CommandLine::Command::Mpirun:
      return collnet::cli::run_mpirun_command(cl.mpirun);
    case CommandLine::Command::Neighbourhoods:
      try {
        return collnet::cli::run_neighbourhoods(cl.neighbourhoods, std::cout);
      } catch (const std::invalid_argument& e) {
        return collnet::cli::usage_error(std::string("--ranks: ") + e.what(), "neighbourhoods");
      }
    case CommandLine::Command::Algorithms:
      collnet::cli::print_algorithms(std::cout);
      return 0;
    case CommandLine::Command::Machines:
      collnet::cli::print_machines(std::cout, cl.machines_show);
      return 0;
    case CommandLine::Command::Compare:
      return collnet::cli::run_compare(cl.compare);
    case CommandLine::Command::Tune:
      return collnet::cli::run_tune(cl.tune);
    case CommandLine::Command::Pingpong:
      try {
        return collnet::cli::run_pingpong(cl.pingpong);
      } catch (const std::exception& e) {
        std::cerr << "collnet: " << e.what() << "\n";
        return 1;
      }
    case CommandLine::Command::Run:
      break;
  }
  try {
    return collnet::cli::run_collective(cl.run);
  } catch (const std::exception& e) {
    std::cerr << "collnet: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int sc_main(int argc, char** argv) { return collnet_main(argc, argv); }

// SystemC's own main() prints a banner before sc_main runs; this one asks it not to.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
