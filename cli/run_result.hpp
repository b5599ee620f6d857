// SPDX-License-Identifier: Apache-2.0
// What one run of a collective gave: the stages of `collnet run` (cli/run_collective.hpp)
// fill it in turn, its report (the text line, --json) is written from it, and the
// commands that run many (compare, tune) read their measurements from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/link_report.hpp"
#include "cli/link_samples.hpp"
#include "cli/partitions.hpp"
#include "driver/algorithm.hpp"
#include "driver/job.hpp"
#include "driver/op.hpp"
#include "reference/verify.hpp"
#include "systemc/machine.hpp"
#include "systemc/node.hpp"

namespace collnet::cli {

struct RunResult {
  // prepare: the communicator and the buffers
  std::vector<unsigned> members;    // its tasks (node * tasks per node + task), sorted
  driver::Op op = driver::Op::Bor;  // what it reduces with (bor for the collectives that take no op)
  uint64_t count = 0;               // elements per rank (0 for barrier; with --input, the file's)
  uint64_t bytes_per_rank = 0;      // what each rank sends, on average for the personalised and vector forms

  // run: the machine's report and what it measured
  driver::RunReport job;                       // the job's: ok, or the error; the cycles simulated, the wall time
  std::optional<driver::Algorithm> algorithm;  // what ran (what auto chose); none: the collective has one
  std::optional<unsigned> class_route;         // the communicator's; none when it runs on the torus
  unsigned tree_depth = 0;
  uint64_t first_start = 0, last_start = 0;  // the cycles the members entered the collective
  uint64_t first_end = 0, last_end = 0;      // and left it
  unsigned first_to_leave = 0;               // the member that left first
  uint64_t cycles = 0;   // the collective's (a barrier: from the last arrival to the last departure)
  uint64_t packets = 1;  // the most any member sent (at least 1)
  uint64_t tree_link_flits = 0, torus_link_flits = 0;
  uint64_t torus_busiest_link_flits = 0;  // the busiest torus link direction's
  sim::Node::Activity activity;           // the node sides' clock edges evaluated and skipped
  std::optional<LinkSamples> samples;     // --sample-every
  std::optional<LinkReport> links;        // the link layer's counters, for --json or after faults
  std::optional<PartitionsReport> partitions;  // a partitioned machine's cut and host times
  // Each node down from boot (sorted), and what crossed its edges during the run.
  std::vector<std::pair<unsigned, sim::Machine::NodeTraffic>> down_traffic;

  // verify
  bool verified = false;
  reference::Mismatch mismatch;  // the wrong elements (the collectives that move data)

  // The algorithm as the report names it ("default" for the collectives with one).
  std::string algorithm_name() const { return algorithm ? driver::to_string(*algorithm) : "default"; }
};

}  // namespace collnet::cli
