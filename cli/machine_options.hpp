// SPDX-License-Identifier: Apache-2.0
// The machine options every command that runs a machine takes (run, compare, tune, traffic,
// mpirun): --machine (a preset or a machine file, cli/machine_file.hpp) and the timing
// options that override it, in this order: the file, then --link-latency (every wire),
// then the options for one network; --down-nodes; and --torus as run, compare and tune
// take it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "systemc/machine_config.hpp"

namespace collnet::cli {

// What was given on the command line (the values, not CLI11's options: a command may
// apply them after the parser is gone, as traffic and mpirun do).
struct MachineOptions {
  std::string machine;  // a preset's name or a machine file (empty: the default machine)
  std::optional<long long> link_latency, tree_latency, barrier_latency, access_cycles;
  std::optional<std::string> torus_latency;  // "L" or "X,Y,Z"
  std::optional<double> tree_rate, torus_rate, clock_mhz;
  std::optional<std::string> down_nodes;  // --down-nodes "21,42"
  std::vector<std::string> rtl;           // --rtl KEY=VALUE, each a node size (over the file's "rtl")
  bool coprocessor = false;               // --coprocessor (over the file's processor.coprocessor)
};

void add_machine_options(CLI::App* app, MachineOptions& o);

// --torus of the commands that run collectives (run, compare, tune): the machine's shape,
// which wins over the machine file's when given.
struct TorusOption {
  std::string text = "4x4x4";
  CLI::Option* option = nullptr;
  bool given() const { return option != nullptr && option->count() > 0; }
};
void add_torus_option(CLI::App* app, TorusOption& torus);
// Applies the machine file (if any) and then every timing option given to `m`. A command
// that has --torus passes its text as `torus`: the file's shape replaces it unless
// --torus was given (`torus_given`); the command parses the shape from it. Throws
// std::invalid_argument naming the option and what is wrong.
void apply_machine_options(const MachineOptions& o, sim::MachineConfig& m, std::string* torus = nullptr,
                           bool torus_given = false);
// --down-nodes, over the machine file's down_nodes, once `m.shape` is set: throws
// std::invalid_argument naming the option (or the file's key) and the node that is not on
// the machine, listed twice, or the last one left.
void apply_down_nodes(const MachineOptions& o, sim::MachineConfig& m);
// The machine of a command that runs many machines (compare, tune): the machine options,
// the shape and `tasks` per node. Returns what is wrong, named after `command`, or nothing.
std::string set_machine(const std::string& command, const MachineOptions& o, const TorusOption& torus, long long tasks,
                        sim::MachineConfig& m);

}  // namespace collnet::cli
