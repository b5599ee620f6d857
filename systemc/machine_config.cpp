// SPDX-License-Identifier: Apache-2.0
#include "systemc/machine_config.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "firmware/torus_layout.hpp"

namespace collnet::sim {

void MachineConfig::set_link_latency(unsigned cycles) {
  tree_latency = barrier_latency = cycles;
  torus_latency = {cycles, cycles, cycles};
}

unsigned MachineConfig::shortest_latency() const {
  return std::min({tree_latency, barrier_latency, torus_latency[0], torus_latency[1], torus_latency[2]});
}

bool MachineConfig::uniform_links() const {
  const unsigned l = tree_latency;
  return barrier_latency == l && torus_latency[0] == l && torus_latency[1] == l && torus_latency[2] == l &&
         tree_cycles_per_flit == 1 && torus_cycles_per_flit == 1;
}

uint16_t MachineConfig::rate_word(double cycles_per_flit) {
  return static_cast<uint16_t>(std::lround(cycles_per_flit * 256));
}

void MachineConfig::check_rate(const std::string& what, double cpf) {
  if (!(cpf >= 1 && cpf <= kMaxCyclesPerFlit))
    throw std::invalid_argument(what + ": must be 1.." + std::to_string(static_cast<int>(kMaxCyclesPerFlit)) +
                                " cycles per flit, got " + std::to_string(cpf));
  if (std::fabs(cpf * 256 - std::round(cpf * 256)) > 1e-9)
    throw std::invalid_argument(what + ": " + std::to_string(cpf) +
                                " cycles per flit is not a multiple of 1/256 cycle (the link's rate accumulator's step)");
}

std::string MachineConfig::trace_file(unsigned partition) const {
  if (partitions < 2 || trace_path.empty()) return trace_path;
  const size_t dot = trace_path.size() >= 4 && trace_path.compare(trace_path.size() - 4, 4, ".fst") == 0
                         ? trace_path.size() - 4
                         : trace_path.size();
  return trace_path.substr(0, dot) + ".p" + std::to_string(partition) + trace_path.substr(dot);
}

void MachineConfig::validate() const {
  if (shape.nodes() < 1) throw std::invalid_argument("machine shape " + shape.str() + " has no nodes");
  if (shape.nodes() > kMaxNodes)
    throw std::invalid_argument("machine shape " + shape.str() + " has " + std::to_string(shape.nodes()) +
                                " nodes; at most " + std::to_string(kMaxNodes) + " are supported");
  const auto check_latency = [](const std::string& what, unsigned cycles) {
    if (cycles < 1 || cycles > kMaxLinkLatency)
      throw std::invalid_argument(what + " latency " + std::to_string(cycles) + " must be 1.." +
                                  std::to_string(kMaxLinkLatency) +
                                  " cycles (the link layer's retransmission timeout covers round trips up to that)");
  };
  check_latency("tree link", tree_latency);
  for (unsigned k = 0; k < 3; ++k) check_latency(std::string("torus ") + "xyz"[k] + " link", torus_latency[k]);
  if (barrier_latency < 1 || barrier_latency > kMaxBarrierLatency)
    throw std::invalid_argument("barrier wire latency " + std::to_string(barrier_latency) + " must be 1.." +
                                std::to_string(kMaxBarrierLatency) + " cycles");
  check_rate("tree link rate", tree_cycles_per_flit);
  check_rate("torus link rate", torus_cycles_per_flit);
  memory.validate();
  if (access_cycles < 1 || access_cycles > kMaxAccessCycles)
    throw std::invalid_argument("register access cost " + std::to_string(access_cycles) + " must be 1.." +
                                std::to_string(kMaxAccessCycles) + " cycles");
  if (!(instructions_per_cycle > 0) || instructions_per_cycle > kMaxInstructionsPerCycle)
    throw std::invalid_argument("processor instructions per cycle " + std::to_string(instructions_per_cycle) +
                                " must be above 0 and at most " + std::to_string(kMaxInstructionsPerCycle));
  if (tasks_per_node < 1 || tasks_per_node > kMaxTasksPerNode)
    throw std::invalid_argument("tasks per node " + std::to_string(tasks_per_node) + " must be 1.." +
                                std::to_string(kMaxTasksPerNode));
  if (coprocessor && tasks_per_node != 1)
    throw std::invalid_argument("coprocessor mode runs one task per node (the other processor runs its message "
                                "layer); " + std::to_string(tasks_per_node) + " tasks per node asks for more");
  if (watchdog_cycles < 1) throw std::invalid_argument("watchdog must allow at least one cycle");
  if (threads < 1 || threads > kMaxThreads)
    throw std::invalid_argument("host threads " + std::to_string(threads) + " must be 1.." +
                                std::to_string(kMaxThreads));
  if (threads > 1 && lockstep)
    throw std::invalid_argument("threads " + std::to_string(threads) +
                                " and lockstep: lockstep runs every node under the SystemC kernel, in one thread");
  if (threads > 1 && !trace_path.empty())
    throw std::invalid_argument("threads " + std::to_string(threads) +
                                " and a trace: the trace is written a cycle at a time under the SystemC kernel, "
                                "in one thread");
  if (!(clock_mhz > 0)) throw std::invalid_argument("clock frequency must be positive");
  if (!trace_nodes.empty() && trace_path.empty())
    throw std::invalid_argument("trace nodes without a trace: name the FST to write");
  for (size_t k = 0; k < trace_nodes.size(); ++k) {
    if (trace_nodes[k] >= shape.nodes())
      throw std::invalid_argument("trace node " + std::to_string(trace_nodes[k]) + " is not on a machine of " +
                                  std::to_string(shape.nodes()) + " nodes");
    for (size_t j = 0; j < k; ++j)
      if (trace_nodes[j] == trace_nodes[k])
        throw std::invalid_argument("trace node " + std::to_string(trace_nodes[k]) + " is listed twice");
  }
  const fw::TorusLayout torus(shape.dims());
  if (!down_nodes.empty() && down().live_count() == 0)  // down() names a node outside the machine or listed twice
    throw std::invalid_argument("down nodes: every node of the machine is down");
  if (!(link_ber >= 0 && link_ber < 1))
    throw std::invalid_argument("link bit error rate " + std::to_string(link_ber) + " must be in [0, 1)");
  for (const LinkCut& c : link_cuts) {
    const std::string what = std::string(c.torus ? "torus" : "tree") + " link " + std::to_string(c.link) + " of node " +
                             std::to_string(c.rank);
    if (c.rank >= shape.nodes())
      throw std::invalid_argument("link cut: node " + std::to_string(c.rank) + " is not on a machine of " +
                                  std::to_string(shape.nodes()) + " nodes");
    if (c.link >= (c.torus ? 6u : 3u))
      throw std::invalid_argument("link cut: " + what + ": a node has " + (c.torus ? "torus links 0..5" : "tree links 0..2"));
    if (c.torus && !torus.has_link(c.link))
      throw std::invalid_argument("link cut: " + what + " does not exist (that dimension has size 1)");
  }
  for (const NodeCut& c : node_cuts)
    if (c.rank >= shape.nodes())
      throw std::invalid_argument("node cut: node " + std::to_string(c.rank) + " is not on a machine of " +
                                  std::to_string(shape.nodes()) + " nodes");
  for (const DownLink& l : down_links) {
    if (l.rank >= shape.nodes())
      throw std::invalid_argument("down link: node " + std::to_string(l.rank) + " is not on a machine of " +
                                  std::to_string(shape.nodes()) + " nodes");
    if (l.dir >= 6) throw std::invalid_argument("down link: direction " + std::to_string(l.dir) + " must be 0..5");
    if (!torus.has_link(l.dir))
      throw std::invalid_argument("down link: node " + std::to_string(l.rank) + " has no link in direction " +
                                  std::to_string(l.dir) + " (that dimension has size 1)");
  }
}

bool MachineConfig::node_down(unsigned rank) const {
  return std::find(down_nodes.begin(), down_nodes.end(), rank) != down_nodes.end();
}

fw::TorusFaults MachineConfig::torus_faults() const {
  fw::TorusFaults f;
  for (unsigned r = 0; r < shape.nodes(); ++r) {
    f.node_down.push_back(node_down(r));
    f.links_down.push_back(torus_links_down(r));
  }
  return f;
}

unsigned MachineConfig::torus_links_down(unsigned rank) const {
  const fw::TorusLayout torus(shape.dims());
  unsigned bits = 0;
  for (unsigned d = 0; d < 6; ++d) {
    if (!torus.has_link(d)) continue;
    const unsigned nb = torus.neighbour(rank, d);
    if (node_down(rank) || node_down(nb)) bits |= 1u << d;
    for (const DownLink& l : down_links)
      if ((l.rank == rank && l.dir == d) || (l.rank == nb && l.dir == fw::TorusLayout::opposite(d))) bits |= 1u << d;
  }
  return bits;
}

bool MachineConfig::any_torus_cut() const {
  return !node_cuts.empty() || std::any_of(link_cuts.begin(), link_cuts.end(), [](const LinkCut& c) { return c.torus; });
}

uint64_t MachineConfig::cut_cycle(bool torus, unsigned rank, unsigned link) const {
  uint64_t at = ~uint64_t{0};
  for (const LinkCut& c : link_cuts)
    if (c.torus == torus && c.rank == rank && c.link == link) at = std::min(at, c.cycle);
  for (const NodeCut& c : node_cuts)
    if (c.rank == rank) at = std::min(at, c.cycle);
  if (node_down(rank)) at = 0;  // down from boot: its wires never carry anything
  return at;
}

}  // namespace collnet::sim
