// SPDX-License-Identifier: Apache-2.0
// `collnet run COLLECTIVE`: one collective on a simulated machine, verified against the
// reference model (cli/run_collective.hpp); `collnet run pingpong`: latency and bandwidth
// between two ranks (cli/pingpong.hpp). Its options, their checks and its run.
#pragma once

#include "cli/run_options.hpp"
#include "cli/subcommand.hpp"
#include "systemc/transport.hpp"

namespace collnet::cli {

// Why algorithm `a` cannot run the collective on these members of this machine, or "": the
// tree where the members' route on it passes a node that is down, torus-deposit (whose
// line broadcasts reach every node) with a node down. auto never picks them there.
std::string unavailable(const RunOptions& options, driver::Algorithm a);

// Adds `run` to `app`; its check fills cl.run (and cl.pingpong for pingpong).
Subcommand add_run(CLI::App& app, CommandLine& cl);
// Runs the collective or pingpong `cl` holds; returns the exit status (0 verified, 1 a
// wrong result or a failed run).
// A partitioned run's processes pass their transport (cli/partitions.hpp).
int run_run_command(const CommandLine& cl, sim::Transport* transport = nullptr);

}  // namespace collnet::cli
