// SPDX-License-Identifier: Apache-2.0
// --partitions P: one machine simulated by P processes, each a block of the torus
// (sim::PartitionPlan, docs/partitions.md). Given on the command line, collnet starts the
// P processes itself through Open MPI's launcher (`mpirun -np P`, on this host) and each
// runs the same command on its block; started by Open MPI's launcher (`mpirun -H a,b -np P
// collnet run ...`), it notices, and runs as many partitions as there are processes.
// Partition 0 writes the reports; every process exits with the same status.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "systemc/machine.hpp"
#include "systemc/machine_config.hpp"
#include "systemc/partition_plan.hpp"
#include "systemc/transport.hpp"

namespace collnet::cli {

struct PartitionsOption {
  std::optional<long long> count;  // --partitions, when given
};
void add_partitions_option(CLI::App* app, PartitionsOption& o);

// Sets m.partitions from --partitions, or from how many processes Open MPI's launcher
// started: returns what is wrong (a count the machine cannot be cut into, one that
// differs from the launcher's, ...), named after the option, or "".
std::string apply_partitions(const PartitionsOption& o, sim::MachineConfig& m);

// The processes of a partitioned run. With `partitions` > 1 and no launcher around this
// process, runs this command again under Open MPI's launcher, one process per partition,
// and returns its exit status; otherwise nothing, and the caller runs the command here.
std::optional<int> launch_partitions(unsigned partitions, int argc, char** argv);

// This process's link to the other partitions (joining them), or null for one partition.
std::unique_ptr<sim::Transport> join_partitions(unsigned partitions);

// Partition 0's `status` (it reports a partitioned run), on every partition: what each
// process exits with. In one process, `status`.
int partition0_status(sim::Transport* transport, int status);

// A command that failed with an exception (after saying why): in a partitioned run the
// other partitions may be waiting for this one in an exchange, so every process of the run
// ends now with `status` (Open MPI's MPI_Abort); in one process, returns `status`.
int fail_partitions(sim::Transport* transport, int status);

// How a partitioned run went on the host: the cut, and each partition's nodes, wall time
// and the time it spent in the exchanges with the others (waiting for them, mostly).
struct PartitionsReport {
  sim::PartitionPlan plan;
  struct Partition {
    unsigned nodes = 0;
    double wall_seconds = 0, sync_seconds = 0;
  };
  std::vector<Partition> partitions;
  std::vector<std::string> traces;  // --trace: the FST each partition with a traced node wrote

  // Every partition calls it after its run of `wall_seconds`; partition 0's report holds
  // every partition's. Nothing for a machine in one process.
  static std::optional<PartitionsReport> of(const sim::Machine& m, double wall_seconds);
  // "  partitions 2 (y cut in 2): 16 + 16 nodes, 92 wires cut, lookahead 4 cycles; wall
  // 0.41, 0.40 s; waiting 0.10, 0.12 s" (and "; traces a.p0.fst, a.p1.fst" with --trace)
  std::string text() const;
  nlohmann::json json() const;
};

}  // namespace collnet::cli
