// SPDX-License-Identifier: Apache-2.0
// The run of `collnet mpirun` once its options are checked (cli/mpirun_command.hpp): the
// program loaded once per rank, run on the simulated machine, and the report per rank.
#pragma once

#include "cli/mpirun_command.hpp"
#include "driver/p2p_engine.hpp"
#include "systemc/machine_config.hpp"

namespace collnet::cli {

// Loads the program of `c` once per rank and runs it on the machine `config` describes,
// then reports on stderr (and --json). Returns the exit status (cli/mpirun_command.hpp).
// In partitions (config.partitions > 1, `transport` joining them) each process runs the
// ranks of its nodes; partition 0 reports for all, and every process returns the status.
int run_mpi_program(const MpirunCommand& c, const sim::MachineConfig& config, const driver::P2pConfig& p2p,
                    sim::Transport* transport = nullptr);

}  // namespace collnet::cli
