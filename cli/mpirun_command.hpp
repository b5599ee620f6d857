// SPDX-License-Identifier: Apache-2.0
// `collnet mpirun`: runs an MPI program (built with collnet-mpicc) on the simulated
// machine, one rank per task, and reports per rank the cycles spent in MPI, the calls by
// kind and the bytes moved (docs/mpi.md). Exit status: the program's (the first nonzero
// exit status of a rank, or MPI_Abort's error code, or the error class of a fatal MPI
// error), 1 for a deadlock or a run the watchdog ended, 2 bad usage. Its options, their
// checks and its run (the program's run itself: cli/mpi_program_run.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/fault_options.hpp"
#include "cli/machine_options.hpp"
#include "cli/partitions.hpp"
#include "cli/subcommand.hpp"

namespace collnet::sim {
struct MachineConfig;
}
namespace collnet::driver {
struct P2pConfig;
}

namespace collnet::cli {

struct MpirunCommand {
  long long ranks = 0;  // -n
  std::string torus;    // default: the most cubic shape of ranks / tasks nodes
  long long tasks = 1;
  std::string trace_path;
  std::string trace_nodes;  // "0,1,5": the nodes the trace keeps
  std::string json_path;
  bool tag_output = false;
  std::vector<std::string> exports;  // -x NAME or NAME=VALUE: the ranks' environment (as Open MPI's)
  bool oversubscribe = false;        // --oversubscribe: accepted, as any -n runs
  bool quiet = false;                // -q: no report, only why a run ended early
  std::string compute_scale = "auto";  // --compute-scale: "auto" or a number >= 0 (checked by check_mpirun_command)
  long long watchdog = 2'000'000'000;
  std::string idle_skip = "on";  // --idle-skip: on | off | check
  long long deadlock_cycles = 100'000;
  long long stack_kib = 8192;  // Linux's default for a process (ulimit -s)
  long long eager_limit = -1;  // -1: the driver's default
  long long unexpected_limit = -1;
  MachineOptions machine;            // --machine and the timing options (the shape is -n's and --torus's)
  FaultOptions faults;               // --link-ber, --link-down, --node-down, --fault-seed
  PartitionsOption partitions;       // --partitions
  std::vector<std::string> command;  // the program and its arguments
  unsigned partition_count = 1;      // the partitions the check settled on
};

// Adds `mpirun` and its options to `app`, filling cl.mpirun; its check is
// check_mpirun_command's.
Subcommand add_mpirun(CLI::App& app, CommandLine& cl);
// Checks the options and fills in the machine's shape, tasks, trace, watchdog, stack,
// timing and faults and the point-to-point limits; loads nothing. Bad usage: prints the error and
// returns the exit status (2).
std::optional<int> check_mpirun_command(const MpirunCommand& c, sim::MachineConfig& config, driver::P2pConfig& p2p);
// "collnet: error: mpirun: MSG" and where the usage is; returns 2.
int mpirun_usage(const std::string& msg);
// The command line's words (`words`, argv[0] first) as `mpirun`'s options (`mpirun`) can
// parse them: Open MPI's `-np N` read as `--np N`, and the `--` before the program dropped,
// from `mpirun` up to the program only.
std::vector<std::string> mpirun_words(const CLI::App& mpirun, std::vector<std::string> words);
// Checks the options, loads the program once per rank and runs it (the ranks of this
// partition's nodes, in a partitioned run: `transport`).
int run_mpirun_command(const MpirunCommand& c, sim::Transport* transport = nullptr);

}  // namespace collnet::cli
