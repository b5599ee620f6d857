// SPDX-License-Identifier: Apache-2.0
// The command line of `collnet`, parsed and checked without running anything: which
// subcommand, and its options as the commands take them. Each command registers its
// options and checks in its own file (cli/<command>_command.hpp); cli/collnet_main.cpp
// runs the result; the fuzz harness fuzz/fuzz_command_line.cpp feeds it arbitrary words.
#pragma once

#include <optional>
#include <string>

#include "cli/compare.hpp"
#include "cli/mpirun_command.hpp"
#include "cli/neighbourhoods_command.hpp"
#include "cli/pingpong.hpp"
#include "cli/run_options.hpp"
#include "cli/sweep_command.hpp"
#include "cli/traffic_command.hpp"
#include "cli/tune_command.hpp"
#include "systemc/transport.hpp"

namespace collnet::cli {

struct CommandLine {
  enum class Command { Run, Pingpong, Algorithms, Machines, Compare, Tune, Neighbourhoods, Traffic, Mpirun, Sweep };
  Command command = Command::Run;
  RunOptions run;                        // run (a collective)
  PingpongOptions pingpong;              // run pingpong
  CompareOptions compare;                // compare
  TuneOptions tune;                      // tune
  NeighbourhoodsOptions neighbourhoods;  // neighbourhoods
  TrafficCommand traffic;                // traffic
  MpirunCommand mpirun;                  // mpirun (checked here too, by check_mpirun_command)
  SweepOptions sweep;                    // sweep
  std::string machines_show;             // machines --show: the preset to print (empty: list them)

  // The processes the command's machine is simulated in (--partitions; 1 for the others).
  unsigned partitions() const {
    return command == Command::Run       ? run.machine.partitions
           : command == Command::Traffic ? traffic.options.machine.partitions
           : command == Command::Mpirun  ? mpirun.partition_count
                                         : 1;
  }
};

// Builds the app, parses argv into `cl` and checks the options the way each command
// would before it runs: the files --input, --counts and --tuning name are read here.
// Prints help, or an error naming the option (collnet: error: ... Run 'collnet X --help'),
// and returns the exit status (0 after help, 2 for bad usage) when there is nothing to
// run; nothing when cl.command is to be run. Never runs a simulation or loads a program.
std::optional<int> parse_command_line(int argc, const char* const* argv, CommandLine& cl);

// Runs the command `cl` holds (after parse_command_line); returns the exit status. A
// partitioned command's processes pass their transport (cli/partitions.hpp).
int run_command_line(const CommandLine& cl, sim::Transport* transport = nullptr);

}  // namespace collnet::cli
