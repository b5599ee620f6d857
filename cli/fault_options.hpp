// SPDX-License-Identifier: Apache-2.0
// The fault-injection options every command that runs a machine takes (run, traffic,
// mpirun): --link-ber, --link-down, --node-down and --fault-seed, turned into
// MachineConfig's wire faults (sim::MachineConfig::link_ber, link_cuts, node_cuts, fault_seed).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "systemc/machine_config.hpp"

namespace collnet::cli {

struct FaultOptions {
  double link_ber = 0;
  std::string link_down;  // "5:x+@1000,0:tree1@2000"
  std::string node_down;  // "5@1000,9@2000"
  uint64_t fault_seed = 1;
};

void add_fault_options(CLI::App* app, FaultOptions& f);
// Checks the options against a machine of `nodes` nodes and sets them in `m`. Throws
// std::invalid_argument naming the option and the item that is wrong.
void apply_fault_options(const FaultOptions& f, unsigned nodes, sim::MachineConfig& m);
// A link as --link-down names it: x+ x- y+ y- z+ z- on the torus (direction 0..5), tree0
// tree1 tree2 on the tree (link 0..2); the link reports name links so too.
std::string link_option_name(bool torus, unsigned link);
// The cuts of `m` as the options name them, for a report: "link 5:x+ cut at cycle 20000,
// node 3 down at cycle 200" (empty without cuts).
std::string describe_cuts(const sim::MachineConfig& m);
// One --link-down item, NODE:LINK@CYCLE (LINK: x+ x- y+ y- z+ z- or tree0 tree1 tree2).
sim::MachineConfig::LinkCut parse_link_cut(const std::string& item, unsigned nodes);
// One --node-down item, NODE@CYCLE.
sim::MachineConfig::NodeCut parse_node_cut(const std::string& item, unsigned nodes);

}  // namespace collnet::cli
