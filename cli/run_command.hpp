// SPDX-License-Identifier: Apache-2.0
// `collnet run COLLECTIVE`: one collective on a simulated machine, verified against the
// reference model (cli/run_collective.hpp); `collnet run pingpong`: latency and bandwidth
// between two ranks (cli/pingpong.hpp). Its options, their checks and its run.
#pragma once

#include "cli/subcommand.hpp"
#include "systemc/transport.hpp"

namespace collnet::cli {

// Adds `run` to `app`; its check fills cl.run (and cl.pingpong for pingpong).
Subcommand add_run(CLI::App& app, CommandLine& cl);
// Runs the collective or pingpong `cl` holds; returns the exit status (0 verified, 1 a
// wrong result or a failed run).
// A partitioned run's processes pass their transport (cli/partitions.hpp).
int run_run_command(const CommandLine& cl, sim::Transport* transport = nullptr);

}  // namespace collnet::cli
