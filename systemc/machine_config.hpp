// SPDX-License-Identifier: Apache-2.0
// Everything that defines a simulated machine, passed down as a value.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "firmware/down_nodes.hpp"
#include "firmware/torus_routes.hpp"
#include "systemc/dma_memory.hpp"
#include "systemc/node_sizes.hpp"
#include "systemc/quiescence.hpp"
#include "systemc/shape.hpp"

namespace collnet::sim {

struct MachineConfig {
  static constexpr unsigned kMaxNodes = 65536;  // Blue Gene/L's 64x32x32
  static constexpr unsigned kMaxTasksPerNode = 64;
  static constexpr unsigned kMaxThreads = 256;
  static constexpr unsigned kMaxLinkLatency = 60;  // lk_pkg::LkMaxLatency
  static constexpr unsigned kMaxBarrierLatency = 1000;
  static constexpr double kMaxCyclesPerFlit = 64;  // a flit's gap stays well inside lk_pkg::LkTimeout
  static constexpr unsigned kMaxAccessCycles = 1000;

  Shape shape;
  // Link timing. A latency is the cycles from a sender's register to the receiver's: the
  // tree links', the torus links' per dimension (x, y, z: cables between boards are longer
  // than those on one), and the barrier wires' (the global interrupt network, beside the
  // tree links). A link layer covers round trips up to kMaxLinkLatency; barrier wires have
  // none. A rate is a link's serialisation, in cycles per 64-bit flit: 1 is a flit every
  // cycle, 16 is half a byte per cycle; fractions in steps of 1/256 (lk_port's cpf_i).
  unsigned tree_latency = 4;
  std::array<unsigned, 3> torus_latency{4, 4, 4};
  unsigned barrier_latency = 4;
  double tree_cycles_per_flit = 1;
  double torus_cycles_per_flit = 1;
  // Every link latency and the barrier wires' (what --link-latency sets).
  void set_link_latency(unsigned cycles);
  // The shortest latency of any wire: how far one node may run ahead of another.
  unsigned shortest_latency() const;
  // Every wire has the same latency and every link a flit per cycle (the flat engine's
  // machine: nd_machine has one LinkLatency and full-rate links).
  bool uniform_links() const;
  // A rate as lk_port's cpf_i (8.8 fixed point).
  static uint16_t rate_word(double cycles_per_flit);
  // Throws std::invalid_argument, "`what`: ...", unless `cycles_per_flit` is a rate a link
  // can have: 1..kMaxCyclesPerFlit, a multiple of 1/256.
  static void check_rate(const std::string& what, double cycles_per_flit);

  // The node's sizes (buffer and FIFO depths: docs/design-space.md). Other than the
  // defaults, the machine's node models come from a model library built for them
  // (systemc/model_library.hpp).
  NodeSizes sizes;

  // The memory behind a node's torus DMA engine (torus.dma: docs/dma.md): its latency and
  // bandwidth as the engine's memory port sees them (a machine file's "memory" section).
  DmaMemory::Timing memory;

  unsigned access_cycles = 1;             // cycles one register or memory access costs a processor, >= 1
  // The processor's speed for the code an MPI program runs between calls (--compute-scale
  // auto): sustained instructions per cycle at clock_mhz, 0 < value <= kMaxInstructionsPerCycle.
  double instructions_per_cycle = 1.0;
  static constexpr double kMaxInstructionsPerCycle = 16.0;
  unsigned tasks_per_node = 1;            // processors (tasks) per node, 1..kMaxTasksPerNode
  // Coprocessor mode (Blue Gene/L's): each node's one task has a second processor beside it
  // that runs its message layer (fw::Coprocessor): non-blocking collectives and the
  // point-to-point packets move there while the task computes. Needs tasks_per_node 1.
  bool coprocessor = false;
  uint64_t watchdog_cycles = 50'000'000;  // a run that has not finished by then is reported
  size_t stack_bytes = 0;                 // each processor's stack (0: SystemC's default); MPI programs want more
  std::string trace_path;                 // FST file to write (empty: no trace); see trace_file()
  std::vector<unsigned> trace_nodes;      // the nodes the trace holds, in order (empty: every node)
  // The FST partition `partition` writes: trace_path in one process; in partitions each
  // writes its own nodes' to trace_path with ".p<partition>" before ".fst" (a.fst: a.p0.fst,
  // a.p1.fst, ...), each with its GTKWave view beside it.
  std::string trace_file(unsigned partition) const;
  // Machine::advance() steps each node shortest_latency() cycles at a time (exact, and faster
  // on big machines: a node's state stays in cache); lockstep steps every node one cycle
  // at a time under the SystemC kernel, as run() does. A trace forces lockstep.
  bool lockstep = false;
  // Host threads Machine::advance() steps the nodes with: each takes a contiguous range of
  // ranks through every quantum (results are the same for any count). Needs quantum
  // stepping (not lockstep, no trace); run(), whose processors live in the SystemC kernel,
  // is always one thread. More threads than nodes are not started.
  unsigned threads = 1;
  // Processes the machine is cut into (systemc/partition_plan.hpp): each builds and runs
  // its block's nodes, processors and tasks, and the Machine is given the Transport that
  // joins them. Results are cycle for cycle those of one process.
  unsigned partitions = 1;
  // Whether a node side (tree or torus) that is quiescent is evaluated (Off), skipped (On),
  // or evaluated and checked to be quiescent (Check, which throws where skipping would
  // have been wrong). The results are the same cycle for cycle; see Quiescence. A trace
  // evaluates everything.
  IdleSkip idle_skip = IdleSkip::On;
  double clock_mhz = 700.0;               // for reports only
  // Parts down from boot. A down node is down on every network: its torus links are marked
  // down in the routers at both ends, its tree links and barrier wires carry nothing, the
  // personality names it to every node (fw::DownNodes) and it runs no task. Each listed
  // torus link (both of its directions) is marked down at both ends too.
  std::vector<unsigned> down_nodes;
  struct DownLink {
    unsigned rank, dir;  // the link leaving `rank` in direction `dir` (2 * dimension + 1 if minus)
  };
  std::vector<DownLink> down_links;

  // Faults on the wires (DelayWire::set_faults): every bit a link carries flips with
  // probability link_ber, from generators seeded by fault_seed; a cut link carries nothing,
  // both ways, from its cycle on, and its link ends declare it down (lk_port). A cut is
  // not a marking: the routers do not know of it.
  double link_ber = 0;
  uint64_t fault_seed = 1;
  struct LinkCut {
    bool torus;      // a torus link (link: direction 0..5) or a tree link (link: 0..2)
    unsigned rank, link;
    uint64_t cycle;  // the first cycle the link carries nothing
  };
  std::vector<LinkCut> link_cuts;
  // A node that goes down mid-run: every link it has, tree and torus, is cut at `cycle`.
  struct NodeCut {
    unsigned rank;
    uint64_t cycle;
  };
  std::vector<NodeCut> node_cuts;
  bool any_cut() const { return !link_cuts.empty() || !node_cuts.empty(); }
  bool any_torus_cut() const;
  // The first cycle the link carries nothing (~0: never), by the cuts that name it or its
  // node at this end (not the far end's: the caller asks both).
  uint64_t cut_cycle(bool torus, unsigned rank, unsigned link) const;
  // Bit d: torus link d of `rank` is marked down (by down_nodes and down_links).
  unsigned torus_links_down(unsigned rank) const;
  bool node_down(unsigned rank) const;
  // The down nodes as the personality gives them (sorted; the live nodes' numbering).
  // Throws std::invalid_argument, as validate() does, for a node outside the machine or
  // listed twice.
  fw::DownNodes down() const { return fw::DownNodes(down_nodes, shape.nodes()); }
  // The world's ranks: every task of every live node.
  unsigned world_ranks() const { return (shape.nodes() - static_cast<unsigned>(down_nodes.size())) * tasks_per_node; }
  // Every node's down flag and down links, for software route choice (fw::routes_around).
  fw::TorusFaults torus_faults() const;

  // Throws std::invalid_argument naming the first bad field.
  void validate() const;
};

}  // namespace collnet::sim
