// SPDX-License-Identifier: Apache-2.0
// `collnet sweep`: one workload (a `run`, `traffic` or `mpirun` command line) over a list
// of hardware variants, the product of node sizes given as lists (--rtl KEY=V1,V2,...) and
// machine files (--machines), and one table and one JSON of the results (plotted with
// scripts/plot.py sweep). Every variant first passes a smoke set before its numbers are
// used: the router's and the adapter's testbenches built at its sizes
// (systemc/block_benches.hpp), and whole-machine collectives on the tree and the torus,
// verified; --area adds each variant's cells and flip-flops from Yosys
// (scripts/rtl_portability.sh). Each run is a collnet process of its own (a SystemC kernel
// runs once per process), so a variant's node models are built by its first run and cached
// (docs/design-space.md).
#pragma once

#include <string>
#include <vector>

#include "cli/subcommand.hpp"
#include "systemc/node_sizes.hpp"

namespace collnet::cli {

struct SweepOptions {
  std::vector<std::string> rtl;   // --rtl KEY=V1,V2,...: a size and the values it takes
  std::string machines;           // --machines A,B: machine files (or presets), each a variant
  bool area = false;              // --area: Yosys cells and flip-flops per variant
  std::string json;               // --json FILE: every variant and its results
  std::string plot;               // --plot FILE.svg|.png: scripts/plot.py sweep of that JSON
  std::string keep;               // --keep DIR: where each run's JSON goes (default: a temporary directory)
  std::vector<std::string> workload;  // after --: the command each variant runs

  // Filled by the check: the variants, each a machine (empty: the workload's own) and sizes.
  struct Variant {
    std::string machine;
    sim::NodeSizes sizes;
    std::string label;  // "torus.vc_buffer_flits=48" (or the machine's name, or "default")
  };
  std::vector<Variant> variants;
  std::vector<std::string> swept;  // the keys --rtl names, in order
};

struct CommandLine;

// Adds `sweep` to `app`; its check fills cl.sweep.
Subcommand add_sweep(CLI::App& app, CommandLine& cl);
// Runs the sweep; returns the exit status (1 if a variant failed its smoke set or its run).
int run_sweep_command(const SweepOptions& o);

}  // namespace collnet::cli
